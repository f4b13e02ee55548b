/**
 * The container tests' global setup: builds dipswitch's image from the Dockerfile users build, on a
 * stand-in for the official Node image made from Debian's packages and the npm registry
 * (containers/stand-in-node.sh), passed as NODE_IMAGE; with the host's certificate authorities as a
 * build secret, since the registry is reached through a TLS proxy here. Without podman the container
 * tests are skipped, saying why; in CI they must run.
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { projectRoot } from '../../src/contract.js';
import { CONTAINERS_CONF, IMAGE, podman, POSTGRES_STAND_IN } from './containers.js';

const CA = '/etc/ssl/certs/ca-certificates.crt';

export default function setup(): void {
  const found = spawnSync('podman', ['--version'], { encoding: 'utf8' });
  if (found.status !== 0) {
    const why = 'no podman (apt-get install podman runc slirp4netns mmdebstrap)';
    if (process.env.CI) throw new Error(`CI runs the container tests: ${why}`);
    process.env.DIPSWITCH_CONTAINERS_SKIPPED = why;
    console.warn(`container tests skipped: ${why}`);
    return;
  }
  const base = process.env.NODE_IMAGE ?? 'localhost/node:22-bookworm-slim';
  if (!process.env.NODE_IMAGE) {
    const standIn = spawnSync(join(projectRoot, 'containers', 'stand-in-node.sh'), ['22', base], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, CONTAINERS_CONF },
    });
    if (standIn.status !== 0) throw new Error(`the stand-in Node image: ${standIn.stderr}`);
  }
  const build = podman(
    [
      'build',
      '--format',
      'docker',
      '--build-arg',
      `NODE_IMAGE=${base}`,
      ...(existsSync(CA) ? ['--secret', `id=ca,src=${CA}`] : []),
      '--tag',
      IMAGE,
      projectRoot,
    ],
    900_000,
  );
  if (build.status !== 0) throw new Error(`podman build: ${build.stderr.slice(-3000)}`);
  // the compose stack's PostgreSQL, a stand-in for the official image on the same Debian base
  if (!process.env.POSTGRES_IMAGE && podman(['image', 'exists', POSTGRES_STAND_IN]).status !== 0) {
    const pg = podman(
      ['build', '--tag', POSTGRES_STAND_IN, join(projectRoot, 'containers', 'stand-in-postgres')],
      600_000,
    );
    if (pg.status !== 0) throw new Error(`the stand-in PostgreSQL image: ${pg.stderr.slice(-3000)}`);
  }
}
