/**
 * Podman as the container tests drive it (docs/containers.md): the project's containers.conf (runc, and
 * limits a process here may set), the image the suite built (test/support/image_global.ts), and a
 * container's life: run, its published port, its end. Every container a test starts is removed by its id.
 */
import { spawnSync, type SpawnSyncReturns } from 'node:child_process';
import { join } from 'node:path';
import { projectRoot } from '../../src/contract.js';

export const CONTAINERS_CONF = join(projectRoot, 'containers', 'containers.conf');

/** The image the suite built, and why the container tests are skipped when they are. */
export const IMAGE = process.env.DIPSWITCH_TEST_IMAGE ?? 'localhost/dipswitch:test';
/** PostgreSQL for the compose stack: POSTGRES_IMAGE, or the stand-in the suite builds (containers/stand-in-postgres). */
export const POSTGRES_STAND_IN = 'localhost/postgres:15-stand-in';
export const POSTGRES_IMAGE = process.env.POSTGRES_IMAGE ?? POSTGRES_STAND_IN;
export const skipped = (): string | undefined => process.env.DIPSWITCH_CONTAINERS_SKIPPED || undefined;

/** Runs podman with the project's settings. */
export function podman(args: string[], timeout = 300_000): SpawnSyncReturns<string> {
  return spawnSync('podman', args, {
    encoding: 'utf8',
    timeout,
    env: { ...process.env, CONTAINERS_CONF: process.env.CONTAINERS_CONF ?? CONTAINERS_CONF },
  });
}

/** Runs podman and answers its standard output, trimmed; throws with its error output when it fails. */
export function podmanOk(args: string[], timeout?: number): string {
  const run = podman(args, timeout);
  if (run.status !== 0) throw new Error(`podman ${args.join(' ')}: exit ${run.status}: ${run.stderr}`);
  return run.stdout.trim();
}

/** A running container: its id, its published HTTP (and SMPP) port on 127.0.0.1. */
export interface Running {
  id: string;
  base: string;
  smppPort: number;
  remove(): void;
}

/**
 * Runs the image detached, its ports published on 127.0.0.1 (any free one), with `env`; `network`
 * slirp4netns lets the container reach the test's receivers on the host's loopback as 10.0.2.2.
 */
export function run(env: Record<string, string>, opts: { volume?: string; args?: string[] } = {}): Running {
  const id = podmanOk([
    'run',
    '--detach',
    '--network',
    'slirp4netns:allow_host_loopback=true',
    '--publish',
    '127.0.0.1::4010',
    '--publish',
    '127.0.0.1::2775',
    ...(opts.volume ? ['--volume', `${opts.volume}:/data`] : []),
    ...Object.entries(env).flatMap(([k, v]) => ['--env', `${k}=${v}`]),
    IMAGE,
    ...(opts.args ?? []),
  ]);
  const port = (inner: number) =>
    Number(
      podmanOk(['port', id, `${inner}/tcp`])
        .split(':')
        .pop(),
    );
  return {
    id,
    base: `http://127.0.0.1:${port(4010)}`,
    smppPort: port(2775),
    // with its anonymous /data volume: repeated runs leave nothing behind
    remove: () => void podman(['rm', '--force', '--volumes', '--time', '0', id]),
  };
}

/** The host's loopback as a container run by `run` reaches it. */
export const HOST_LOOPBACK = '10.0.2.2';
