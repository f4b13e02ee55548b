/**
 * `BENCH_ONLY=container`: dipswitch's image beside the same build run directly, on this machine in one
 * run: the image's size and its size over the base, the time from `run` to the first 2xx of the health
 * check, the time `stop` takes, and GET and create requests per second through the published port and
 * directly. The image is `DIPSWITCH_IMAGE` (localhost/dipswitch:test, which the container tests build).
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type autocannon from 'autocannon';
import { AUTH, createCarts, freshPort, measure, ROOT, sleep, startProcess, stop, type Figure } from './harness.js';

const IMAGE = process.env.DIPSWITCH_IMAGE ?? 'localhost/dipswitch:test';
const BASE = process.env.NODE_IMAGE ?? 'localhost/node:22-bookworm-slim';
const env = {
  ...process.env,
  CONTAINERS_CONF: process.env.CONTAINERS_CONF ?? join(ROOT, 'containers', 'containers.conf'),
};

const podman = (args: string[]): string => {
  const run = spawnSync('podman', args, { encoding: 'utf8', env });
  if (run.status !== 0) throw new Error(`podman ${args.join(' ')}: ${run.stderr}`);
  return run.stdout.trim();
};

const sizeMb = (image: string) => Number(podman(['image', 'inspect', image, '--format', '{{.Size}}'])) / 1e6;

/** A GET of one record, and a create of a cart of a new name each time (a durable write). */
const shapes = (base: string): { get: autocannon.Options; create: autocannon.Options } => ({
  get: { url: `${base}/api/v1/api_keys/0a0a0a0a-0000-4000-8000-000000000301`, headers: AUTH },
  create: createCarts(base),
});

export interface ContainerFigures {
  imageMb: number;
  overBaseMb: number;
  startMs: number;
  stopMs: number;
  container: Figure[];
  direct: Figure[];
}

export async function containerFigures(): Promise<ContainerFigures> {
  const imageMb = sizeMb(IMAGE);
  const overBaseMb = imageMb - sizeMb(BASE);
  const port = freshPort();
  const t0 = performance.now();
  const id = podman([
    'run',
    '--detach',
    '--publish',
    `127.0.0.1:${port}:4010`,
    '--env',
    'SIM_ADMIN_TOKEN=bench',
    IMAGE,
  ]);
  let startMs = 0;
  for (;;) {
    const ok = await fetch(`http://127.0.0.1:${port}/__sim/health`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) {
      startMs = performance.now() - t0;
      break;
    }
    await sleep(10);
  }
  console.log(
    `  image ${imageMb.toFixed(0)} MB (${overBaseMb.toFixed(0)} MB over its base); run to healthy ${startMs.toFixed(0)} ms`,
  );
  const inContainer = shapes(`http://127.0.0.1:${port}`);
  const container = [
    await measure('container: GET one record', inContainer.get),
    await measure('container: durable create', inContainer.create),
  ];
  const s0 = performance.now();
  podman(['stop', '--time', '30', id]);
  const stopMs = performance.now() - s0;
  podman(['rm', '--volumes', id]);
  console.log(`  stop ${stopMs.toFixed(0)} ms`);

  const directPort = freshPort();
  const data = join(mkdtempSync(join(tmpdir(), 'dipswitch-bench-direct-')), 'db.json');
  const direct = await startProcess(
    process.execPath,
    ['dist/src/cli/main.js', '--port', String(directPort), '--data', data, '--quiet'],
    `http://127.0.0.1:${directPort}/__sim/health`,
  );
  const directShapes = shapes(`http://127.0.0.1:${directPort}`);
  const directFigures = [
    await measure('direct: GET one record', directShapes.get),
    await measure('direct: durable create', directShapes.create),
  ];
  await stop(direct.child);
  return { imageMb, overBaseMb, startMs, stopMs, container, direct: directFigures };
}

/** The figures as a Markdown table: the image, start and stop, each request shape with its container/direct ratio. */
export function containerTable(f: ContainerFigures): string {
  const lines = [
    '| measure | figure | note |',
    '|---|---:|---|',
    `| image size | ${f.imageMb.toFixed(0)} MB | ${f.overBaseMb.toFixed(0)} MB over its base |`,
    `| run to the first healthy answer | ${f.startMs.toFixed(0)} ms | |`,
    `| stop (SIGTERM to exit) | ${f.stopMs.toFixed(0)} ms | |`,
  ];
  f.container.forEach((c, i) => {
    const d = f.direct[i];
    if (d)
      lines.push(
        `| ${c.name.replace('container: ', '')}, req/s | ${c.rps.toFixed(0)} in the container, ${d.rps.toFixed(0)} direct | container/direct ${(c.rps / d.rps).toFixed(2)} |`,
      );
  });
  return lines.join('\n');
}
