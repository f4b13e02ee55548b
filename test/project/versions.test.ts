/**
 * One version everywhere: package.json's is the one source; the Python package, the Go client, the image's
 * label, `dipswitch --version`, /__sim/health and the Testcontainers module's default tag all say it, and the
 * check fails naming the place that does not.
 */
import { cpSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { packageVersion, projectRoot } from '../../src/contract.js';
import { defaultImage } from '../../src/testing/testcontainers.js';
import { runCli } from '../support/cli_process.js';
import { useServer } from '../support/helpers.js';
// @ts-expect-error -- a script of the project's, plain JavaScript
import { versionsOff, versionsSaid } from '../../scripts/versions.mjs';

type Said = { where: string; version: string | null };

describe('one version', () => {
  const server = useServer();

  it("every place says package.json's version", async () => {
    const said = versionsSaid(projectRoot) as Said[];
    expect(said.map((s) => s.version)).toEqual(said.map(() => packageVersion));
    expect(runCli(['--version']).stdout.trim()).toBe(packageVersion);
    expect((await server().call('GET', '/__sim/health')).body).toEqual({ status: 'ok', version: packageVersion });
    const image = process.env.DIPSWITCH_IMAGE;
    delete process.env.DIPSWITCH_IMAGE;
    expect(defaultImage()).toBe(`dipswitch:${packageVersion}`);
    if (image !== undefined) process.env.DIPSWITCH_IMAGE = image;
  });

  it('a place that says another version fails the check, named', () => {
    const copy = mkdtempSync(join(tmpdir(), 'dipswitch-versions-'));
    for (const f of ['package.json', 'Dockerfile', 'clients', 'action.yml', 'templates'])
      cpSync(join(projectRoot, f), join(copy, f), { recursive: true });
    expect(versionsOff(copy)).toEqual([]);
    const pyproject = join(copy, 'clients', 'python', 'pyproject.toml');
    writeFileSync(pyproject, readFileSync(pyproject, 'utf8').replace(/^version = ".*"$/m, 'version = "9.9.9"'));
    expect((versionsOff(copy) as Said[]).map((s) => s.where)).toEqual(['clients/python/pyproject.toml']);
  });
});
