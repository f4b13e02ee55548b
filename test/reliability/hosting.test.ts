/**
 * Safe to host (issue 13): bounds on what one caller can make the server hold, the outbound
 * policy on real deliveries, custom headers checked at create, the control API's exposure.
 */
import { spawn } from 'node:child_process';
import { request as httpRequest } from 'node:http';
import { connect, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { projectRoot } from '../../src/contract.js';
import type { Limits } from '../../src/limits.js';
import { buildServer, controlExposure, listen, type ServerOptions } from '../../src/server.js';
import { startReceiver, type Receiver } from '../../src/testing/receiver.js';
import { SANDBOX_BLOCKS } from '../../src/domain/sandbox_numbers.js';
import { envelope, callAt } from '../support/helpers.js';
import { eventually } from '../support/eventually.js';
import { COMMAND } from '../support/cli_process.js';

async function server(opts: Partial<ServerOptions> = {}, limits: Partial<Limits> = {}) {
  const { app, runtime } = await buildServer({
    store: { memory: true },
    seed: 13,
    clockMode: 'frozen',
    startTime: new Date('2026-03-01T12:00:00.000Z'),
    logger: { info: () => {}, warn: () => {} },
    validateResponses: true,
    limits,
    ...opts,
  });
  const http = await listen(app, 0, '127.0.0.1', runtime.limits);
  const port = (http.address() as AddressInfo).port;
  const base = `http://127.0.0.1:${port}`;
  const call = (method: string, path: string, body?: unknown, raw?: string) =>
    callAt(base, method, path, { body, raw, headers: raw === undefined ? {} : { 'content-type': 'application/json' } });
  return {
    runtime,
    port,
    call,
    close: async () => {
      http.closeAllConnections();
      await new Promise<void>((r) => http.close(() => r()));
      await runtime.close();
    },
  };
}

/** Resolves when the socket is closed by the other end, with what it was answered. */
function answerUntilClosed(socket: Socket): Promise<{ answer: string }> {
  let answer = '';
  socket.on('data', (c: Buffer) => (answer += c.toString()));
  return new Promise((resolve) => socket.on('close', () => resolve({ answer })));
}

function open(port: number): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const s = connect(port, '127.0.0.1', () => resolve(s));
    s.on('error', reject);
  });
}

describe('bounds', () => {
  let s: Awaited<ReturnType<typeof server>> | undefined;
  afterEach(async () => {
    await s?.close();
    s = undefined;
  });

  it('sandboxes are counted: past --max-sandboxes a clear 422, and a deleted one makes room', async () => {
    s = await server({}, { sandboxes: 3 });
    const made = [];
    for (let i = 0; i < 3; i++) made.push((await s.call('POST', '/__sim/accounts', { name: `b${i}` })).body);
    const over = await s.call('POST', '/__sim/accounts', { name: 'b3' });
    expect(over.status).toBe(422);
    expect(over.body.errors[0]).toMatchObject({ code: 'limit_reached' });
    expect(over.body.errors[0].detail).toContain('--max-sandboxes');
    // a sandbox removes itself with its own key (Demo's key may remove only Demo)
    expect((await s.call('DELETE', `/__sim/accounts/${made[0].id}`)).status).toBe(404);
    expect(
      (
        await callAt(`http://127.0.0.1:${s.port}`, 'DELETE', `/__sim/accounts/${made[0].id}`, {
          key: made[0].keys.admin,
        })
      ).status,
    ).toBe(200);
    expect((await s.call('POST', '/__sim/accounts', { name: 'b4' })).status).toBe(201);
  });

  it('5,000 sandboxes are made, each with its own ten numbers from the counter', async () => {
    s = await server();
    const numbers = new Set<string>();
    const times: number[] = [];
    for (let i = 0; i < 5_000; i++) {
      const started = performance.now();
      const made = await s.call('POST', '/__sim/accounts', {});
      times.push(performance.now() - started);
      expect(made.status).toBe(201);
      for (const n of made.body.numbers) numbers.add(n);
    }
    expect(numbers.size).toBe(50_000);
    for (const n of numbers) expect(n).toMatch(/^\+1399[2-9]\d{6}$/);
    const first = times.slice(0, 100).reduce((a, b) => a + b) / 100;
    const last = times.slice(-100).reduce((a, b) => a + b) / 100;
    console.log(
      `sandboxes: the 5,000th took ${times.at(-1)?.toFixed(1)} ms; mean of the first 100 ${first.toFixed(1)} ms, of the last 100 ${last.toFixed(1)} ms`,
    );
    const health = await s.call('GET', '/__sim/health');
    expect(health.status).toBe(200);
  }, 180_000);

  it('a client sending its headers slowly is cut off at --headers-timeout', async () => {
    s = await server({}, { headersTimeoutMs: 300, requestTimeoutMs: 600 });
    const socket = await open(s.port);
    const closed = answerUntilClosed(socket);
    socket.write('GET /api/v1/carts HTTP/1.1\r\nHost: 127.0.0.1\r\n'); // and never the blank line
    // the 408 is the cut: a server without the timeout waits for the rest forever (the test's own timeout)
    const { answer } = await closed;
    expect(answer).toMatch(/^HTTP\/1\.1 408/);
  });

  it('a client sending its body slowly is cut off at --request-timeout', async () => {
    s = await server({}, { headersTimeoutMs: 300, requestTimeoutMs: 600 });
    const socket = await open(s.port);
    const closed = answerUntilClosed(socket);
    socket.write(
      'POST /api/v1/carts HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer demo-admin-key\r\n' +
        'Content-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"type":',
    );
    const drip = setInterval(() => socket.writable && socket.write(' '), 100);
    const { answer } = await closed;
    clearInterval(drip);
    expect(answer).toMatch(/^HTTP\/1\.1 408/);
    // nothing was made. The GET that shows it is under the same 300 ms headers timeout, counted from its
    // connection's accept: a worker stalled that long gets Node's empty 408, and asks again
    const carts = await eventually(async () => {
      const got = await s!.call('GET', '/api/v1/carts');
      return got.status === 408 ? undefined : got;
    }, 'a GET not cut by the headers timeout');
    expect(carts.status).toBe(200);
    expect(carts.body.count).toBe(0);
  });

  it('connections past --max-connections are closed as they arrive; the others are served', async () => {
    s = await server({}, { connections: 5 });
    const sockets = await Promise.all(Array.from({ length: 5 }, () => open(s!.port)));
    const extra = await open(s.port);
    const { answer } = await answerUntilClosed(extra);
    expect(answer).toBe('');
    for (const socket of sockets) socket.destroy();
    // served once the server has seen the others close
    await eventually(async () => (await s!.call('GET', '/api/v1/carts').catch(() => undefined))?.status === 200);
  });

  it('an answer lists the first 100 problems and counts the rest', async () => {
    s = await server();
    const data: Record<string, number> = { name: 1 } as never;
    for (let i = 0; i < 90_000; i++) data[`k${i}`] = 0;
    const raw = JSON.stringify({ type: 'cart', data });
    expect(raw.length).toBeLessThan(1024 * 1024);
    const answer = await s.call('POST', '/api/v1/carts', undefined, raw);
    expect([404, 422]).toContain(answer.status);
    expect(answer.body.errors).toHaveLength(101);
    expect(answer.body.errors[100]).toMatchObject({
      code: 'invalid_parameter',
      params: { not_listed: 90_001 - 100 },
      source: { pointer: '/' },
    });
    expect(answer.text.length).toBeLessThan(30_000);
  });
});

describe('outbound', () => {
  let s: Awaited<ReturnType<typeof server>> | undefined;
  let receiver: Receiver | undefined;
  afterEach(async () => {
    await s?.close();
    await receiver?.close();
    s = undefined;
    receiver = undefined;
  });

  /** Subscribes to DID events at `url`, makes one, runs what is due; answers the delivery log entry. */
  async function deliverTo(url: string) {
    const sub = await s!.call(
      'POST',
      '/api/v1/event_subscriptions',
      envelope('event_subscription', { name: 'h', protocol: 'HTTP', data: url, topics: ['DID'] }),
    );
    expect(sub.status).toBe(201);
    await s!.call('PATCH', '/api/v1/numbers/+13125550100', envelope('did', { switch_id: null }));
    await s!.call('POST', '/__sim/clock/advance', { by: 'PT0S' });
    const log = (await s!.call('GET', '/__sim/deliveries')).body.deliveries;
    return log[0];
  }

  it('the metadata address is refused by default and never retried', async () => {
    s = await server();
    const entry = await deliverTo('http://169.254.169.254/latest/meta-data');
    expect(entry).toMatchObject({ outcome: 'refused', next_attempt_at: null });
    expect(entry.attempts[0].error).toBe('refused: 169.254.169.254 is a metadata address');
  });

  it('loopback in other spellings is delivered by default (client teams receive on their own machines)', async () => {
    receiver = await startReceiver();
    s = await server();
    const port = new URL(receiver.url).port;
    const entry = await deliverTo(`http://2130706433:${port}/hook`);
    expect(entry.outcome).toBe('delivered');
    expect(receiver.received).toHaveLength(1);
  });

  it('--outbound-deny loopback refuses every spelling of loopback, and names that resolve to it', async () => {
    receiver = await startReceiver();
    s = await server({ outboundDeny: ['loopback'] });
    const port = new URL(receiver.url).port;
    for (const host of ['127.1', '[::ffff:127.0.0.1]', 'localhost']) {
      const entry = await deliverTo(`http://${host}:${port}/hook`);
      expect(entry.outcome, host).toBe('refused');
      expect(entry.attempts[0].error, host).toContain('loopback address');
      await s.call(
        'DELETE',
        `/api/v1/event_subscriptions/${(await s.call('GET', '/api/v1/event_subscriptions')).body.results[0].data.id}`,
      );
    }
    expect(receiver.received).toHaveLength(0);
  });

  it('custom headers HTTP keeps for itself, and CR/LF in values, are refused at create with a pointer', async () => {
    s = await server();
    const create = (custom_headers: { key: string; value: string }[]) =>
      s!.call(
        'POST',
        '/api/v1/event_subscriptions',
        envelope('event_subscription', {
          protocol: 'HTTP',
          data: 'http://127.0.0.1:9/',
          topics: ['DID'],
          custom_headers,
        }),
      );
    for (const key of ['Host', 'content-length', 'Transfer-Encoding', 'CONNECTION', 'Bad Name', 'a:b']) {
      const answer = await create([
        { key: 'X-Fine', value: 'ok' },
        { key, value: 'x' },
      ]);
      expect(answer.status, key).toBe(404); // the spec's status for invalid event subscription input
      expect(answer.body.errors[0].code, key).toBe('invalid_parameter');
      expect(answer.body.errors[0].source.pointer, key).toBe('/data/custom_headers/1/key');
    }
    const crlf = await create([{ key: 'X-Inject', value: 'a\r\nTransfer-Encoding: chunked' }]);
    expect(crlf.status).toBe(404);
    expect(crlf.body.errors[0].source.pointer).toBe('/data/custom_headers/0/value');
    const webhook = await s.call(
      'POST',
      '/api/v1/call_data_webhooks',
      envelope('call_data_webhook', {
        name: 'w',
        protocol: 'HTTP',
        data: 'http://127.0.0.1:9/',
        custom_headers: [{ key: 'Host', value: 'evil' }],
      }),
    );
    expect(webhook.body.errors[0].source.pointer).toBe('/data/custom_headers/0/key');
    expect((await create([{ key: 'X-Hostname', value: 'fine: really' }])).status).toBe(201);
  });
});

describe('control API exposure', () => {
  it('a non-loopback host needs an admin token, or --unsafe-open-control with a warning', () => {
    expect(controlExposure('127.0.0.1', undefined, false)).toEqual({});
    expect(controlExposure('localhost', undefined, false)).toEqual({});
    expect(controlExposure('::1', undefined, false)).toEqual({});
    expect(controlExposure('0.0.0.0', undefined, false).refuse).toContain('--admin-token');
    expect(controlExposure('192.168.1.5', 'secret', false)).toEqual({});
    expect(controlExposure('0.0.0.0', undefined, true).warn).toContain('--unsafe-open-control');
  });
});

describe('what was seen, reproduced', () => {
  let s: Awaited<ReturnType<typeof server>> | undefined;
  let receiver: Receiver | undefined;
  afterEach(async () => {
    await s?.close();
    await receiver?.close();
    s = undefined;
    receiver = undefined;
  });

  it('a clock advance past year 9999 answers 422 with a pointer and the account keeps working', async () => {
    s = await server();
    const over = await s.call('POST', '/__sim/clock/advance', { by: 'P100000000D' });
    expect(over.status).toBe(422);
    expect(over.body.errors[0].source.pointer).toBe('/by');
    const far = await s.call('POST', '/__sim/clock/advance', { to: '+275760-09-13T00:00:00.000Z' });
    expect(far.status).toBe(422);
    expect((await s.call('GET', '/__sim/clock')).status).toBe(200);
    expect((await s.call('POST', '/api/v1/carts', envelope('cart', { name: 'after' }))).status).toBe(201);
  });

  it('when the sandbox numbers run out, a clear 422 and nothing half made', async () => {
    s = await server();
    await s.runtime.store.run({ global: true }, async (w) => {
      const state = await w.exportState();
      const last = { ...state.accounts[0]!, account_id: 'f0000000-0000-4000-8000-000000000000' };
      last.data = { ...last.data, id: last.account_id, name: 'the last block' };
      await w.replaceAll({ ...state, accounts: [...state.accounts, { ...last, sandbox_block: SANDBOX_BLOCKS - 2 }] });
    });
    expect((await s.call('POST', '/__sim/accounts', {})).status).toBe(201);
    const accounts = (await s.call('GET', '/__sim/accounts')).body.accounts.length;
    const over = await s.call('POST', '/__sim/accounts', {});
    expect(over.status).toBe(422);
    expect(over.body.errors[0]).toMatchObject({ code: 'limit_reached' });
    expect((await s.call('GET', '/__sim/accounts')).body.accounts.length).toBe(accounts);
  });

  it('snapshots past their count are refused with 422; saving over a name is allowed', async () => {
    s = await server({}, { snapshots: 2 });
    expect((await s.call('POST', '/__sim/snapshots', { name: 'a' })).status).toBe(201);
    expect((await s.call('POST', '/__sim/snapshots', { name: 'b' })).status).toBe(201);
    const third = await s.call('POST', '/__sim/snapshots', { name: 'c' });
    expect(third.status).toBe(422);
    expect(third.body.errors[0].code).toBe('limit_reached');
    expect((await s.call('POST', '/__sim/snapshots', { name: 'b' })).status).toBe(201);
  });

  it("a scenario calls the server's own address whatever Host says, and works with an admin token", async () => {
    s = await server({ simAdminToken: 'hosted-token' });
    const answer = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = httpRequest(
        {
          host: '127.0.0.1',
          port: s!.port,
          method: 'POST',
          path: '/__sim/scenarios/call-http-route',
          headers: { host: `127.0.0.2:${s!.port}`, 'x-sim-admin-token': 'hosted-token' },
        },
        (res) => {
          let body = '';
          res.on('data', (c: Buffer) => (body += c.toString()));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
        },
      );
      req.on('error', reject);
      req.end();
    });
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.body)).toMatchObject({ name: 'call-http-route', passed: true });
  });

  it('a password in a delivery URL and a token header are redacted in the delivery log and the journal', async () => {
    receiver = await startReceiver();
    s = await server();
    const url = receiver.url.replace('http://', 'http://hook-user:url-password-1@');
    await s.call(
      'POST',
      '/api/v1/event_subscriptions',
      envelope('event_subscription', {
        name: 'h',
        protocol: 'HTTP',
        data: `${url}/ev`,
        topics: ['DID'],
        custom_headers: [{ key: 'X-Auth-Token', value: 'header-token-1' }],
      }),
    );
    await s.call('PATCH', '/api/v1/numbers/+13125550100', envelope('did', { switch_id: null }));
    await s.call('POST', '/__sim/clock/advance', { by: 'PT0S' });
    expect(receiver.received[0]?.headers['x-auth-token']).toBe('header-token-1');
    const deliveries = (await s.call('GET', '/__sim/deliveries')).text;
    const journal = (await s.call('GET', '/__sim/requests?api=all&limit=1000')).text;
    for (const text of [deliveries, journal]) {
      expect(text).not.toContain('url-password-1');
      expect(text).not.toContain('header-token-1');
    }
    expect(deliveries).toContain('[redacted]');
  });
});

describe('the control API on a public interface', () => {
  it('dipswitch --host 0.0.0.0 without a token refuses to start, with one line and exit code 2', async () => {
    const child = spawn(process.execPath, [...COMMAND, '--memory', '--host', '0.0.0.0', '--port', '0'], {
      cwd: projectRoot,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, SIM_ADMIN_TOKEN: '' },
    });
    let err = '';
    child.stderr?.on('data', (c: Buffer) => (err += c.toString()));
    const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
    expect(code).toBe(2);
    expect(err.trim().split('\n')).toHaveLength(1);
    expect(err).toContain('--admin-token');
  });
});
