import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ESLint } from 'eslint';
import * as prettier from 'prettier';
import { describe, expect, it } from 'vitest';
import { projectRoot } from '../src/http/contract.js';

/** What `npm test` runs before the suite (`format:check`, `lint`) refuses, shown on small files. */
describe('the checks npm test runs first', () => {
  it('prettier refuses code that is not formatted', async () => {
    const options = { ...(await prettier.resolveConfig(join(projectRoot, 'src', 'app.ts'))), filepath: 'x.ts' };
    expect(await prettier.check('const a = {b:1}\n', options)).toBe(false);
    expect(await prettier.check('const a = { b: 1 };\n', options)).toBe(true);
  });

  it('eslint refuses an explicit any, a non-null assertion in src, and an import circle', async () => {
    const dir = join(projectRoot, 'src', `lint-probe-${process.pid}`);
    mkdirSync(dir, { recursive: true });
    try {
      writeFileSync(join(dir, 'a.ts'), "import { b } from './b.js';\n\nexport const a = (x: any): number => b(x)!;\n");
      writeFileSync(
        join(dir, 'b.ts'),
        "import { a } from './a.js';\n\nexport const b = (x: unknown): number | undefined => (x ? a(x) : undefined);\n",
      );
      const results = await new ESLint({ cwd: projectRoot }).lintFiles([join(dir, 'a.ts'), join(dir, 'b.ts')]);
      const rules = results.flatMap((r) => r.messages.map((m) => m.ruleId));
      expect(rules).toContain('@typescript-eslint/no-explicit-any');
      expect(rules).toContain('@typescript-eslint/no-non-null-assertion');
      expect(rules).toContain('import-x/no-cycle');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 30_000);
});
