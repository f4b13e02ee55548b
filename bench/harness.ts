/** The bench's harness: servers started as processes, autocannon runs, the median of repeated runs. */
import { spawn, type ChildProcess } from 'node:child_process';
import autocannon from 'autocannon';
import { at } from '../src/domain/lists.js';

export const ROOT = new URL('..', import.meta.url).pathname;
export const CONNECTIONS = 50;
export const WARMUP_S = Number(process.env.BENCH_WARMUP ?? 2);
export const RUN_S = Number(process.env.BENCH_SECONDS ?? 4);
export const REPEATS = Number(process.env.BENCH_REPEATS ?? 3);
export const AUTH = { authorization: 'Bearer demo-admin-key', 'content-type': 'application/json' };
let nextPort = 4600;
/** A port for the next server (each server of a run its own). */
export const freshPort = () => nextPort++;

let cartNumber = 0;
/** Requests that each create a cart of a name not used before (a durable create); `label` starts each name. */
export function createCarts(base: string, headers: Record<string, string> = AUTH, label = 'bench'): autocannon.Options {
  return {
    url: `${base}/api/v1/carts`,
    method: 'POST',
    headers,
    requests: [
      {
        setupRequest: (req) => ({
          ...req,
          body: JSON.stringify({ type: 'cart', data: { name: `${label} ${process.pid} ${cartNumber++}` } }),
        }),
      },
    ],
  };
}

export interface Figure {
  name: string;
  rps: number;
  p50: number;
  p99: number;
}
export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
export const median = (xs: number[]) =>
  at(
    [...xs].sort((a, b) => a - b),
    Math.floor(xs.length / 2),
  );

/** Starts a process and times it to its first 2xx on `probe`. */
export async function startProcess(
  cmd: string,
  args: string[],
  probe: string,
  headers: Record<string, string> = {},
  env: Record<string, string> = {},
): Promise<{ child: ChildProcess; startupMs: number }> {
  const t0 = performance.now();
  const child = spawn(cmd, args, {
    cwd: ROOT,
    stdio: ['ignore', 'ignore', 'inherit'],
    env: { ...process.env, ...env },
  });
  for (;;) {
    try {
      const res = await fetch(probe, { headers });
      if (res.ok) return { child, startupMs: performance.now() - t0 };
    } catch {
      // not listening yet
    }
    if (child.exitCode !== null) throw new Error(`${cmd} ${args.join(' ')} exited`);
    await sleep(10);
  }
}

export async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  child.kill('SIGTERM');
  await new Promise((r) => child.once('exit', r));
}

/** req/s and latency of one request shape: a warm-up, then REPEATS timed runs, the median kept. */
export async function measure(name: string, opts: autocannon.Options): Promise<Figure> {
  await autocannon({ ...opts, connections: CONNECTIONS, duration: WARMUP_S });
  const runs: Figure[] = [];
  for (let i = 0; i < REPEATS; i++) {
    const r = await autocannon({ ...opts, connections: CONNECTIONS, duration: RUN_S });
    if (r.non2xx > 0 || r.errors > 0) console.warn(`  ${name}: ${r.non2xx} non-2xx, ${r.errors} errors`);
    runs.push({ name, rps: r.requests.average, p50: r.latency.p50, p99: r.latency.p99 });
  }
  const fig = {
    name,
    rps: median(runs.map((x) => x.rps)),
    p50: median(runs.map((x) => x.p50)),
    p99: median(runs.map((x) => x.p99)),
  };
  console.log(`  ${name}: ${fig.rps.toFixed(0)} req/s, p50 ${fig.p50} ms, p99 ${fig.p99} ms`);
  return fig;
}
