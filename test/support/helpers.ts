/**
 * A fresh dipswitch for each test: in-memory store with the default fixtures, a frozen clock,
 * seeded ids, served on a loopback port and called over real HTTP. After each test, every answer
 * the test saw must have matched the contract.
 */
import type { AddressInfo } from 'node:net';
import pg from 'pg';
import http, { type Server } from 'node:http';
import { afterEach, beforeEach, expect, inject } from 'vitest';
import type { App } from '../../src/http/app.js';
import { injector } from '../../src/http/inject.js';
import type { Fetcher } from '../../src/runtime.js';
import { silentLogger } from '../../src/deps.js';
import { buildServer, listen, type Runtime, type ServerOptions } from '../../src/server.js';
import type { MemoryFiles } from '../../src/store/files.js';
import type { JsonStore } from '../../src/store/embedded/json_store.js';
import type { DbData } from '../../src/store/schema.js';
import type { UnitOfWork } from '../../src/store/store.js';
import { startReceiver, type Receiver } from '../../src/testing/receiver.js';
import { startProxy, type ProxyOptions } from '../../src/trust/proxy.js';
import { PG_TEMPLATES } from './pg_templates.js';

/** The Demo and Partner accounts of the default fixtures (interface.md section 3). */
export { DEMO_ACCOUNT as DEMO, PARTNER_ACCOUNT as PARTNER } from '../../src/store/fixtures.js';
export const START = new Date('2026-03-01T12:00:00.000Z');

export interface CallOptions {
  key?: string | null;
  body?: unknown;
  raw?: string | Blob;
  /** A multipart/form-data body. */
  form?: FormData;
  headers?: Record<string, string>;
}

export interface Answer<T = any> {
  status: number;
  body: T;
  text: string;
  headers: Headers;
}

export interface TestServer {
  app: App;
  runtime: Runtime;
  base: string;
  /** Reads the store as it stands. */
  read<T>(fn: (w: UnitOfWork) => Promise<T>): Promise<T>;
  /** Changes the store behind the API's back (what a control call would do), in whole-state work. */
  write<T>(fn: (w: UnitOfWork) => Promise<T>): Promise<T>;
  /** The whole state, for comparing before and after. */
  state(): Promise<DbData>;
  /** The document and result files of the store, whichever backend it is. */
  files: { get(id: string): Promise<Buffer | undefined>; count(): Promise<number> };
  call<T = any>(method: string, path: string, opts?: CallOptions): Promise<Answer<T>>;
  /** The same call answered by the server's core in the process, no socket: for a test where a socket adds nothing. */
  inject<T = any>(method: string, path: string, opts?: CallOptions): Promise<Answer<T>>;
  /**
   * Waits for the deliveries the calls so far set off, as a client would: `advance` by nothing
   * runs what is due now and waits for it (the Demo account's, or the key's).
   */
  settle(key?: string): Promise<void>;
  close(): Promise<void>;
}

let databases = 0;

/** A call's headers and body as a client sends them: the Demo admin key unless `key` says otherwise (null: none). */
function sent(opts: CallOptions): { headers: Record<string, string>; body?: string | Blob | FormData } {
  const headers: Record<string, string> = { ...opts.headers };
  const key = opts.key === undefined ? 'demo-admin-key' : opts.key;
  if (key !== null) headers.authorization ??= `Bearer ${key}`;
  let body: string | Blob | FormData | undefined = opts.form ?? opts.raw;
  if (opts.body !== undefined) {
    body = JSON.stringify(opts.body);
    headers['content-type'] ??= 'application/json';
  }
  return { headers, body };
}

/** An answer with its JSON parsed (its text kept too). */
function answerOf<T>(status: number, headers: Headers, text: string): Answer<T> {
  let parsed: unknown = text;
  try {
    parsed = text ? JSON.parse(text) : null;
  } catch {
    // not JSON (the YAML contract): keep the text
  }
  return { status, body: parsed as T, text, headers };
}

/**
 * Calls a dipswitch at `base` as a client would: the Demo admin key unless `key` says otherwise
 * (null: none), a JSON body, a raw body or a form; the answer's JSON parsed (its text kept too).
 */
export async function callAt<T = any>(
  base: string,
  method: string,
  path: string,
  opts: CallOptions = {},
): Promise<Answer<T>> {
  const { headers, body } = sent(opts);
  const answered =
    typeof body === 'string' || body === undefined
      ? await request(base + path, method, headers, body)
      : await fetch(base + path, { method, headers, body }).then(async (r) => ({
          status: r.status,
          headers: r.headers,
          text: await r.text(),
        }));
  return answerOf(answered.status, answered.headers, answered.text);
}

/** The same call answered by a server's core in the process (`sim.request`), no socket between. */
async function injectInto<T>(
  inject: Fetcher,
  method: string,
  path: string,
  opts: CallOptions = {},
): Promise<Answer<T>> {
  const { headers, body } = sent(opts);
  const res = await inject(path, { method, headers, body });
  return answerOf(res.status, res.headers, await res.text());
}

/** Connections kept open between calls, as fetch keeps its own. */
const agent = new http.Agent({ keepAlive: true });

/**
 * A call over node:http, for a body that is text or none: fetch costs the suite's calls twice the
 * CPU (525 against 215 µs a call, measured), and the fuzz test alone makes 20,000 of them.
 */
function request(
  url: string,
  method: string,
  headers: Record<string, string>,
  body: string | undefined,
): Promise<{ status: number; headers: Headers; text: string }> {
  return new Promise((resolve, reject) => {
    const sent = body === undefined ? headers : { ...headers, 'content-length': String(Buffer.byteLength(body)) };
    const req = http.request(url, { method, headers: sent, agent }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('error', reject);
      res.on('end', () => {
        const answered = new Headers();
        for (let i = 0; i + 1 < res.rawHeaders.length; i += 2)
          answered.append(res.rawHeaders[i] ?? '', res.rawHeaders[i + 1] ?? '');
        resolve({ status: res.statusCode ?? 0, headers: answered, text: Buffer.concat(chunks).toString('utf8') });
      });
    });
    req.on('error', reject);
    req.end(body);
  });
}

/**
 * The store of a test server: memory, or in the suite's PostgreSQL run a fresh database copied from
 * a template (seeded with the default fixtures unless the server brings fixtures of its own).
 */
async function testStore(ownFixtures: boolean): Promise<ServerOptions['store']> {
  if (process.env.DIPSWITCH_TEST_STORE !== 'postgres') return { memory: true };
  const server = inject('postgres');
  const name = `t${process.pid}_${databases++}`;
  const template = ownFixtures ? PG_TEMPLATES.migrated : PG_TEMPLATES.seeded;
  // FILE_COPY: the template's files copied as they are (about 16 ms of the server's CPU against 110 ms
  // for the default, which writes every page through the WAL); durability is not the copy's concern here
  await (await adminClient(server)).query(`CREATE DATABASE ${name} TEMPLATE ${template} STRATEGY FILE_COPY`);
  return { postgres: `${server}/${name}` };
}

/** One connection a worker for making databases: a new PostgreSQL connection costs the server about 25 ms of CPU. */
let admin: Promise<pg.Client> | undefined;
function adminClient(server: string): Promise<pg.Client> {
  admin ??= (async () => {
    const client = new pg.Client({ connectionString: `${server}/postgres` });
    // the run's server stops after the last test: a connection it drops is made again when next needed
    client.on('error', () => (admin = undefined));
    client.on('end', () => (admin = undefined));
    await client.connect();
    return client;
  })();
  admin.catch(() => (admin = undefined));
  return admin;
}

export async function startTestServer(opts: Partial<ServerOptions> = {}): Promise<TestServer> {
  const store = await testStore(opts.fixtures !== undefined);
  const { app, runtime } = await buildServer({
    store,
    seed: 42,
    clockMode: 'frozen',
    startTime: START,
    logger: silentLogger,
    validateResponses: true,
    ...opts,
  });
  const http: Server = await listen(app, 0, '127.0.0.1');
  const base = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
  const inProcess = injector(app.core, runtime, base);
  const overPostgres = 'postgres' in store;
  const server: TestServer = {
    app,
    runtime,
    base,
    read: (fn) => runtime.store.run({ read: true }, fn),
    write: (fn) => runtime.store.run({ global: true }, fn),
    state: () => runtime.store.run({ read: true }, (w) => w.exportState()),
    files:
      'postgres' in store
        ? {
            get: (id) => runtime.store.run({ read: true }, (w) => w.files.get(id)),
            count: async () => {
              const db = new pg.Client({ connectionString: store.postgres });
              await db.connect();
              const r = await db.query<{ n: string }>('SELECT count(*) AS n FROM files');
              await db.end();
              return Number(r.rows[0]?.n ?? 0);
            },
          }
        : {
            get: (id) => ((runtime.store as JsonStore).files as MemoryFiles).get(id),
            count: async () => ((runtime.store as JsonStore).files as MemoryFiles).size,
          },
    async settle(key) {
      await server.call('POST', '/__sim/clock/advance', { key: key ?? null, body: { by: 'PT0S' } });
    },
    // the PostgreSQL project tests the store, whatever the wire: its calls go to the core in the process
    call: (method, path, opts) =>
      overPostgres ? injectInto(inProcess, method, path, opts) : callAt(base, method, path, opts),
    inject: (method, path, opts) => injectInto(inProcess, method, path, opts),
    close: async () => {
      // a browser's keep-alive and live (event-stream) connections would hold the close forever
      for (const end of [...runtime.streams]) end();
      http.closeIdleConnections();
      await new Promise<void>((resolve) => http.close(() => resolve()));
      await runtime.close();
    },
  };
  return server;
}

/** Starts a fresh receiver (a client's endpoint on loopback) before each test and closes it after. */
export function useReceiver(): () => Receiver {
  let current: Receiver | undefined;
  beforeEach(async () => {
    current = await startReceiver();
  });
  afterEach(() => current?.close());
  return () => {
    if (!current) throw new Error('no receiver: call useReceiver() at the top of the describe block');
    return current;
  };
}

/** Registers a fresh server before each test and the contract check after it. */
export function useServer(): () => TestServer {
  let current: TestServer | undefined;
  beforeEach(async () => {
    current = await startTestServer();
  });
  afterEach(async () => {
    const violations = current?.app.contractViolations ?? [];
    await current?.close();
    expect(violations, 'every answer matches the contract').toEqual([]);
  });
  return () => {
    if (!current) throw new Error('no server: call useServer() at the top of the describe block');
    return current;
  };
}

/** Wraps a record's writable fields in the request envelope. */
export const envelope = (type: string, data: unknown) => ({ type, data });

/** The single error of an error answer, asserting there is exactly one. */
export function onlyError(answer: { body: any }): {
  code: string;
  detail: string;
  title: string;
  sub_code: string;
  params?: any;
  source?: any;
} {
  expect(answer.body.errors, JSON.stringify(answer.body)).toHaveLength(1);
  return answer.body.errors[0];
}

/** Asserts an answer is one `invalid_parameter` at `pointer`, with the status the operation uses. */
export function expectInvalid(answer: { status: number; body: any }, pointer: string, status = 404): void {
  expect(answer.status, JSON.stringify(answer.body)).toBe(status);
  expect(onlyError(answer)).toMatchObject({ code: 'invalid_parameter', source: { pointer } });
}

/** Opens the live journal; answers a reader of its events and a way to close it. */
export async function liveJournal(base: string, api = 'v1') {
  const controller = new AbortController();
  const res = await fetch(`${base}/__sim/requests/stream?api=${api}`, { signal: controller.signal });
  const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = '';
  return {
    res,
    /** The next `event: call` entry. */
    async next(): Promise<Record<string, unknown>> {
      for (;;) {
        const end = buffer.indexOf('\n\n');
        if (end >= 0) {
          const event = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const data = /^data: (.*)$/m.exec(event)?.[1];
          if (data) return JSON.parse(data) as Record<string, unknown>;
          continue;
        }
        const { value, done } = await reader.read();
        if (done) throw new Error('the stream ended');
        buffer += value;
      }
    },
    close: () => controller.abort(),
  };
}

/** `dipswitch proxy` in front of `upstream` on loopback, with what rides on it (a recorder, a shadow), and its base URL. */
export async function startTestProxy(upstream: string, ride: Pick<ProxyOptions, 'recorder' | 'shadow'> = {}) {
  const proxy = await startProxy({
    upstream,
    port: 0,
    host: '127.0.0.1',
    logger: silentLogger,
    now: () => '',
    ...ride,
  });
  return { ...proxy, base: `http://127.0.0.1:${(proxy.server.address() as AddressInfo).port}` };
}

/**
 * A DID event subscription of the sandbox to `url`, then `times` updates of its first number: each one an
 * event delivered; settled before it answers.
 */
export async function numberEvents(
  server: TestServer,
  box: { keys: { admin: string }; numbers: string[] },
  url: string,
  times = 1,
): Promise<void> {
  const key = box.keys.admin;
  await server.call('POST', '/api/v1/event_subscriptions', {
    key,
    body: envelope('event_subscription', { name: 'e', protocol: 'HTTP', data: url, topics: ['DID'] }),
  });
  for (let i = 0; i < times; i++)
    await server.call('PATCH', `/api/v1/numbers/${box.numbers[0]}`, {
      key,
      body: envelope('did', { description: `d${i}` }),
    });
  await server.settle(key);
}
