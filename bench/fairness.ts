/**
 * `BENCH_ONLY=fairness [BENCH_BEFORE=<a built checkout>]`: one sandbox's GET, made one at a time for FAIR_S seconds,
 * alone and beside another sandbox's flood of the same GET over 64 connections (autocannon, in a process of its own,
 * so the quiet caller's event loop is its own), on the embedded store in memory; the quiet sandbox's calls, median
 * and p99, and the flood's own throughput alone and beside it. With BENCH_BEFORE, the same for that checkout's build.
 */
import { spawn, spawnSync } from 'node:child_process';
import os from 'node:os';
import { join } from 'node:path';
import { freshPort, median, ROOT, startProcess, stop } from './harness.js';

const FAIR_S = Number(process.env.BENCH_FAIR_SECONDS ?? 8);
const FLOOD_CONNECTIONS = 64;

/**
 * `BENCH_PIN=1` (Linux, taskset): the server on the first core alone, the flood's process and this one on the
 * others, so the quiet caller's round trip is the server's doing and not a share of cores with the generator.
 */
const PIN = process.env.BENCH_PIN === '1' && os.cpus().length >= 2;
const pinned = (cores: string, cmd: string, args: string[]): [string, string[]] =>
  PIN ? ['taskset', ['-c', cores, cmd, ...args]] : [cmd, args];
/** The flood's generator, pinned, and niced under the quiet caller that shares its cores. */
const generator = (cmd: string, args: string[]): [string, string[]] =>
  PIN ? ['nice', ['-n', '19', 'taskset', '-c', CLIENT_CORES, cmd, ...args]] : [cmd, args];
const SERVER_CORES = '0';
const CLIENT_CORES = `1-${os.cpus().length - 1}`;

export interface FairnessRow {
  build: string;
  what: string;
  calls?: number;
  p50?: number;
  p99?: number;
  /** The same calls as the server timed them, from their arrival at the core to their answer (the journal's). */
  serverP50?: number;
  serverP99?: number;
  rps?: number;
}

/** The server's times of the quiet sandbox's newest `n` calls (its journal's latency_ms, newest first). */
async function serverTimes(base: string, key: string, n: number): Promise<number[]> {
  const times: number[] = [];
  let cursor: string | null = null;
  while (times.length < n) {
    const page = (await (
      await fetch(`${base}/__sim/requests?limit=1000${cursor ? `&cursor=${cursor}` : ''}`, {
        headers: { authorization: `Bearer ${key}` },
      })
    ).json()) as { requests: { latency_ms: number }[]; next_cursor: string | null };
    times.push(...page.requests.map((r) => r.latency_ms));
    if (!page.next_cursor) break;
    cursor = page.next_cursor;
  }
  return times.slice(0, n);
}

const percentile = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) * p)] ?? 0;

/** A sandbox's admin key and the path of one of its numbers. */
async function sandbox(base: string, name: string): Promise<{ key: string; path: string }> {
  const res = await fetch(`${base}/__sim/accounts`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ name }),
  });
  const made = (await res.json()) as { keys: { admin: string }; numbers: string[] };
  return { key: made.keys.admin, path: `/api/v1/numbers/${encodeURIComponent(made.numbers[0] ?? '')}` };
}

/** The quiet sandbox's GETs, one at a time, for `seconds`: each call's time. */
async function quietCalls(base: string, quiet: { key: string; path: string }, seconds: number): Promise<number[]> {
  const times: number[] = [];
  const end = performance.now() + seconds * 1000;
  while (performance.now() < end) {
    const t0 = performance.now();
    const res = await fetch(base + quiet.path, { headers: { authorization: `Bearer ${quiet.key}` } });
    await res.arrayBuffer();
    times.push(performance.now() - t0);
  }
  return times;
}

/** The flood of `busy`'s GET over 64 connections for `seconds`, from autocannon's own process: its requests a second. */
async function flood(base: string, busy: { key: string; path: string }, seconds: number): Promise<number> {
  const args = [join(ROOT, 'node_modules/autocannon/autocannon.js'), '-j', '-c', String(FLOOD_CONNECTIONS)];
  args.push('-d', String(seconds), '-H', `authorization=Bearer ${busy.key}`, base + busy.path);
  const child = spawn(...generator(process.execPath, args), { stdio: ['ignore', 'pipe', 'ignore'] });
  let out = '';
  child.stdout.on('data', (d) => (out += d));
  await new Promise((resolve) => child.once('exit', resolve));
  return (JSON.parse(out) as { requests: { average: number } }).requests.average;
}

async function buildRows(build: string, root: string): Promise<FairnessRow[]> {
  const port = freshPort();
  const base = `http://127.0.0.1:${port}`;
  const { child } = await startProcess(
    ...pinned(SERVER_CORES, process.execPath, [
      join(root, 'dist/src/cli/main.js'),
      ...['--memory', '--no-smpp', '-q', '--clock', 'frozen', '--port', String(port)],
      // BENCH_FAIR_ARGS: more flags for the server (admission's bounds, to compare them)
      ...(process.env.BENCH_FAIR_ARGS ?? '').split(' ').filter(Boolean),
    ]),
    `${base}/__sim/health`,
  );
  try {
    const quiet = await sandbox(base, 'quiet');
    const busy = await sandbox(base, 'busy');
    await quietCalls(base, quiet, 1);
    await flood(base, busy, 1);
    const alone = await quietCalls(base, quiet, FAIR_S);
    const aloneServer = await serverTimes(base, quiet.key, alone.length);
    const floodAlone = await flood(base, busy, FAIR_S);
    const [beside, floodBeside] = await Promise.all([quietCalls(base, quiet, FAIR_S), flood(base, busy, FAIR_S)]);
    const besideServer = await serverTimes(base, quiet.key, beside.length);
    const row = (what: string, times: number[], server: number[]): FairnessRow => ({
      build,
      what,
      calls: times.length,
      p50: median(times),
      p99: percentile(times, 0.99),
      serverP50: median(server),
      serverP99: percentile(server, 0.99),
    });
    return [
      row('the quiet sandbox alone', alone, aloneServer),
      row('the quiet sandbox beside the flood', beside, besideServer),
      { build, what: 'the flood alone', rps: floodAlone },
      { build, what: 'the flood beside the quiet sandbox', rps: floodBeside },
    ];
  } finally {
    await stop(child);
  }
}

export async function fairnessFigures(): Promise<FairnessRow[]> {
  // this process calls as the quiet sandbox: on the client cores too
  if (PIN) spawnSync('taskset', ['-p', '-c', CLIENT_CORES, String(process.pid)]);
  const rows = await buildRows('this build', ROOT);
  const before = process.env.BENCH_BEFORE;
  if (before) rows.push(...(await buildRows('before', before)));
  return rows;
}

/** The rows as a table's, with the ratios the issue's targets name. */
export function fairnessRows(rows: FairnessRow[]): { name: string; note: string }[] {
  const out = rows.map((r) => ({
    name: `${r.build}: ${r.what}`,
    note:
      r.rps !== undefined
        ? `${r.rps.toFixed(0)} req/s`
        : `${r.calls} calls in ${FAIR_S} s, median ${r.p50?.toFixed(2)} ms, p99 ${r.p99?.toFixed(2)} ms; ` +
          `as the server timed them: median ${r.serverP50?.toFixed(2)} ms, p99 ${r.serverP99?.toFixed(2)} ms`,
  }));
  for (const build of new Set(rows.map((r) => r.build))) {
    const of = (what: string) => rows.find((r) => r.build === build && r.what === what);
    const [alone, beside, fa, fb] = [
      of('the quiet sandbox alone'),
      of('the quiet sandbox beside the flood'),
      of('the flood alone'),
      of('the flood beside the quiet sandbox'),
    ];
    if (!alone?.p50 || !beside?.p50 || !alone.p99 || !beside.p99 || !fa?.rps || !fb?.rps) continue;
    out.push({
      name: `${build}: beside the flood vs alone`,
      note:
        `median x${(beside.p50 / alone.p50).toFixed(1)}, p99 x${(beside.p99 / alone.p99).toFixed(1)}; ` +
        `as the server timed them: median x${((beside.serverP50 ?? 0) / (alone.serverP50 ?? 1)).toFixed(1)}, ` +
        `p99 x${((beside.serverP99 ?? 0) / (alone.serverP99 ?? 1)).toFixed(1)}; the flood's throughput x${(fb.rps / fa.rps).toFixed(2)}`,
    });
  }
  return out;
}
