/**
 * The GitLab CI/CD component (templates/dipswitch.yml) included by a project as GitLab includes it: expanded by
 * gitlab-ci-local (inputs, the service with its alias and variables, the JUnit report), then the job's script
 * and after_script run in bash with the job's variables against a real dipswitch standing in for the service,
 * as far as a machine without a Docker daemon can run it.
 */
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { projectRoot } from '../../src/contract.js';
import { startCli, type Running } from '../support/cli_process.js';
import { CLIENT_TEST } from '../support/ci_recipes.js';

interface Job {
  image: { name: string };
  services: { name: string; alias: string; variables: Record<string, string> }[];
  variables: Record<string, string>;
  script: string[];
  after_script: string[];
  artifacts: { when: string; paths: string[]; reports: { junit: string[] } };
}

const cli = `${process.execPath} ${join(projectRoot, 'dist', 'src', 'cli', 'main.js')}`;

/** A project that includes the component with these inputs; the job as gitlab-ci-local expands it. */
function expanded(inputs: Record<string, unknown>): { dir: string; job: Job } {
  const dir = mkdtempSync(join(tmpdir(), 'dipswitch-gitlab-'));
  cpSync(join(projectRoot, 'templates'), join(dir, 'templates'), { recursive: true });
  writeFileSync(
    join(dir, '.gitlab-ci.yml'),
    JSON.stringify({ include: [{ local: 'templates/dipswitch.yml', inputs }] }),
  );
  writeFileSync(join(dir, 'client-test.mjs'), CLIENT_TEST);
  for (const args of [
    ['init', '-q'],
    ['add', '-A'],
    ['-c', 'user.email=ci@example.invalid', '-c', 'user.name=ci', 'commit', '-qm', 'x'],
  ])
    spawnSync('git', args, { cwd: dir });
  const preview = spawnSync(join(projectRoot, 'node_modules', '.bin', 'gitlab-ci-local'), ['--preview'], {
    cwd: dir,
    encoding: 'utf8',
    timeout: 120_000,
  });
  expect(preview.status, preview.stderr).toBe(0);
  const doc = parse(preview.stdout.slice(preview.stdout.indexOf('---'))) as Record<string, Job>;
  return { dir, job: doc['dipswitch-tests']! };
}

/** The job's lines run as a runner's shell runs them, with its variables (CI_JOB_ID given). */
function runLines(job: Job, lines: string[], dir: string, url: string) {
  const variables = Object.fromEntries(
    Object.entries(job.variables).map(([k, v]) => [k, String(v).replace('$CI_JOB_ID', '4242')]),
  );
  return spawnSync('bash', ['-eo', 'pipefail', '-c', lines.join('\n')], {
    cwd: dir,
    encoding: 'utf8',
    timeout: 120_000,
    env: { ...process.env, ...variables, DIPSWITCH_URL: url, CI_JOB_ID: '4242' },
  });
}

// a test waits as long as the processes it runs may (the preview and the job's lines, 120 s each)
describe('the GitLab CI/CD component', { timeout: 400_000 }, () => {
  let service: Running & { base: string };
  beforeAll(async () => {
    service = await startCli(['--memory', '--port', '0', '--no-smpp'], {
      env: { SIM_ADMIN_TOKEN: 'dipswitch-ci', CLOCK: 'frozen' },
    });
  });
  afterAll(() => service?.stop());

  it('expands to a job with the image as the service `dipswitch`, settings by variables, the JUnit report', () => {
    const { job } = expanded({ script: ['npm test'] });
    expect(job.services).toEqual([
      {
        name: 'dipswitch:0.1.0',
        alias: 'dipswitch',
        variables: { SIM_ADMIN_TOKEN: 'dipswitch-ci', CLOCK: 'frozen', MEMORY: 'true' },
      },
    ]);
    expect(job.variables).toMatchObject({
      DIPSWITCH_URL: 'http://dipswitch:4010',
      DIPSWITCH_ADMIN_TOKEN: 'dipswitch-ci',
    });
    expect(job.script[0]).toBe('npm test');
    expect(job.artifacts).toMatchObject({
      when: 'always',
      reports: { junit: ['dipswitch-coverage.xml', 'dipswitch-contract-changes.xml'] },
    });
  });

  it("runs the job's script and after_script: the tests, the gate, the JUnit and the journal as files", () => {
    const { dir, job } = expanded({ script: ['node client-test.mjs'], cli, 'fail-under': '1' });
    const script = runLines(job, job.script, dir, service.base);
    expect(script.status, `${script.stdout}${script.stderr}`).toBe(0);
    expect(script.stdout).toMatch(/documented answers/);
    const after = runLines(job, job.after_script, dir, service.base);
    expect(after.status, after.stderr).toBe(0);
    expect(readFileSync(join(dir, 'dipswitch-coverage.xml'), 'utf8')).toMatch(/<testsuites name="dipswitch coverage"/);
    expect(JSON.parse(readFileSync(join(dir, 'dipswitch-journal.json'), 'utf8')).count).toBeGreaterThan(0);
  });

  it("with next-contract, a change that breaks the suite's calls fails the job; one elsewhere does not", () => {
    const next = (dir: string, path: string) => {
      const d = parse(readFileSync(join(projectRoot, 'contract', 'openapi.yaml'), 'utf8'));
      d.paths[path].get.parameters = [
        ...(d.paths[path].get.parameters ?? []),
        { name: 'region', in: 'query', required: true, schema: { type: 'string' } },
      ];
      writeFileSync(join(dir, 'next.json'), JSON.stringify(d));
    };
    const breaking = expanded({ script: ['node client-test.mjs'], cli, 'next-contract': 'next.json' });
    next(breaking.dir, '/api/v1/numbers');
    const failed = runLines(breaking.job, breaking.job.script, breaking.dir, service.base);
    expect(failed.status, `${failed.stdout}${failed.stderr}`).not.toBe(0);
    expect(failed.stdout).toMatch(
      /BREAKS YOU +GET \/api\/v1\/numbers \(listNumbers\): query parameter region added as required/,
    );
    expect(readFileSync(join(breaking.dir, 'dipswitch-contract-changes.xml'), 'utf8')).toContain('failures="1"');
    const elsewhere = expanded({ script: ['node client-test.mjs'], cli, 'next-contract': 'next.json' });
    next(elsewhere.dir, '/api/v1/users');
    const passed = runLines(elsewhere.job, elsewhere.job.script, elsewhere.dir, service.base);
    expect(passed.status, `${passed.stdout}${passed.stderr}`).toBe(0);
    expect(passed.stdout).toMatch(/NOT USED BY YOU +GET \/api\/v1\/users/);
  });

  it('a gate the run does not reach fails the job; its report is still written', () => {
    const { dir, job } = expanded({ script: ['node client-test.mjs'], cli, 'fail-under': '90' });
    expect(runLines(job, job.script, dir, service.base).status).not.toBe(0);
    expect(runLines(job, job.after_script, dir, service.base).status).toBe(0);
    expect(existsSync(join(dir, 'dipswitch-coverage.xml'))).toBe(true);
  });
});
