/**
 * The GitHub Action with the image (`run-with: container`), as a runner runs it, podman standing in for
 * docker: healthy within its bound, the report's coverage read by the image's own command, the container
 * removed after.
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { parse, stringify } from 'yaml';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { projectRoot } from '../../src/contract.js';
import { CONTAINERS_CONF, IMAGE, podmanOk, skipped } from '../support/containers.js';
import { newJob, runAction } from '../support/github_action.js';

describe.skipIf(!!skipped())('the GitHub Action with the image', () => {
  it('starts the image, reports from it, and removes it', async () => {
    const job = newJob();
    const env = {
      DIPSWITCH_CONTAINER_ENGINE: 'podman',
      CONTAINERS_CONF: process.env.CONTAINERS_CONF ?? CONTAINERS_CONF,
    };
    const started = runAction(join(projectRoot, 'action.yml'), job, { image: IMAGE, port: '0', 'smpp-port': '0' }, env);
    expect(started.status, started.output).toBe(0);
    console.info(started.output.split('\n').find((l) => l.includes('healthy')));
    const { url, 'admin-token': token } = started.outputs;
    const health = await (await fetch(`${url}/__sim/health`)).json();
    expect(health.status).toBe('ok');
    expect((await fetch(`${url}/__sim/accounts`, { headers: { 'x-sim-admin-token': token! } })).status).toBe(200);
    // the next contract adds an operation: safe, read by the image's own command from its container
    const next = parse(readFileSync(join(projectRoot, 'contract', 'openapi.yaml'), 'utf8'));
    next.paths['/api/v1/numbers/{number_id}/port_out'] = {
      post: { responses: { '202': { description: 'Accepted.' } } },
    };
    const nextFile = join(job.runnerTemp, 'next.yaml');
    writeFileSync(nextFile, stringify(next));
    const report = runAction(join(projectRoot, 'report', 'action.yml'), job, { 'next-contract': nextFile }, env);
    expect(report.status, report.output).toBe(0);
    expect(readdirSync(report.outputs.dir!).sort()).toEqual([
      'contract-changes.md',
      'contract-changes.xml',
      'coverage.md',
      'coverage.xml',
      'footprint.json',
      'journal.json',
      'server.log',
    ]);
    expect(readFileSync(join(report.outputs.dir!, 'contract-changes.md'), 'utf8')).toContain('1 change: 0 breaking');
    expect(readFileSync(join(report.outputs.dir!, 'coverage.xml'), 'utf8')).toContain('<testsuites');
    expect(readFileSync(job.summary, 'utf8')).toContain('## dipswitch coverage');
    expect(podmanOk(['ps', '-a', '-q', '--filter', 'label=dipswitch.action=true'])).toBe('');
  });
});
