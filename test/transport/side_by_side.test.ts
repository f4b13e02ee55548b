/**
 * An account's deliveries side by side (src/engine/lanes.ts): a receiver that holds each request for
 * 2 s delays only its own target's deliveries, which arrive one after the other in their order, while
 * another target of the same account gets its own at once; on a frozen clock the delivery log is the
 * same whatever the receivers' timing.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';
import { afterEach, describe, expect, it } from 'vitest';
import { envelope, useServer } from '../support/helpers.js';
import { eventually } from '../support/eventually.js';

const HOLD_MS = 2_000;

describe('deliveries side by side', () => {
  const server = useServer();
  const receivers: Server[] = [];
  afterEach(async () => {
    for (const r of receivers.splice(0)) await new Promise((done) => r.close(done));
  });

  /** A receiver of its own (`hold`: each request answered HOLD_MS after it arrived), and Demo's `number` routed to it. */
  async function routed(number: string, hold: boolean): Promise<{ arrived: { at: number; text: string }[] }> {
    const arrived: { at: number; text: string }[] = [];
    const receiver = createServer((req, res) => {
      const at = performance.now();
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        arrived.push({
          at,
          text: (JSON.parse(Buffer.concat(chunks).toString('utf8')) as { data: { text: string } }).data.text,
        });
        setTimeout(() => res.writeHead(200, { 'content-type': 'application/json' }).end('{}'), hold ? HOLD_MS : 0);
      });
    });
    await new Promise<void>((done) => receiver.listen(0, '127.0.0.1', done));
    receivers.push(receiver);
    const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/sms`;
    const sw = await server().call('POST', '/api/v1/switches', {
      body: envelope('switch', { name: `to ${number}`, sms_enabled: true, sms_protocol: 'HTTP', sms_data: url }),
    });
    expect(sw.status).toBe(201);
    const patched = await server().call('PATCH', `/api/v1/numbers/${number}`, {
      body: envelope('did', { switch_id: sw.body.data.id }),
    });
    expect(patched.status).toBe(200);
    return { arrived };
  }

  const sms = (to: string, text: string) =>
    server().call('POST', '/__sim/inbound/sms', { key: null, body: { to, from: '+14155550123', text } });

  it('a receiver holding each request for 2 s delays no other target; its own arrive in order, 2 s apart', async () => {
    const slow = await routed('+13125550100', true);
    const fast = await routed('+13125550101', false);
    const slowCalls = ['one', 'two', 'three', 'four'].map((text) => sms('+13125550100', text));
    await eventually(() => slow.arrived.length >= 1, 'the first held request');
    const fastCall = await sms('+13125550101', 'not held up');
    expect(fastCall.status).toBe(200);
    await eventually(() => fast.arrived.length === 1, 'the other target');
    // it arrives while the slow target's first request is still held
    const fastAt = fast.arrived[0]!.at - slow.arrived[0]!.at;
    expect(fastAt, 'the other target is not held behind the slow one').toBeLessThan(HOLD_MS);
    await Promise.all(slowCalls);
    await eventually(() => slow.arrived.length === 4, 'the four held requests', 30_000);
    const gaps = slow.arrived.slice(1).map((a, i) => a.at - slow.arrived[i]!.at);
    for (const gap of gaps)
      expect(gap, "the same target's attempts one after the other").toBeGreaterThanOrEqual(HOLD_MS - 50);
    expect(new Set(slow.arrived.map((a) => a.text))).toEqual(new Set(['one', 'two', 'three', 'four']));
    // the last held answer comes 2 s after it arrived
    await eventually(async () => {
      const log = (await server().call('GET', '/__sim/deliveries?kind=sms', { key: null })).body.deliveries;
      return log.length === 5 && log.every((d: { outcome: string }) => d.outcome === 'delivered');
    }, 'all five delivered');
  }, 60_000);

  it('an advance keeps the order of time: each retry at its time however slow the receiver', async () => {
    // events to a receiver that refuses each after a while; an overwrite request expiring a week on is
    // a step after the retries' times, which the advance reaches while the first attempts are under way
    const receiver = createServer((req, res) => {
      req.resume();
      setTimeout(() => res.writeHead(503).end(), 300);
    });
    await new Promise<void>((done) => receiver.listen(0, '127.0.0.1', done));
    receivers.push(receiver);
    const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/events`;
    const sub = await server().call('POST', '/api/v1/event_subscriptions', {
      body: envelope('event_subscription', { name: 'events', protocol: 'HTTP', data: url, topics: ['ORDER'] }),
    });
    expect(sub.status).toBe(201);
    const cart = await server().call('POST', '/api/v1/carts', { body: envelope('cart', { name: 'slow events' }) });
    await server().call('POST', `/api/v1/carts/${cart.body.data.id}/requests`, {
      body: envelope('request', {
        name: 'campaign',
        type: 'ADD_CAMPAIGN_NUMBERS',
        data: { numbers: ['+13125550100'], tcr_campaign_id: 'CDEMO01' },
      }),
    });
    expect((await server().call('POST', `/api/v1/carts/${cart.body.data.id}/checkout`)).status).toBe(200);
    const osr = await server().call('POST', '/__sim/osr/overwrite_requests', {
      key: null,
      body: { number: '+13125550104' },
    });
    expect(osr.status).toBe(201);
    const advanced = await server().call('POST', '/__sim/clock/advance', { key: null, body: { by: 'P8D' } });
    expect(advanced.status).toBe(200);
    const log = (await server().call('GET', '/__sim/deliveries?kind=event', { key: null })).body.deliveries;
    const kinds = log.map((d: { body: string }) => JSON.parse(d.body).data.kind);
    expect(kinds).toEqual(expect.arrayContaining(['order.created', 'order.updated', 'order.completed']));
    for (const d of log as { attempts: { at: string }[]; outcome: string }[]) {
      expect(d.outcome).toBe('failed');
      const gaps = d.attempts.slice(1).map((a, i) => (Date.parse(a.at) - Date.parse(d.attempts[i]!.at)) / 1000);
      expect(gaps, 'each retry at its time after the one before').toEqual([60, 300, 1800, 7200, 21600]);
    }
  }, 60_000);
});
