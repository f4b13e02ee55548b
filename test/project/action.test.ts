/**
 * The GitHub Action (action.yml, report/action.yml) run as GitHub's runner runs a composite action, against a
 * real server: outputs written, the server's address in GITHUB_ENV for later steps, the journal, the coverage
 * JUnit and the server's log kept as files, the coverage table in the job summary; a dipswitch that cannot
 * start fails the action with its own last lines. Every workflow and action file passes a schema validator.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { parse } from 'yaml';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { projectRoot } from '../../src/contract.js';
import { keyValues, newJob, runAction } from '../support/github_action.js';

const command = `${process.execPath} ${join(projectRoot, 'dist', 'src', 'cli', 'main.js')}`;
const actionFiles = [
  'action.yml',
  'report/action.yml',
  ...readdirSync(join(projectRoot, '.github', 'workflows')).map((f) => `.github/workflows/${f}`),
];

describe('the GitHub Action', () => {
  it('every workflow and action file passes the schema validator, and a broken one does not', () => {
    const validator = join(projectRoot, 'node_modules', '.bin', 'action-validator');
    for (const f of actionFiles) {
      const run = spawnSync(validator, [join(projectRoot, f)], { encoding: 'utf8' });
      expect(run.status, `${f}: ${run.stdout}${run.stderr}`).toBe(0);
    }
    const broken = spawnSync(validator, [join(projectRoot, 'test', 'support', 'broken-action.yml')], {
      encoding: 'utf8',
    });
    expect(broken.status).toBe(1);
  });

  it('starts dipswitch, outputs its URL, token and SMPP port; the report keeps its files and the summary', async () => {
    const job = newJob();
    const started = runAction(join(projectRoot, 'action.yml'), job, {
      command,
      port: '0',
      'smpp-port': '0',
      'admin-token': 'gh-token',
    });
    expect(started.status, started.output).toBe(0);
    expect(started.output).toMatch(/dipswitch healthy at http:\/\/127\.0\.0\.1:\d+ in \d+ ms/);
    expect(started.output).toContain('::add-mask::gh-token');
    const { url, 'admin-token': token, 'smpp-port': smpp } = started.outputs;
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(token).toBe('gh-token');
    expect(Number(smpp)).toBeGreaterThan(0);
    expect(keyValues(readFileSync(job.githubEnv, 'utf8'))).toMatchObject({
      DIPSWITCH_URL: url,
      DIPSWITCH_ADMIN_TOKEN: 'gh-token',
    });
    // the job's tests: a sandbox, a call of the API
    const box = await (
      await fetch(`${url}/__sim/accounts`, {
        method: 'POST',
        headers: { 'x-sim-admin-token': token!, 'content-type': 'application/json' },
        body: '{"run":"gh-job"}',
      })
    ).json();
    expect(
      (await fetch(`${url}/api/v1/numbers`, { headers: { authorization: `Bearer ${box.keys.admin}` } })).status,
    ).toBe(200);
    const report = runAction(join(projectRoot, 'report', 'action.yml'), job, { run: 'gh-job', 'fail-under': '1' });
    expect(report.status, report.output).toBe(0);
    const dir = report.outputs.dir!;
    expect(readdirSync(dir).sort()).toEqual(['coverage.md', 'coverage.xml', 'journal.json', 'server.log']);
    expect(JSON.parse(readFileSync(join(dir, 'journal.json'), 'utf8')).count).toBeGreaterThan(0);
    expect(readFileSync(join(dir, 'coverage.xml'), 'utf8')).toMatch(
      /^<\?xml[\s\S]*<testsuites name="dipswitch coverage"/,
    );
    expect(readFileSync(join(dir, 'server.log'), 'utf8')).toContain('serving');
    const summary = readFileSync(job.summary, 'utf8');
    expect(summary).toMatch(/^## dipswitch coverage\n/);
    expect(summary).toMatch(/\| listNumbers \|/);
    // stopped: the port answers no more
    await expect(fetch(`${url}/__sim/health`)).rejects.toThrow();
  });

  it('a gate the run does not reach fails the report step, its files written first', () => {
    const job = newJob();
    const started = runAction(join(projectRoot, 'action.yml'), job, { command, port: '0', 'smpp-port': '0' });
    expect(started.status, started.output).toBe(0);
    const report = runAction(join(projectRoot, 'report', 'action.yml'), job, { 'fail-under': '90' });
    expect(report.status).toBe(1);
    expect(report.output).toMatch(/FAILS the gate of 90%|under 90/);
    expect(existsSync(join(job.runnerTemp, 'dipswitch', 'report', 'coverage.xml'))).toBe(true);
  });

  it('with next-contract, the report keeps the footprint and the diff, and fails on a change that breaks the suite', async () => {
    const job = newJob();
    const started = runAction(join(projectRoot, 'action.yml'), job, { command, port: '0', 'smpp-port': '0' });
    expect(started.status, started.output).toBe(0);
    const { url, 'admin-token': token } = started.outputs;
    const box = await (
      await fetch(`${url}/__sim/accounts`, {
        method: 'POST',
        headers: { 'x-sim-admin-token': token!, 'content-type': 'application/json' },
        body: '{"run":"gh-next"}',
      })
    ).json();
    await fetch(`${url}/api/v1/numbers`, { headers: { authorization: `Bearer ${box.keys.admin}` } });
    const next = parse(readFileSync(join(projectRoot, 'contract', 'openapi.yaml'), 'utf8'));
    next.paths['/api/v1/numbers'].get.parameters.push({
      name: 'region',
      in: 'query',
      required: true,
      schema: { type: 'string' },
    });
    const file = join(job.runnerTemp, 'next.json');
    writeFileSync(file, JSON.stringify(next));
    const report = runAction(join(projectRoot, 'report', 'action.yml'), job, { run: 'gh-next', 'next-contract': file });
    expect(report.status, report.output).toBe(1);
    expect(report.output).toMatch(
      /^::error file=.*next\.json,title=breaks you%3A GET \/api\/v1\/numbers \(listNumbers\)::query parameter region added as required/m,
    );
    const dir = join(job.runnerTemp, 'dipswitch', 'report');
    expect(readdirSync(dir).sort()).toEqual([
      'contract-changes.md',
      'contract-changes.xml',
      'coverage.md',
      'coverage.xml',
      'footprint.json',
      'journal.json',
      'server.log',
    ]);
    expect(JSON.parse(readFileSync(join(dir, 'footprint.json'), 'utf8')).operations[0].operation_id).toBe(
      'listNumbers',
    );
    expect(readFileSync(job.summary, 'utf8')).toMatch(
      /## dipswitch: what the next contract changes for this suite[\s\S]*\| breaks you \| GET \/api\/v1\/numbers \(listNumbers\) \|/,
    );
  });

  it("a dipswitch that cannot start fails the action with the server's own last lines", () => {
    const job = newJob();
    const failed = runAction(join(projectRoot, 'action.yml'), job, { command, clock: 'sometimes', port: '0' });
    expect(failed.status).toBe(1);
    expect(failed.output).toContain('::error::dipswitch exited; its last lines:');
    expect(failed.output).toContain('Allowed choices are real, frozen');
  });
});
