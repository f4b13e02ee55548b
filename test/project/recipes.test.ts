/**
 * The end-of-suite recipes of the docs, run as written in a new project with the packed package
 * installed: vitest's global setup, a node:test runner script, and the CI recipe (npx in the
 * background, the suite, the coverage gate, kill -TERM). Each fails the run under its gate and passes
 * over it; the CI recipe ends with no server left and its port free.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { projectRoot } from '../../src/contract.js';
import { eventually } from '../support/eventually.js';
import { installedClient } from '../support/packed.js';

/** The blocks of a docs page marked `recipe=NAME`, by name. */
function recipes(page: string): Map<string, string> {
  const text = readFileSync(join(projectRoot, page), 'utf8');
  return new Map([...text.matchAll(/```\w+ recipe=([\w-]+)\n([\s\S]*?)```/g)].map((m) => [m[1]!, m[2]!]));
}

/** A port free now on loopback. */
const freePort = (): Promise<number> =>
  new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });

/** Whether a port can be listened on (nothing holds it). */
const portFree = (port: number): Promise<boolean> =>
  new Promise((resolve) => {
    const s = createServer();
    s.once('error', () => resolve(false));
    s.listen(port, '127.0.0.1', () => s.close(() => resolve(true)));
  });

/** A test file of the client, taking a sandbox of the run from DIPSWITCH_URL as the recipes say. */
const NODE_TEST = `import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { connectDipswitch } from 'dipswitch';

let box;
before(async () => (box = await connectDipswitch(process.env.DIPSWITCH_URL).sandbox()));
after(() => box.remove());

test('lists the sandbox numbers', async () => {
  const answer = await fetch(\`\${box.url}/api/v1/numbers\`, { headers: { authorization: \`Bearer \${box.keys.admin}\` } });
  assert.equal(answer.status, 200);
});
`;

// a test waits as long as the recipes it runs may (180 s each, two a test)
describe('the end-of-suite recipes of the docs', { timeout: 400_000 }, () => {
  let client = '';
  const library = recipes('docs/library.md');
  const running = recipes('docs/running.md');
  const run = (command: string, args: string[], env: Record<string, string> = {}) =>
    spawnSync(command, args, { cwd: client, encoding: 'utf8', timeout: 180_000, env: { ...process.env, ...env } });

  beforeAll(() => {
    // the suite's own files by name: Node 24's node:test would take the vitest suite's .ts files too
    client = installedClient(mkdtempSync(join(tmpdir(), 'dipswitch-recipes-')), {
      test: 'node --test test/numbers.test.mjs',
    });
    for (const tool of ['vitest'])
      symlinkSync(join(projectRoot, 'node_modules', tool), join(client, 'node_modules', tool), 'dir');
    mkdirSync(join(client, 'test'));
    writeFileSync(join(client, 'test', 'numbers.test.mjs'), NODE_TEST);
  }, 300_000);

  it('vitest: the global setup fails the run under its gate and passes over it', () => {
    const dir = join(client, 'vitest-suite');
    mkdirSync(dir);
    writeFileSync(join(dir, 'dipswitch.setup.ts'), library.get('vitest-setup')!);
    writeFileSync(join(dir, 'numbers.test.ts'), library.get('vitest-test')!);
    writeFileSync(
      join(dir, 'vitest.config.ts'),
      "import { defineConfig } from 'vitest/config';\nexport default defineConfig({ test: { globalSetup: ['./dipswitch.setup.ts'] } });\n",
    );
    const vitest = (gate: string) =>
      spawnSync(process.execPath, [join(client, 'node_modules', 'vitest', 'vitest.mjs'), 'run'], {
        cwd: dir,
        encoding: 'utf8',
        timeout: 180_000,
        env: { ...process.env, DIPSWITCH_FAIL_UNDER: gate, DIPSWITCH_RUN: '' },
      });
    const failing = vitest('100');
    expect(failing.status, `${failing.stdout}${failing.stderr}`).toBe(1);
    expect(failing.stdout).toContain('1 passed');
    expect(failing.stderr).toMatch(/dipswitch coverage of run vitest-\d+: .* FAILS the gate of 100%/);
    const passing = vitest('1');
    expect(passing.status, `${passing.stdout}${passing.stderr}`).toBe(0);
    expect(passing.stderr).toMatch(/passes the gate of 1%/);
  });

  it('node:test: the runner script fails the run under its gate and passes over it', () => {
    writeFileSync(join(client, 'run-tests.mjs'), library.get('node-test-run')!);
    const nodeTest = (gate: string) =>
      run(process.execPath, ['run-tests.mjs', join('test', 'numbers.test.mjs')], {
        DIPSWITCH_FAIL_UNDER: gate,
        DIPSWITCH_RUN: '',
      });
    const failing = nodeTest('100');
    expect(failing.status, `${failing.stdout}${failing.stderr}`).toBe(1);
    expect(failing.stdout).toMatch(/# pass 1/);
    expect(failing.stderr).toContain('FAILS the gate of 100%');
    const passing = nodeTest('1');
    expect(passing.status, `${passing.stdout}${passing.stderr}`).toBe(0);
  });

  it('CI: npx in the background, the suite, the gate; kill -TERM leaves no server and the port free', async () => {
    const recipe = running.get('ci')!;
    expect(recipe).toContain('kill -TERM %1');
    for (const [gate, status] of [
      ['100', 1],
      ['1', 0],
    ] as const) {
      const port = await freePort();
      const script = recipe.replaceAll('4010', String(port));
      const ci = run('bash', ['-c', script], { DIPSWITCH_FAIL_UNDER: gate, DIPSWITCH_RUN: '' });
      expect(ci.status, `${ci.stdout}${ci.stderr}`).toBe(status);
      const report = readFileSync(join(client, 'coverage.xml'), 'utf8');
      expect(report).toContain('<testsuites name="dipswitch coverage"');
      // the server npx launched stops with it: no process left, the port free for the next job
      await eventually(async () => await portFree(port), `port ${port} to be freed`);
      await eventually(() => {
        const ps = spawnSync('ps', ['-eo', 'args'], { encoding: 'utf8' }).stdout;
        return !ps
          .split('\n')
          .some((line) => line.includes(join(client, 'node_modules')) && line.includes('dipswitch'));
      }, 'no dipswitch process left');
    }
  });
});
