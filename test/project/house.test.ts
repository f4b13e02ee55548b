/**
 * The house's own rules that lint does not say (a file's and a function's length are lint's: at most 400
 * and 80 lines in src/, eslint.config.js). No error is dropped without a reason (docs/architecture.md): a catch that keeps nothing of its error
 * (`catch {`, `.catch(() => …)`) says why in a comment at its start, naming the condition it stands
 * for; one that drops a failure on purpose names it with `cleanupFailed`, or logs what was lost with
 * `lostWith` (src/domain/side_paths.ts). The rest use their error (a named condition checked, a log,
 * a rethrow). Tests and benchmarks reach dipswitch through its public surfaces: options, exported
 * parts, the HTTP APIs; never a private member reached by a cast. Every path git tracks is plain
 * (letters, digits, `.`, `_`, `-`, `@`): a file named by a slip of the shell shows at once.
 */
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { projectRoot } from '../../src/contract.js';

/** Every .ts file under a folder, but the generated types. */
function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return name === 'generated' ? [] : sources(path);
    return path.endsWith('.ts') ? [path] : [];
  });
}

/** The catches of a text that keep nothing of their error and give no reason, as `file:line`. */
export function silentCatches(file: string, text: string): string[] {
  const lines = text.split('\n');
  const found: string[] = [];
  lines.forEach((line, i) => {
    const blockCatch = /\bcatch\s*\{/.test(line);
    const callbackCatch = /\.catch\(\(\)\s*=>/.test(line);
    if (!blockCatch && !callbackCatch) return;
    // the reason: a comment on the line itself, the first line of the block, or the line before a callback's
    const comment = (n: number) => /^\s*\/\//.test(lines[n] ?? '');
    const reason = /\/\/|\/\*/.test(line) || (blockCatch ? comment(i + 1) : comment(i - 1));
    if (!reason) found.push(`${file}:${i + 1}`);
  });
  return found;
}

describe('caught errors', () => {
  it('every catch that keeps nothing of its error says why', () => {
    const silent = sources(join(projectRoot, 'src')).flatMap((path) =>
      silentCatches(relative(projectRoot, path), readFileSync(path, 'utf8')),
    );
    expect(silent).toEqual([]);
  });

  it('finds a catch that says nothing, and takes one that says why', () => {
    expect(silentCatches('a.ts', 'try {\n  f();\n} catch {\n  return 1;\n}\n')).toEqual(['a.ts:3']);
    expect(silentCatches('b.ts', 'try {\n  f();\n} catch {\n  // not JSON: no kind\n  return 1;\n}\n')).toEqual([]);
    expect(silentCatches('c.ts', 'await p.catch(() => null);\n')).toEqual(['c.ts:1']);
    expect(silentCatches('d.ts', 'await p.catch(() => null); // gone: nothing to close\n')).toEqual([]);
    expect(silentCatches('e.ts', '// gone: nothing to close\nawait p.catch(() => null);\n')).toEqual([]);
  });
});

describe('tracked files', () => {
  it('each has a plain path', () => {
    const paths = execFileSync('git', ['ls-files', '-z'], { cwd: projectRoot, encoding: 'utf8' }).split('\0');
    expect(paths.length).toBeGreaterThan(100);
    expect(paths.filter((path) => path !== '' && !/^[\w.@/-]+$/.test(path))).toEqual([]);
  });
});

/** The lines of a text that cast a value to an object type of its own making to reach a member, as `file:line`. */
export function reachesIn(file: string, text: string): string[] {
  return text.split('\n').flatMap((line, i) => (/as unknown as \{/.test(line) ? [`${file}:${i + 1}`] : []));
}

describe('tests', () => {
  it('go through public surfaces: none casts a part of dipswitch to reach a private member', () => {
    const self = relative(projectRoot, join(projectRoot, 'test', 'project', 'house.test.ts'));
    const found = ['test', 'bench']
      .flatMap((dir) => sources(join(projectRoot, dir)))
      .filter((path) => relative(projectRoot, path) !== self)
      .flatMap((path) => reachesIn(relative(projectRoot, path), readFileSync(path, 'utf8')));
    expect(found).toEqual([]);
  });

  it('finds a cast that reaches in', () => {
    expect(reachesIn('a.ts', 'const log = (store as unknown as { log: LogFile }).log;\n')).toEqual(['a.ts:1']);
    expect(reachesIn('b.ts', 'const r = { mails: [] } as unknown as Relay;\n')).toEqual([]);
  });
});
