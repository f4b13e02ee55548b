/**
 * docs/ci.md's recipes run as their CI systems run them: the service the recipe declares (its image's
 * environment) stood in for by a dipswitch of the test's, on a free port of 127.0.0.1; the job's environment;
 * each step's shell. The GitHub Action's recipe and the GitLab component have tests of their own (action,
 * gitlab); the Jenkins recipe, which runs the image itself, runs in the container tests.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { startCli } from '../support/cli_process.js';
import { recipes, runSteps } from '../support/ci_recipes.js';

/** A dipswitch standing in for a recipe's service, with the service's environment: its URL. */
async function service(env: Record<string, string>) {
  return startCli(['--port', '0', '--no-smpp'], {
    env: Object.fromEntries(Object.entries(env).map(([k, v]) => [k, String(v)])),
  });
}

describe("docs/ci.md's recipes", () => {
  it('names every recipe the suite runs', () => {
    expect([...recipes().keys()].sort()).toEqual(['circleci', 'github-action', 'github-services', 'jenkins']);
  });

  it('GitHub Actions, a service by environment alone: the wait, the tests, the gate failing them', async () => {
    const job = (parse(recipes().get('github-services')!) as { jobs: { test: unknown } }).jobs.test as {
      services: { dipswitch: { env: Record<string, string> } };
      env: Record<string, string>;
      steps: { run?: string }[];
    };
    const server = await service(job.services.dipswitch.env);
    try {
      const ran = runSteps(
        job.steps.flatMap((s) => (s.run ? [s.run] : [])),
        { ...job.env, DIPSWITCH_URL: server.base },
      );
      // the stand-in tests call one operation: the recipe's gate of 60% fails them, as it should
      expect(ran.output).toContain('the tests passed against');
      expect(ran.output).toMatch(/documented answers/);
      expect(ran.output).toContain('dipswitch: coverage 33.3% is under --fail-under 60%');
      expect(ran.status).toBe(1);
    } finally {
      await server.stop();
    }
  });

  it('CircleCI, the image as a secondary container: the wait, the tests, the JUnit', async () => {
    const job = (parse(recipes().get('circleci')!) as { jobs: { test: unknown } }).jobs.test as {
      docker: { image: string; environment?: Record<string, string> }[];
      environment: Record<string, string>;
      steps: (string | { run?: string | { command: string } })[];
    };
    const server = await service(job.docker[1]!.environment!);
    try {
      const steps = job.steps.flatMap((s) =>
        typeof s === 'object' && s.run ? [typeof s.run === 'string' ? s.run : s.run.command] : [],
      );
      const ran = runSteps(steps, { ...job.environment, DIPSWITCH_URL: server.base });
      expect(ran.status, ran.output).toBe(0);
      expect(readFileSync(join(ran.dir, 'coverage.xml'), 'utf8')).toContain('<testsuites name="dipswitch coverage"');
    } finally {
      await server.stop();
    }
  });
});
