/**
 * The CI recipes of docs/ci.md (fenced blocks marked `ci-recipe=NAME`) and their shell, as a CI system runs it:
 * the job's environment, each step in bash, `npm test` standing for the team's tests (a client's calls of a
 * sandbox of the run) and `npx --yes dipswitch@VERSION` for the built command (nothing is published here).
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { projectRoot } from '../../src/contract.js';

export const recipes = (): Map<string, string> => {
  const text = readFileSync(join(projectRoot, 'docs', 'ci.md'), 'utf8');
  return new Map([...text.matchAll(/```\w+ ci-recipe=([\w-]+)\n([\s\S]*?)```/g)].map((m) => [m[1]!, m[2]!]));
};

/** A client team's tests, standing in for `npm test`: a sandbox of the run, one call of the API. */
export const CLIENT_TEST = `const url = process.env.DIPSWITCH_URL, token = process.env.DIPSWITCH_ADMIN_TOKEN;
const made = await fetch(url + '/__sim/accounts', { method: 'POST', body: JSON.stringify({ run: process.env.DIPSWITCH_RUN }),
  headers: { 'x-sim-admin-token': token, 'content-type': 'application/json' } });
if (made.status !== 201) { console.error('a sandbox:', made.status); process.exit(1); }
const box = await made.json();
const res = await fetch(url + '/api/v1/numbers', { headers: { authorization: 'Bearer ' + box.keys.admin } });
if (res.status !== 200) process.exit(1);
console.log('the tests passed against', url);
`;

const cli = `${process.execPath} ${join(projectRoot, 'dist', 'src', 'cli', 'main.js')}`;

/** Runs a recipe's shell steps in bash, in a scratch folder, with the job's environment; stops at the first that fails. */
export function runSteps(
  steps: string[],
  env: Record<string, string>,
): { status: number; output: string; dir: string } {
  const dir = mkdtempSync(join(tmpdir(), 'dipswitch-ci-'));
  writeFileSync(join(dir, 'client-test.mjs'), CLIENT_TEST);
  let output = '';
  for (const step of steps) {
    const line = step
      .replace(/\bnpm test\b/g, `${process.execPath} client-test.mjs`)
      .replace(/npx --yes dipswitch@\S+/g, cli);
    const ran = spawnSync('bash', ['--noprofile', '--norc', '-eo', 'pipefail', '-c', line], {
      cwd: dir,
      encoding: 'utf8',
      timeout: 120_000,
      env: { ...Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('npm_'))), ...env },
    });
    output += `$ ${line}\n${ran.stdout}${ran.stderr}`;
    if (ran.status !== 0) return { status: ran.status ?? 1, output, dir };
  }
  return { status: 0, output, dir };
}
