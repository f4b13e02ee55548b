/**
 * dipswitch is released under the Apache License 2.0: the text at the root, the same text beside each
 * client that is published on its own (a Go module, a Python package), and every piece of metadata that
 * names a licence says so.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadContract, projectRoot } from '../../src/contract.js';

const read = (path: string) => readFileSync(join(projectRoot, path), 'utf8');

describe('the licence', () => {
  it('the Apache License 2.0 is at the root and, the same text, beside each client', () => {
    const text = read('LICENSE');
    expect(text).toContain('Apache License\n                           Version 2.0, January 2004');
    expect(text).toContain('END OF TERMS AND CONDITIONS');
    for (const copy of ['clients/python/LICENSE', 'clients/go/LICENSE']) expect(read(copy), copy).toBe(text);
  });

  it('the package, the image, the Python metadata and the control API name it', () => {
    expect((JSON.parse(read('package.json')) as { license: string }).license).toBe('Apache-2.0');
    expect(read('Dockerfile')).toContain('org.opencontainers.image.licenses="Apache-2.0"');
    expect(read('clients/python/pyproject.toml')).toContain('license = { text = "Apache-2.0" }');
    expect((loadContract('sim').document as { info: { license: unknown } }).info.license).toEqual({
      name: 'Apache License 2.0',
      identifier: 'Apache-2.0',
    });
  });
});
