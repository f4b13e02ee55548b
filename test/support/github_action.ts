/**
 * A composite action's steps run as GitHub's runner runs them: the inputs (given, else their defaults) and
 * `github.action_path` put into each step's `run` and `env`, each step in bash with GITHUB_OUTPUT (its own),
 * GITHUB_ENV, GITHUB_STEP_SUMMARY and RUNNER_TEMP, a failing step ending the action; the action's outputs read
 * from its steps' outputs.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { parse } from 'yaml';

interface ActionFile {
  inputs?: Record<string, { default?: string }>;
  outputs?: Record<string, { value: string }>;
  runs: { using: string; steps: { id?: string; run: string; shell: string; env?: Record<string, string> }[] };
}

/** The runner's files for one job: what every action of the job shares. */
export interface Job {
  runnerTemp: string;
  githubEnv: string;
  summary: string;
}

export function newJob(): Job {
  const dir = mkdtempSync(join(tmpdir(), 'dipswitch-gh-'));
  const job = { runnerTemp: join(dir, 'temp'), githubEnv: join(dir, 'env'), summary: join(dir, 'summary.md') };
  mkdirSync(job.runnerTemp);
  writeFileSync(job.githubEnv, '');
  writeFileSync(job.summary, '');
  return job;
}

/** `key=value` lines, as GITHUB_OUTPUT and GITHUB_ENV hold them. */
export const keyValues = (text: string): Record<string, string> =>
  Object.fromEntries(
    text
      .split('\n')
      .filter((l) => l.includes('='))
      .map((l) => [l.slice(0, l.indexOf('=')), l.slice(l.indexOf('=') + 1)]),
  );

export function runAction(
  file: string,
  job: Job,
  inputs: Record<string, string> = {},
  env: Record<string, string> = {},
): { status: number; output: string; outputs: Record<string, string> } {
  const action = parse(readFileSync(file, 'utf8')) as ActionFile;
  const values: Record<string, string> = {};
  for (const [name, spec] of Object.entries(action.inputs ?? {})) values[name] = inputs[name] ?? spec.default ?? '';
  const steps: Record<string, Record<string, string>> = {};
  const put = (text: string) =>
    text.replace(/\$\{\{\s*([^}]+?)\s*\}\}/g, (_m, expr: string) => {
      if (expr === 'github.action_path') return dirname(file);
      const input = /^inputs\.([\w-]+)$/.exec(expr);
      if (input) return values[input[1]!] ?? '';
      const out = /^steps\.([\w-]+)\.outputs\.([\w-]+)$/.exec(expr);
      if (out) return steps[out[1]!]?.[out[2]!] ?? '';
      throw new Error(`an expression this runner does not know: ${expr}`);
    });
  // the machine's environment, less dipswitch's own settings and npm's (a runner starts clean of them)
  const base = Object.fromEntries(
    Object.entries(process.env).filter(([k]) => !k.startsWith('DIPSWITCH_') && !k.startsWith('npm_')),
  );
  let output = '';
  for (const [i, step] of action.runs.steps.entries()) {
    const outputFile = join(job.runnerTemp, `output-${Date.now()}-${i}`);
    writeFileSync(outputFile, '');
    const stepEnv = Object.fromEntries(Object.entries(step.env ?? {}).map(([k, v]) => [k, put(String(v))]));
    const ran = spawnSync('bash', ['--noprofile', '--norc', '-eo', 'pipefail', '-c', put(step.run)], {
      encoding: 'utf8',
      timeout: 180_000,
      env: {
        ...base,
        ...keyValues(readFileSync(job.githubEnv, 'utf8')),
        ...env,
        ...stepEnv,
        GITHUB_ACTIONS: 'true',
        RUNNER_TEMP: job.runnerTemp,
        GITHUB_OUTPUT: outputFile,
        GITHUB_ENV: job.githubEnv,
        GITHUB_STEP_SUMMARY: job.summary,
      },
    });
    output += `${ran.stdout}${ran.stderr}`;
    if (step.id) steps[step.id] = keyValues(readFileSync(outputFile, 'utf8'));
    if (ran.status !== 0) return { status: ran.status ?? 1, output, outputs: {} };
  }
  const outputs = Object.fromEntries(Object.entries(action.outputs ?? {}).map(([k, v]) => [k, put(v.value)]));
  return { status: 0, output, outputs };
}
