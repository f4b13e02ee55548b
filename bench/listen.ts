/**
 * What a listener adds to a delivery: the time of `POST /__sim/inbound/sms` (which answers once its
 * delivery was answered) with the switch's target a receiver on loopback, then the same receiver
 * behind `dipswitch listen` (its own process) over a target NAME.listen.invalid, the two in turn.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { elapsedMs, stopwatch } from '../src/deps.js';
import { startReceiver } from '../src/testing/receiver.js';
import { envelope } from '../test/support/helpers.js';
import { buildServer, listen, scratchOptions } from '../src/server.js';
import { serve } from './sim.js';

const ROUNDS = 300;
const WARM_UP = 50;
/** Demo's numbers: one routed to the receiver, one to the listener. */
const [DIRECT, LISTENED] = ['+13125550100', '+13125550101'];
const AUTH = { authorization: 'Bearer demo-admin-key', 'content-type': 'application/json' };

export interface ListenFigures {
  rounds: number;
  instances: string;
  direct: { median: number; p99: number };
  listened: { median: number; p99: number };
}

/** The median and 99th percentile of times in ms. */
function figures(ms: number[]): { median: number; p99: number } {
  const sorted = [...ms].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;
  return { median: at(0.5), p99: at(0.99) };
}

/** A dipswitch over the database at `url` (the first one seeds it), frozen, silent. */
async function serveOn(url: string) {
  const { app, runtime } = await buildServer({ ...scratchOptions(), store: { postgres: url } });
  const server = await listen(app, 0, '127.0.0.1');
  const base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  const close = async () => {
    for (const end of [...runtime.streams]) end();
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
    await runtime.close();
  };
  return { base, close };
}

/** `dipswitch listen` (the built command) as its own process, once it printed that it listens. */
function listener(base: string, forwardTo: string): Promise<ChildProcess> {
  const args = ['dist/src/cli/main.js', 'listen', '--url', base, '--key', 'demo-admin-key', '--forward-to', forwardTo];
  const child = spawn(process.execPath, [...args, '--name', 'bench'], { stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise((resolve, reject) => {
    child.stdout.on('data', (c: Buffer) => {
      if (c.toString().includes('listening as')) resolve(child);
    });
    child.on('exit', (code) => reject(new Error(`dipswitch listen exited ${code}`)));
  });
}

/** Where the calls go: `make` is the instance the SMS are injected on (it makes the deliveries), `listenOn` the listener's. */
interface Servers {
  make: string;
  listenOn: string;
}

/** The two figures over servers already started. */
async function timesOver({ make, listenOn }: Servers): Promise<Omit<ListenFigures, 'rounds' | 'instances'>> {
  const receiver = await startReceiver();
  const call = async (method: string, path: string, body: unknown) => {
    const res = await fetch(make + path, { method, headers: AUTH, body: JSON.stringify(body) });
    if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
    return (await res.json()) as { data: { id: string } };
  };
  const route = async (number: string, target: string) => {
    const fields = { name: 'bench', sms_enabled: true, sms_protocol: 'HTTP', sms_data: target };
    const sw = await call('POST', '/api/v1/switches', envelope('switch', fields));
    await call('PATCH', `/api/v1/numbers/${number}`, envelope('did', { switch_id: sw.data.id }));
  };
  const sms = async (to: string, text: string) => {
    const started = stopwatch();
    await call('POST', '/__sim/inbound/sms', { to, from: '+14155550123', text });
    return elapsedMs(started);
  };
  const child = await listener(listenOn, receiver.url);
  try {
    await route(DIRECT, `${receiver.url}/sms`);
    await route(LISTENED, 'https://bench.listen.invalid/sms');
    // the other instance hears of the listener (the peers channel)
    await new Promise((r) => setTimeout(r, 500));
    const direct: number[] = [];
    const listened: number[] = [];
    // in turn, after a warm-up: both paths meet the same state of the process
    for (let i = -WARM_UP; i < ROUNDS; i++) {
      const [d, l] = [await sms(DIRECT, `d${i}`), await sms(LISTENED, `l${i}`)];
      if (i < 0) continue;
      direct.push(d);
      listened.push(l);
    }
    const expected = 2 * (ROUNDS + WARM_UP);
    if (receiver.received.length !== expected) throw new Error(`${receiver.received.length} received of ${expected}`);
    return { direct: figures(direct), listened: figures(listened) };
  } finally {
    child.kill();
    await receiver.close();
  }
}

/** In memory, the listener on the one server; then two instances over PostgreSQL, the listener on the other one. */
export async function listenBench(): Promise<ListenFigures[]> {
  const one = await serve();
  const alone = await timesOver({ make: one.base, listenOn: one.base }).finally(() => one.close());
  const { startPostgres } = await import('../test/support/pg_server.js');
  const pg = await startPostgres();
  const url = await pg.database('listen');
  const [a, b] = [await serveOn(url), await serveOn(url)];
  try {
    const two = await timesOver({ make: b.base, listenOn: a.base });
    return [
      { rounds: ROUNDS, instances: 'in memory, one instance', ...alone },
      { rounds: ROUNDS, instances: 'PostgreSQL, made on one instance, the listener on the other', ...two },
    ];
  } finally {
    await a.close();
    await b.close();
    await pg.stop();
  }
}

export function listenRows(all: ListenFigures[]) {
  const ms = (x: number) => `${x.toFixed(1)} ms`;
  return all.flatMap((f) => [
    {
      name: `${f.instances}: inbound SMS to a receiver on loopback (${f.rounds} in turn)`,
      note: `median ${ms(f.direct.median)}, p99 ${ms(f.direct.p99)}`,
    },
    {
      name: `${f.instances}: the same through \`dipswitch listen\``,
      note: `median ${ms(f.listened.median)}, p99 ${ms(f.listened.p99)}`,
    },
    {
      name: `${f.instances}: what the listener adds`,
      note: `median ${ms(f.listened.median - f.direct.median)}, p99 ${ms(f.listened.p99 - f.direct.p99)}`,
    },
  ]);
}
