/**
 * docs/ci.md's Jenkins recipe, which runs the image itself: its `sh` steps in bash as a Jenkins agent runs them,
 * podman answering for docker, the image tagged as the recipe names it.
 */
import { chmodSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { packageVersion } from '../../src/contract.js';
import { CONTAINERS_CONF, IMAGE, podmanOk, skipped } from '../support/containers.js';
import { recipes, runSteps } from '../support/ci_recipes.js';

describe.skipIf(!!skipped())("docs/ci.md's Jenkins recipe", () => {
  it('runs the image, waits for it, runs the tests, and removes it', () => {
    const pipeline = recipes().get('jenkins')!;
    const steps = [...pipeline.matchAll(/sh '([^']*)'/g)].map((m) => m[1]!);
    expect(steps).toHaveLength(4);
    podmanOk(['tag', IMAGE, `localhost/dipswitch:${packageVersion}`]);
    const shim = mkdtempSync(join(tmpdir(), 'dipswitch-docker-'));
    writeFileSync(join(shim, 'docker'), '#!/bin/sh\nexec podman "$@"\n');
    chmodSync(join(shim, 'docker'), 0o755);
    const env = {
      PATH: `${shim}:${process.env.PATH}`,
      CONTAINERS_CONF: process.env.CONTAINERS_CONF ?? CONTAINERS_CONF,
      BUILD_NUMBER: String(process.pid),
      DIPSWITCH_ADMIN_TOKEN: 'ci-token',
      DIPSWITCH_RUN: `jenkins-${process.pid}`,
    };
    const ran = runSteps(steps.slice(0, 3), env);
    const post = runSteps(steps.slice(3), env);
    expect(ran.status, ran.output).toBe(0);
    expect(ran.output).toContain('the tests passed against http://127.0.0.1:');
    expect(post.status, post.output).toBe(0);
    expect(podmanOk(['ps', '-a', '-q', '--filter', `name=dipswitch-${process.pid}`])).toBe('');
  });
});
