/**
 * A hosted dipswitch (two processes over one PostgreSQL database) delivering to a receiver on this
 * machine through `dipswitch listen` (the built command), connected to one instance while the other
 * makes the attempts: the receiver verifies each signature; the listener killed and started again
 * (on the other instance) loses and doubles nothing, every attempt in the delivery log; another
 * account's listener sees none of it; a revoked key's listener is closed and exits.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { startReceiver } from '../../src/testing/receiver.js';
import { startCli, type Running } from '../support/cli_process.js';
import { callAt, envelope, START } from '../support/helpers.js';
import { usePostgres } from '../support/pg.js';
import { eventually } from '../support/eventually.js';
import { events } from '../support/sse.js';
import { listenedSwitch, signedAs } from '../support/listened.js';
import { startOtlpReceiver } from '../support/otlp_receiver.js';

type Process = Running & { base: string };
const started: Process[] = [];
afterAll(() => Promise.all(started.map((s) => s.stop())));

async function instance(url: string, seed: number, env: Record<string, string> = {}): Promise<Process> {
  const args = ['--store', url, '--port', '0', '--clock', 'frozen', '--start-time', START.toISOString()];
  const made = await startCli([...args, '--seed', String(seed)], { env });
  started.push(made);
  return made;
}

/** `dipswitch listen` against `base`, ready once it printed that it listens. */
async function listener(base: string, key: string, forwardTo: string, extra: string[] = []): Promise<Process> {
  const args = ['listen', '--url', base, '--key', key, '--forward-to', forwardTo, ...extra];
  const made = await startCli(args, { ready: /listening as (\S+)/ });
  started.push(made);
  return made;
}

/** Routes Demo's first number to the listener `laptop`, signed with HMAC_SHA256. */
async function route(base: string): Promise<void> {
  const sw = await callAt(base, 'POST', '/api/v1/switches', {
    body: envelope('switch', listenedSwitch()),
  });
  expect(sw.status).toBe(201);
  const routed = await callAt(base, 'PATCH', '/api/v1/numbers/+13125550100', {
    body: envelope('did', { switch_id: sw.body.data.id }),
  });
  expect(routed.status).toBe(200);
}

/** Waits until `base` knows of `n` listeners of Demo (its own, or told by the other instance over the peers channel). */
const heard = (base: string, n: number) =>
  eventually(
    async () => (await callAt(base, 'GET', '/__sim/listeners')).body.count === n,
    `${base} to know of ${n} listeners`,
  );

describe('dipswitch listen against two instances over one PostgreSQL database', () => {
  const pg = usePostgres();

  it('a delivery made by one instance reaches the listener of the other; killed and back, nothing lost or doubled', async () => {
    const url = await pg().database();
    const a = await instance(url, 7);
    const b = await instance(url, 8);
    const receiver = await startReceiver();
    try {
      await route(a.base);
      const sms = (base: string, text: string) =>
        callAt(base, 'POST', '/__sim/inbound/sms', {
          key: null,
          body: { to: '+13125550100', from: '+14155550123', text },
        });

      // another account's listener, with every delivery of its account, on the instance that makes them
      const box = (await callAt(a.base, 'POST', '/__sim/accounts', { key: null, body: { name: 'other team' } })).body;
      const theirs = await listener(b.base, box.keys.admin, receiver.url, ['--all']);

      let ours = await listener(a.base, 'demo-admin-key', receiver.url, ['--name', 'laptop']);
      await heard(b.base, 1);
      const [shown] = (await callAt(b.base, 'GET', '/__sim/listeners')).body.listeners;
      expect(shown).toMatchObject({ name: 'laptop', all: false, here: false });
      expect((await sms(b.base, 'one')).status).toBe(200);
      await eventually(() => ours.out().includes(' 200 '), 'the listener to print the delivery');
      expect(ours.out()).toMatch(
        /^\S+Z {2}sms {4}https:\/\/laptop\.listen\.invalid\/sms -> http:\/\/127\.0\.0\.1:\d+\/sms {2}200 {2}\d+ ms$/m,
      );

      ours.child.kill('SIGKILL');
      await new Promise((r) => ours.child.once('exit', r));
      await heard(b.base, 0);
      for (const text of ['two', 'three', 'four']) expect((await sms(b.base, text)).status).toBe(200);
      const log = async () =>
        (await callAt(a.base, 'GET', '/__sim/deliveries?kind=sms', { key: null })).body.deliveries as any[];
      expect((await log()).map((d) => d.outcome).sort()).toEqual(['delivered', 'retrying', 'retrying', 'retrying']);

      ours = await listener(b.base, 'demo-admin-key', receiver.url, ['--name', 'laptop']);
      await heard(a.base, 1);
      // the retries are made by the other instance, and reach the listener here
      expect((await callAt(a.base, 'POST', '/__sim/clock/advance', { body: { by: 'PT1M' } })).status).toBe(200);
      await eventually(async () => (await log()).every((d) => d.outcome === 'delivered'), 'every delivery delivered');

      const texts = receiver.received.map((r) => r.json().data.text as string);
      expect(texts.sort()).toEqual(['four', 'one', 'three', 'two']);
      for (const got of receiver.received) {
        expect(got.headers.authorization).toBe(signedAs(got.body));
        expect(got.path).toBe('/sms');
      }
      for (const d of await log()) {
        const first = JSON.parse(d.body).data.text === 'one';
        expect(d.attempts.map((t: any) => t.error ?? t.status)).toEqual(
          first ? [200] : ['no listener named laptop is connected', 200],
        );
      }
      expect(theirs.out()).not.toMatch(/ sms /);
    } finally {
      await receiver.close();
    }
  }, 120_000);

  it("traced, the attempt's traceparent reaches the receiver through the other instance's listener", async () => {
    const otlp = await startOtlpReceiver();
    const url = await pg().database();
    const traced = { OTEL_EXPORTER_OTLP_ENDPOINT: otlp.url, OTEL_BSP_SCHEDULE_DELAY: '50' };
    const a = await instance(url, 17, traced);
    const b = await instance(url, 18, traced);
    const receiver = await startReceiver();
    try {
      await route(a.base);
      await listener(a.base, 'demo-admin-key', receiver.url, ['--name', 'laptop']);
      await heard(b.base, 1);
      const trace = '4bf92f3577b34da6a3ce929d0e0e4736';
      const injected = await callAt(b.base, 'POST', '/__sim/inbound/sms', {
        key: null,
        headers: { traceparent: `00-${trace}-00f067aa0ba902b7-01` },
        body: { to: '+13125550100', from: '+14155550123', text: 'traced' },
      });
      expect(injected.status).toBe(200);
      await eventually(() => receiver.received.length === 1, 'the delivery through the listener');
      const sent = String(receiver.received[0]?.headers.traceparent);
      expect(sent).toMatch(new RegExp(`^00-${trace}-[0-9a-f]{16}-01$`));
      // the span it names is the attempt's, made by the instance that took the inject
      const attempt = await eventually(
        () => otlp.spans.find((s) => s.spanId === sent.split('-')[2]),
        "the attempt's span",
      );
      expect(attempt).toMatchObject({ name: 'deliver sms', traceId: trace });
      expect(attempt.attributes['dipswitch.delivery.transport']).toBe('listener');
    } finally {
      await receiver.close();
      await otlp.close();
    }
  }, 120_000);

  it('an answer posted to the other instance is taken by the attempt waiting for it', async () => {
    const url = await pg().database();
    const a = await instance(url, 7);
    const b = await instance(url, 8);
    await route(a.base);
    const stream = events(
      await fetch(`${a.base}/__sim/listen?name=laptop`, { headers: { authorization: 'Bearer demo-admin-key' } }),
    );
    await stream.next('listening');
    const answered = callAt(a.base, 'POST', '/__sim/inbound/sms', {
      key: null,
      body: { to: '+13125550100', from: '+14155550123', text: 'answered elsewhere' },
    });
    const delivery = await stream.next('delivery');
    const answer = { id: delivery.id, status: 202, headers: { 'content-type': 'text/plain' }, body: 'taken' };
    expect((await callAt(b.base, 'POST', '/__sim/listen/answers', { body: answer })).status).toBe(202);
    expect((await answered).status).toBe(200);
    const log = (await callAt(b.base, 'GET', '/__sim/deliveries?kind=sms', { key: null })).body.deliveries;
    expect(log[0]).toMatchObject({ outcome: 'delivered', attempts: [expect.objectContaining({ status: 202 })] });
    await stream.close();
  }, 60_000);

  it('a route callback answered through a listener on the other instance decides the call, whatever its type', async () => {
    const url = await pg().database();
    const a = await instance(url, 7);
    const b = await instance(url, 8);
    const destination = { type: 'HTTP_ROUTE', destination: 'https://laptop.listen.invalid/route', priority: 1 };
    expect(
      (
        await callAt(a.base, 'POST', '/api/v1/numbers/+13125550106/destinations', {
          body: envelope('number_destination', destination),
        })
      ).status,
    ).toBe(201);
    const receiver = await startReceiver();
    try {
      await listener(a.base, 'demo-admin-key', receiver.url, ['--name', 'laptop']);
      await heard(b.base, 1);
      receiver.replies.push({ contentType: 'text/plain', body: 'PSTN:+13125550199' });
      const call = await callAt(b.base, 'POST', '/__sim/inbound/call', {
        key: null,
        body: { to: '+13125550106', from: '+14155550123' },
      });
      expect(call.status).toBe(200);
      expect(receiver.received[0]).toMatchObject({ method: 'GET', path: '/route' });
      expect(call.body.decision).toMatchObject({ type: 'PSTN', data: '+13125550199', source: 'destination' });
    } finally {
      await receiver.close();
    }
  }, 60_000);

  it('at most 5 listeners of an account over both instances, however many open at once on each', async () => {
    const url = await pg().database();
    const a = await instance(url, 9);
    const b = await instance(url, 10);
    const streams: AbortController[] = [];
    /** Opens a listener's stream on `base`: its status (200: open, kept open until the test ends). */
    const open = async (base: string, name: string) => {
      const stop = new AbortController();
      streams.push(stop);
      const res = await fetch(`${base}/__sim/listen?name=${name}`, {
        headers: { authorization: 'Bearer demo-admin-key' },
        signal: stop.signal,
      });
      if (res.status !== 200) await res.text();
      return res.status;
    };
    try {
      for (let i = 0; i < 4; i++) expect(await open(a.base, `first${i}`)).toBe(200);
      // the fifth and the sixth asked of both instances at once: one is open, the rest refused
      const raced = await Promise.all([open(a.base, 'a1'), open(b.base, 'b1'), open(a.base, 'a2'), open(b.base, 'b2')]);
      expect(raced.filter((s) => s === 200)).toHaveLength(1);
      expect(raced.filter((s) => s === 422)).toHaveLength(3);
    } finally {
      for (const stop of streams) stop.abort();
    }
  }, 60_000);

  it('a key revoked on one instance closes its listener on the other, which exits 1', async () => {
    const url = await pg().database();
    const a = await instance(url, 7);
    const b = await instance(url, 8);
    const made = await callAt(a.base, 'POST', '/api/v1/api_keys', { body: envelope('api_key', { name: 'laptop' }) });
    expect(made.status).toBe(201);
    const ours = await listener(b.base, made.body.data.key, 'http://127.0.0.1:9');
    const exited = new Promise<number | null>((r) => ours.child.once('exit', r));
    expect((await callAt(a.base, 'DELETE', `/api/v1/api_keys/${made.body.data.id}`)).status).toBe(200);
    expect(await exited).toBe(1);
  }, 60_000);
});
