/**
 * The Python, Go and Java clients starting dipswitch's image themselves (DIPSWITCH_IMAGE), as a client team
 * without Node runs them: the example suites under `pytest -n 4`, `go test -race` and JUnit's parallel
 * execution, a docker command with no daemon behind it passed over for podman, and a container removed when
 * its test process (a Python process, a JVM) is SIGKILLed.
 */
import { spawn, spawnSync } from 'node:child_process';
import { chmodSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { projectRoot } from '../../src/contract.js';
import { eventually } from '../support/eventually.js';
import { CONTAINERS_CONF, IMAGE, podmanOk, skipped } from '../support/containers.js';

const python = ['/usr/bin/python3', 'python3'].find(
  (p) => spawnSync(p, ['-c', 'import pytest, xdist'], { encoding: 'utf8' }).status === 0,
);
const go = spawnSync('go', ['version'], { encoding: 'utf8' }).status === 0;
const java = spawnSync('javac', ['-version'], { encoding: 'utf8' }).status === 0;
const JARS = ['jackson-databind', 'jackson-core', 'jackson-annotations', 'junit-platform-console-standalone'].map(
  (j) => `/usr/share/java/${j}.jar`,
);

/** A `docker` that is only a command: no daemon behind it, as docker's CLI says then. */
const noDaemon = (() => {
  const dir = mkdtempSync(join(tmpdir(), 'dipswitch-nodocker-'));
  writeFileSync(
    join(dir, 'docker'),
    '#!/bin/sh\necho "Cannot connect to the Docker daemon at unix:///var/run/docker.sock. Is the docker daemon running?" >&2\nexit 1\n',
  );
  chmodSync(join(dir, 'docker'), 0o755);
  return dir;
})();

/** The environment of a client team's run: the image, podman's settings, a daemonless docker first on PATH. */
const env = {
  ...Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('DIPSWITCH_'))),
  PATH: `${noDaemon}:${process.env.PATH}`,
  CONTAINERS_CONF: process.env.CONTAINERS_CONF ?? CONTAINERS_CONF,
  DIPSWITCH_IMAGE: IMAGE,
  DIPSWITCH_FAIL_UNDER: '10',
  PYTHONDONTWRITEBYTECODE: '1',
  GOFLAGS: '-mod=mod',
  GOPROXY: 'off',
};

const owned = (pid: number) => podmanOk(['ps', '-a', '-q', '--filter', `label=dipswitch.owner=${pid}`]);

// a test waits as long as the suite it runs may (the first `go test -race` of a cold cache builds the standard library)
describe.skipIf(!!skipped())('the Python, Go and Java clients with the image', { timeout: 600_000 }, () => {
  it.skipIf(!python)('pytest -n 4 of the Python example against the image the plugin starts, then removed', () => {
    const examples = join(projectRoot, 'examples', 'python');
    const run = spawnSync(python!, ['-m', 'pytest', '-n', '4', '-q', '-p', 'dipswitch.pytest_plugin', '.'], {
      cwd: examples,
      encoding: 'utf8',
      timeout: 300_000,
      env: { ...env, PYTHONPATH: `${join(projectRoot, 'clients', 'python', 'src')}:${examples}` },
    });
    expect(run.status, `${run.stdout}${run.stderr}`).toBe(0);
    expect(run.stdout).toMatch(/3 passed/);
    expect(run.stdout).toMatch(/passes the gate of 10%/);
    expect(podmanOk(['ps', '-a', '-q', '--filter', 'label=dipswitch.owner'])).toBe('');
  });

  it.skipIf(!go)('go test -race of the Go example against the image TestMain starts, then removed', () => {
    const run = spawnSync('go', ['test', '-race', '-count=1', '-v', './...'], {
      cwd: join(projectRoot, 'examples', 'go'),
      encoding: 'utf8',
      timeout: 600_000,
      env,
    });
    expect(run.status, `${run.stdout}${run.stderr}`).toBe(0);
    expect(run.stdout).toMatch(/--- PASS: TestAnInboundSMSReachesOurWebhook/);
    expect(run.stdout).toMatch(/passes the gate of 10%/);
  });

  it.skipIf(!python)('a Python process SIGKILLed with its container running: the container is removed', async () => {
    const script = [
      'import os, signal, sys',
      'from dipswitch import Dipswitch',
      'sim = Dipswitch.start()',
      'sim.health()',
      'print(sim.url, flush=True)',
      'os.kill(os.getpid(), signal.SIGKILL)',
    ].join('\n');
    const child = spawn(python!, ['-c', script], {
      env: { ...env, PYTHONPATH: join(projectRoot, 'clients', 'python', 'src') },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    const code = await new Promise<string | null>((resolve) => child.on('exit', (_c, signal) => resolve(signal)));
    expect(code).toBe('SIGKILL');
    const url = out.trim();
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    await eventually(() => owned(child.pid!) === '', 'the container to be removed', 60_000);
    await expect(fetch(`${url}/__sim/health`)).rejects.toThrow();
  });

  it.skipIf(!java)("the Java example's suite against the image its extension starts, then removed", () => {
    const run = spawnSync('bash', [join(projectRoot, 'examples', 'java', 'run-tests.sh')], {
      encoding: 'utf8',
      timeout: 600_000,
      env,
    });
    expect(run.status, `${run.stdout}${run.stderr}`).toBe(0);
    expect(run.stdout).toMatch(/anInboundSmsReachesOurWebhookSigned\(Sandbox\)( \d+ ms)? ✔/);
    expect(run.stdout).toMatch(/passes the gate of 10%/);
    expect(podmanOk(['ps', '-a', '-q', '--filter', 'label=dipswitch.owner'])).toBe('');
  });

  it.skipIf(!java)('a JVM SIGKILLed with its container running: the container is removed', async () => {
    const folder = join(projectRoot, 'clients', 'java');
    expect(spawnSync('bash', [join(folder, 'build.sh'), 'classes'], { encoding: 'utf8' }).status).toBe(0);
    const jvm = spawn(
      'java',
      ['-cp', ['build/test-classes', 'build/classes', ...JARS].join(':'), 'dev.dipswitch.StartAndWait'],
      {
        cwd: folder,
        env,
        stdio: ['ignore', 'pipe', 'inherit'],
      },
    );
    let out = '';
    jvm.stdout.on('data', (d) => (out += d));
    const url = (await eventually(() => /started (\S+)/.exec(out)?.[1], 'the JVM to start the image', 120_000))!;
    expect(owned(jvm.pid!)).not.toBe('');
    jvm.kill('SIGKILL');
    await eventually(() => owned(jvm.pid!) === '', 'the container to be removed', 60_000);
    await expect(fetch(`${url}/__sim/health`)).rejects.toThrow();
  });
});
