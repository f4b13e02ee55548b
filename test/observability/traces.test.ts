/**
 * Traces against a real OTLP/HTTP receiver on loopback, in both protocols, the server configured by
 * the standard variables alone: a client's `traceparent` continued by the server span; an inbound
 * SMS's delivery span a child of the inject, its `traceparent` at the receiver; an order's events
 * fired by a later advance linked to the checkout; each retry its own span; nothing exported with the
 * sampler off or the variables unset.
 */
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callAt, envelope } from '../support/helpers.js';
import { eventually } from '../support/eventually.js';
import { runCli, startCli, type Running } from '../support/cli_process.js';
import { startOtlpReceiver, type OtlpReceiver, type ReceivedSpan } from '../support/otlp_receiver.js';
import { client } from '../support/smpp_client.js';

const SERVER = 2;
const CLIENT = 3;
const ARGS = ['--memory', '--port', '0', '--no-smpp', '--clock', 'frozen'];

/** A trace id and span id of the test's own, as a client's instrumentation makes them. */
const hex = (n: number, seed: string) => seed.repeat(n).slice(0, n);
const parentOf = (trace: string, span: string, flags = '01') => `00-${trace}-${span}-${flags}`;

/** A webhook receiver keeping each request's headers; `refuse`: answers 503. */
async function receiver(refuse = false): Promise<{ url: string; got: IncomingHttpHeaders[]; server: Server }> {
  const got: IncomingHttpHeaders[] = [];
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      got.push(req.headers);
      res.writeHead(refuse ? 503 : 200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, got, server };
}

function startTraced(otlp: OtlpReceiver, env: Record<string, string>): Promise<Running & { base: string }> {
  return startCli(ARGS, {
    env: { OTEL_EXPORTER_OTLP_ENDPOINT: otlp.url, OTEL_BSP_SCHEDULE_DELAY: '50', OTEL_SERVICE_NAME: 'sim', ...env },
  });
}

const spansOf = (otlp: OtlpReceiver, traceId: string) => otlp.spans.filter((s) => s.traceId === traceId);

async function spanWhere(otlp: OtlpReceiver, what: string, test: (s: ReceivedSpan) => boolean): Promise<ReceivedSpan> {
  await eventually(() => otlp.spans.some(test), what);
  return otlp.spans.find(test)!;
}

describe.each(['http/json', 'http/protobuf'])('traces over OTLP %s', (protocol) => {
  let otlp: OtlpReceiver;
  let sim: Running & { base: string };
  const closing: Server[] = [];
  const call = (method: string, path: string, opts: Parameters<typeof callAt>[3] = {}) =>
    callAt(sim.base, method, path, opts);

  beforeAll(async () => {
    otlp = await startOtlpReceiver();
    sim = await startTraced(otlp, { OTEL_EXPORTER_OTLP_PROTOCOL: protocol });
  });
  afterAll(async () => {
    await sim?.stop();
    await otlp?.close();
    for (const s of closing) s.close();
  });

  it("continues the client's traceparent: the server span, its attributes, the journal's trace_id", async () => {
    const trace = hex(32, protocol === 'http/json' ? 'a1' : 'b2');
    const answer = await call('GET', '/api/v1/numbers', { headers: { traceparent: parentOf(trace, hex(16, 'c3')) } });
    expect(answer.status).toBe(200);
    const span = await spanWhere(otlp, 'the server span', (s) => s.traceId === trace && s.kind === SERVER);
    expect(span).toMatchObject({ parentSpanId: hex(16, 'c3'), name: 'GET /api/v1/numbers', service: 'sim' });
    expect(span.attributes).toMatchObject({
      'http.request.method': 'GET',
      'http.route': '/api/v1/numbers',
      'http.response.status_code': 200,
      'url.path': '/api/v1/numbers',
      'dipswitch.operation_id': 'listNumbers',
    });
    expect(String(span.attributes['dipswitch.account_id'])).not.toBe('');
    expect(
      otlp.types.every((t) => t.startsWith(protocol === 'http/json' ? 'application/json' : 'application/x-protobuf')),
    ).toBe(true);
    const journal = await call('GET', `/__sim/requests?trace_id=${trace}`);
    expect(journal.status).toBe(200);
    expect(journal.body.requests).toHaveLength(1);
    expect(journal.body.requests[0]).toMatchObject({ path: '/api/v1/numbers', trace_id: trace });
  });

  it('an unsampled traceparent is continued but not exported; a malformed one starts a trace', async () => {
    const unsampled = hex(32, 'd4');
    await call('GET', '/api/v1/numbers', { headers: { traceparent: parentOf(unsampled, hex(16, 'e5'), '00') } });
    const kept = (await call('GET', `/__sim/requests?trace_id=${unsampled}`)).body.requests;
    expect(kept, 'the journal keeps the trace the caller sent').toHaveLength(1);
    await call('GET', '/api/v1/numbers/%2B13125550100', { headers: { traceparent: '00-not-a-trace-01' } });
    const fresh = await spanWhere(
      otlp,
      'the malformed call',
      (s) => s.attributes['url.path'] === '/api/v1/numbers/%2B13125550100',
    );
    expect(fresh.parentSpanId).toBe('');
    expect(fresh.attributes['http.route']).toBe('/api/v1/numbers/{number_id}');
    expect(spansOf(otlp, unsampled), 'nothing of the unsampled trace').toEqual([]);
  });

  it("an inbound SMS's delivery is a span of the inject's trace, and the receiver gets its traceparent", async () => {
    const hooks = await receiver();
    closing.push(hooks.server);
    const sw = await call('POST', '/api/v1/switches', {
      body: envelope('switch', {
        name: 'traced',
        sms_enabled: true,
        sms_protocol: 'HTTP',
        sms_data: `${hooks.url}/sms`,
      }),
    });
    expect(sw.status).toBe(201);
    await call('PATCH', '/api/v1/numbers/+13125550100', { body: envelope('did', { switch_id: sw.body.data.id }) });
    const trace = hex(32, 'f6');
    const injected = await call('POST', '/__sim/inbound/sms', {
      key: 'demo-admin-key',
      headers: { traceparent: parentOf(trace, hex(16, '17')) },
      body: { to: '+13125550100', from: '+14155550123', text: 'traced' },
    });
    expect(injected.status).toBe(200);
    const inject = await spanWhere(otlp, 'the inject', (s) => s.traceId === trace && s.kind === SERVER);
    const attempt = await spanWhere(otlp, 'the delivery attempt', (s) => s.traceId === trace && s.kind === CLIENT);
    expect(attempt).toMatchObject({ name: 'deliver sms', parentSpanId: inject.spanId });
    expect(attempt.attributes).toMatchObject({
      'dipswitch.delivery.kind': 'sms',
      'dipswitch.delivery.attempt': 1,
      'dipswitch.delivery.transport': 'http',
      'http.request.method': 'POST',
      'http.response.status_code': 200,
    });
    expect(hooks.got.at(-1)?.traceparent).toBe(parentOf(trace, attempt.spanId));
    const log = (await call('GET', '/__sim/deliveries?kind=sms')).body.deliveries;
    expect(log[0]).toMatchObject({ trace_id: trace, attempts: [{ trace_id: trace }] });
  });

  it("an order's events fired by a later advance link to the checkout; each retry is its own span", async () => {
    const hooks = await receiver(true);
    closing.push(hooks.server);
    const sub = await call('POST', '/api/v1/event_subscriptions', {
      body: envelope('event_subscription', {
        name: 'ev',
        protocol: 'HTTP',
        data: `${hooks.url}/ev`,
        topics: ['ORDER'],
      }),
    });
    expect(sub.status).toBe(201);
    const cart = await call('POST', '/api/v1/carts', { body: envelope('cart', { name: 'traced order' }) });
    await call('POST', `/api/v1/carts/${cart.body.data.id}/requests`, {
      body: envelope('request', {
        name: 'campaign',
        type: 'ADD_CAMPAIGN_NUMBERS',
        data: { numbers: ['+13125550101'], tcr_campaign_id: 'CDEMO01' },
      }),
    });
    const checkoutTrace = hex(32, '28');
    const checkout = await call('POST', `/api/v1/carts/${cart.body.data.id}/checkout`, {
      headers: { traceparent: parentOf(checkoutTrace, hex(16, '39')) },
    });
    expect(checkout.status).toBe(200);
    const advanceTrace = hex(32, '4a');
    const advanced = await call('POST', '/__sim/clock/advance', {
      key: null,
      headers: { traceparent: parentOf(advanceTrace, hex(16, '5b')) },
      body: { by: 'PT10M' },
    });
    expect(advanced.status).toBe(200);
    const checkoutSpan = await spanWhere(otlp, 'the checkout', (s) => s.traceId === checkoutTrace && s.kind === SERVER);
    const advanceSpan = await spanWhere(otlp, 'the advance', (s) => s.traceId === advanceTrace && s.kind === SERVER);
    const linksTo = (s: ReceivedSpan, span: ReceivedSpan) => s.links.some((l) => l.spanId === span.spanId);
    // the order's steps, run by the advance: each linked to the checkout and to the advance
    const step = await spanWhere(
      otlp,
      'a step of the order',
      (s) => s.name.startsWith('step order') && linksTo(s, checkoutSpan),
    );
    expect(linksTo(step, advanceSpan)).toBe(true);
    expect(step.attributes['dipswitch.clock.at']).toMatch(/^\d{4}-\d\d-\d\dT/);
    // every attempt of the event the advance fired: a span of its own, linked to the checkout
    const log = (await call('GET', '/__sim/deliveries?kind=event')).body.deliveries as {
      id: string;
      trace_id: string;
      body: string;
      attempts: { trace_id: string }[];
    }[];
    const updated = log.find((d) => JSON.parse(d.body).data.kind === 'order.updated')!;
    expect(updated.trace_id, 'the event is the checkout trace').toBe(checkoutTrace);
    expect(updated.attempts.length, 'the first attempt and its retries within 10 min').toBeGreaterThanOrEqual(2);
    await eventually(
      () =>
        otlp.spans.filter((s) => s.attributes['dipswitch.delivery.id'] === updated.id).length ===
        updated.attempts.length,
      'a span for each attempt',
    );
    const attempts = otlp.spans.filter((s) => s.attributes['dipswitch.delivery.id'] === updated.id);
    expect(new Set(attempts.map((a) => a.spanId)).size).toBe(attempts.length);
    for (const a of attempts) {
      expect(linksTo(a, checkoutSpan), 'tied to the checkout').toBe(true);
      expect(a.status, 'a refused attempt failed').toBe(2);
    }
    expect(attempts.map((a) => a.attributes['dipswitch.delivery.attempt']).sort()).toEqual(
      updated.attempts.map((_, i) => i + 1),
    );
  });
});

describe('SMPP traced', () => {
  it("each PDU a span of its session: the bind, a submit_sm, and the receipt's deliver_sm linked to its attempt", async () => {
    const otlp = await startOtlpReceiver();
    const readyFile = join(mkdtempSync(join(tmpdir(), 'dipswitch-trace-')), 'ready.json');
    const sim = await startCli(
      ['--memory', '--port', '0', '--smpp-port', '0', '--clock', 'frozen', '--ready-file', readyFile],
      {
        env: { OTEL_EXPORTER_OTLP_ENDPOINT: otlp.url, OTEL_BSP_SCHEDULE_DELAY: '50' },
      },
    );
    try {
      await eventually(() => existsSync(readyFile), 'the ready file');
      const { smpp_port: port } = JSON.parse(readFileSync(readyFile, 'utf8')) as { smpp_port: number };
      const key = (await callAt(sim.base, 'POST', '/api/v1/api_keys', { body: envelope('api_key', { name: 'esme' }) }))
        .body.data;
      const c = await client(port);
      expect(await c.bind('transceiver', key.smpp_system_id, key.smpp_secert)).toBe(0);
      const accepted = await c.call('submit_sm', {
        source_addr: '13125550100',
        destination_addr: '14155550123',
        registered_delivery: 1,
        short_message: 'traced',
      });
      expect(accepted.command_status).toBe(0);
      await callAt(sim.base, 'POST', '/__sim/clock/advance', { key: null, body: { by: 'PT10S' } });
      await eventually(() => c.received.length > 0, 'the receipt');
      c.close();
      const session = await spanWhere(otlp, 'the session', (s) => s.name === 'SMPP session');
      expect(session.kind).toBe(SERVER);
      expect(session.attributes).toMatchObject({
        'dipswitch.smpp.system_id': key.smpp_system_id,
        'dipswitch.smpp.bind': 'transceiver',
      });
      const ofSession = (name: string) => (s: ReceivedSpan) => s.name === name && s.parentSpanId === session.spanId;
      const bind = await spanWhere(otlp, 'the bind', ofSession('SMPP bind_transceiver'));
      expect(bind.attributes['dipswitch.smpp.command_status']).toBe(0);
      await spanWhere(otlp, 'the submit_sm', ofSession('SMPP submit_sm'));
      const receipt = await spanWhere(otlp, "the receipt's deliver_sm", ofSession('SMPP deliver_sm'));
      expect(receipt.kind).toBe(CLIENT);
      expect(receipt.attributes['dipswitch.smpp.esm_class']).toBe(4);
      const attempt = otlp.spans.find(
        (s) => s.name === 'deliver dlr' && receipt.links.some((l) => l.spanId === s.spanId),
      );
      expect(attempt, "the receipt's attempt, linked").toBeDefined();
      expect(attempt!.attributes['dipswitch.delivery.transport']).toBe('smpp');
    } finally {
      await sim.stop();
      await otlp.close();
    }
  });
});

describe('no traces unless asked', () => {
  it('exports nothing with the sampler off, or with no OTEL_ variable set, and journals no trace_id', async () => {
    const otlp = await startOtlpReceiver();
    const off = await startTraced(otlp, { OTEL_TRACES_SAMPLER: 'always_off' });
    const unset = await startCli(ARGS, { env: { OTEL_BSP_SCHEDULE_DELAY: '50' } });
    try {
      for (const sim of [off, unset]) {
        expect((await callAt(sim.base, 'GET', '/api/v1/numbers')).status).toBe(200);
        expect(
          (
            await callAt(sim.base, 'GET', '/api/v1/numbers', {
              headers: { traceparent: parentOf(hex(32, '6c'), hex(16, '7d')) },
            })
          ).status,
        ).toBe(200);
      }
      const [entry] = (await callAt(unset.base, 'GET', '/__sim/requests?limit=1')).body.requests;
      expect(entry.trace_id, 'nothing traced: no trace in the journal').toBeUndefined();
      await new Promise((r) => setTimeout(r, 500));
      expect(otlp.spans).toEqual([]);
    } finally {
      await off.stop();
      await unset.stop();
      await otlp.close();
    }
  });

  it('a protocol or exporter it cannot honour fails the start with one line', () => {
    for (const [env, said] of [
      [{ OTEL_TRACES_EXPORTER: 'otlp', OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc' }, 'OTLP protocol grpc'],
      [{ OTEL_TRACES_EXPORTER: 'zipkin' }, 'OTEL_TRACES_EXPORTER=zipkin'],
    ] as const) {
      const ran = runCli(ARGS, { env });
      expect(ran.status).toBe(2);
      expect(ran.stderr.trim().split('\n')).toEqual([expect.stringContaining(said)]);
    }
  });
});
