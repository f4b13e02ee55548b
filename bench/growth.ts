/**
 * `BENCH_ONLY=growth [BENCH_GROWTH=5000] [BENCH_BEFORE=<a built checkout>]`: one sandbox's calls beside 10 and
 * beside BENCH_GROWTH other sandboxes, each with a bulk dip waiting on its frozen clock, on the embedded store and on
 * PostgreSQL. The server runs as its own process; each kind of call (a GET, a checkout, an advance of the clock, an
 * inbound SMS delivered to a receiver here, its delivery log full at 2,000) is made CALLS times and measured as the
 * server's CPU per call (its /proc utime and stime) and the call's median time. With BENCH_BEFORE, the same for that
 * checkout's build, row beside row.
 */
import type { ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { freshPort, median, ROOT, startProcess, stop } from './harness.js';
import { startReceiver } from '../src/testing/receiver.js';

const CALLS = Number(process.env.BENCH_GROWTH_CALLS ?? 100);
const TICKS_PER_S = 100;

export interface GrowthRow {
  build: string;
  backend: string;
  others: number;
  call: string;
  cpuMs: number;
  p50: number;
}

/** The process's CPU so far, in ms (utime + stime of /proc/PID/stat). */
function cpuMs(pid: number | undefined): number {
  const fields = (readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1] ?? '').split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS_PER_S;
}

/** An answer's JSON, read by the fields the bench uses. */
interface Answer {
  data: { id: string };
  keys: { admin: string; standard: string };
  numbers: string[];
}

/** A JSON call to the server; refused answers end the bench, naming the call. */
async function call(base: string, method: string, path: string, key?: string, body?: unknown): Promise<Answer> {
  const res = await fetch(base + path, {
    method,
    headers: {
      ...(key ? { authorization: `Bearer ${key}` } : {}),
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${text.slice(0, 300)}`);
  return (text ? JSON.parse(text) : {}) as Answer;
}

const envelope = (type: string, data: unknown) => ({ type, data });

/** Adds sandboxes until `total` others exist, each with a bulk dip waiting on its (frozen) clock. */
async function othersUpTo(base: string, from: number, total: number): Promise<void> {
  for (let i = from; i < total; i++) {
    const box = await call(base, 'POST', '/__sim/accounts', undefined, { name: `other ${i}` });
    await call(
      base,
      'POST',
      '/api/v1/bulk_dip_tasks',
      box.keys.standard,
      envelope('bulk_dip_task', { type: 'CNAM', numbers: ['+13125550100'], reference_id: `waiting ${i}` }),
    );
  }
}

/** Our sandbox: a switch to the receiver on its first number, an event subscription, and a full delivery log. */
async function ours(base: string, receiver: string) {
  const box = await call(base, 'POST', '/__sim/accounts', undefined, { name: 'ours' });
  const key = box.keys.admin;
  const sw = await call(
    base,
    'POST',
    '/api/v1/switches',
    key,
    envelope('switch', { name: 'r', sms_enabled: true, sms_protocol: 'HTTP', sms_data: `${receiver}/sms` }),
  );
  await call(base, 'PATCH', `/api/v1/numbers/${encodeURIComponent(box.numbers[0] ?? '')}`, key, {
    type: 'did',
    data: { switch_id: sw.data.id },
  });
  // the log at its bound: every further delivery trims it
  for (let i = 0; i < 2_000; i++)
    await call(base, 'POST', '/__sim/inbound/sms', key, {
      to: box.numbers[0],
      from: '+14155550123',
      text: `fill ${i}`,
    });
  return { key, number: box.numbers[0] ?? '' };
}

/** Each kind of call made CALLS times: the server's CPU per call and the median time. */
async function calls(child: ChildProcess, base: string, me: { key: string; number: string }) {
  let n = 0;
  const kinds: [string, () => Promise<unknown>][] = [
    ['GET a number', () => call(base, 'GET', `/api/v1/numbers/${encodeURIComponent(me.number)}`, me.key)],
    [
      'checkout (cart, request, checkout)',
      async () => {
        const cart = await call(base, 'POST', '/api/v1/carts', me.key, envelope('cart', { name: `c ${n++}` }));
        await call(base, 'POST', `/api/v1/carts/${cart.data.id}/requests`, me.key, {
          type: 'request',
          data: { type: 'NEW_NUMBERS', data: { npa: '312', state: 'IL', number_type: 'TENDLC', quantity: '1' } },
        });
        await call(base, 'POST', `/api/v1/carts/${cart.data.id}/checkout`, me.key);
      },
    ],
    ['advance the clock PT1M', () => call(base, 'POST', '/__sim/clock/advance', me.key, { by: 'PT1M' })],
    [
      'inbound SMS, delivered',
      () => call(base, 'POST', '/__sim/inbound/sms', me.key, { to: me.number, from: '+14155550123', text: 'hi' }),
    ],
  ];
  const out: { call: string; cpuMs: number; p50: number }[] = [];
  for (const [name, fn] of kinds) {
    for (let i = 0; i < 5; i++) await fn();
    const times: number[] = [];
    const before = cpuMs(child.pid);
    for (let i = 0; i < CALLS; i++) {
      const t0 = performance.now();
      await fn();
      times.push(performance.now() - t0);
    }
    out.push({ call: name, cpuMs: (cpuMs(child.pid) - before) / CALLS, p50: median(times) });
  }
  return out;
}

/** One build's rows: each backend beside 10 others, then beside `many`. */
async function buildRows(
  build: string,
  root: string,
  many: number,
  pgUrl: () => Promise<string>,
): Promise<GrowthRow[]> {
  const rows: GrowthRow[] = [];
  const receiver = await startReceiver();
  try {
    for (const backend of ['embedded', 'PostgreSQL']) {
      const port = freshPort();
      const base = `http://127.0.0.1:${port}`;
      const store = backend === 'embedded' ? ['--memory'] : ['--store', await pgUrl()];
      const { child } = await startProcess(
        process.execPath,
        [join(root, 'dist/src/cli/main.js'), ...store, '--no-smpp', '-q', '--clock', 'frozen', '--port', String(port)],
        `${base}/__sim/health`,
      );
      try {
        const me = await ours(base, receiver.url);
        let made = 0;
        for (const others of [10, many]) {
          console.log(`  ${build}, ${backend}: ${others.toLocaleString('en')} other sandboxes`);
          await othersUpTo(base, made, others);
          made = others;
          receiver.received.length = 0;
          for (const r of await calls(child, base, me)) rows.push({ build, backend, others, ...r });
        }
      } finally {
        await stop(child);
      }
    }
  } finally {
    await receiver.close();
  }
  return rows;
}

export async function growthFigures(): Promise<GrowthRow[]> {
  const many = Number(process.env.BENCH_GROWTH ?? 5_000);
  const { startPostgres } = await import('../test/support/pg_server.js');
  const pgServer = await startPostgres();
  let dbs = 0;
  const pgUrl = () => pgServer.database(`growth${dbs++}`);
  try {
    const rows = await buildRows('this build', ROOT, many, pgUrl);
    const before = process.env.BENCH_BEFORE;
    if (before) rows.push(...(await buildRows('before', before, many, pgUrl)));
    return rows;
  } finally {
    await pgServer.stop();
  }
}

/** The rows as a table's: CPU per call and median, and beside many against beside 10. */
export function growthRows(rows: GrowthRow[]): { name: string; note: string }[] {
  return rows.map((r) => {
    const base = rows.find(
      (b) => b.build === r.build && b.backend === r.backend && b.call === r.call && b.others === 10,
    );
    const times = base && base !== r ? ` (x${(r.cpuMs / base.cpuMs).toFixed(1)} of beside 10)` : '';
    return {
      name: `${r.build}, ${r.backend}, beside ${r.others.toLocaleString('en')}: ${r.call}`,
      note: `server CPU ${r.cpuMs.toFixed(2)} ms a call${times}; median ${r.p50.toFixed(1)} ms`,
    };
  });
}
