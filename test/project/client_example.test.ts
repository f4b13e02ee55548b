// A client team's test, written with the typed control client alone (docs/library.md shows it).
import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startDipswitch, type Dipswitch } from 'dipswitch';

let sim: Dipswitch;
let webhook: Server;
let webhookUrl: string;
beforeAll(async () => {
  sim = await startDipswitch();
  // the client's own SMS webhook: it answers 200 to whatever comes
  webhook = createServer((req, res) => req.resume().on('end', () => res.end())).listen(0, '127.0.0.1');
  await new Promise((r) => webhook.once('listening', r));
  webhookUrl = `http://127.0.0.1:${(webhook.address() as { port: number }).port}/sms`;
});
afterAll(async () => {
  webhook.close();
  await sim.close();
});

it('my client routes an SMS to its webhook and survives a 503', async () => {
  const box = await sim.sandbox('sms suite');
  const api = async (method: string, path: string, body?: unknown) => {
    const res = await fetch(`${sim.url}/api/v1${path}`, {
      method,
      headers: { authorization: `Bearer ${box.keys.admin}`, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: res.status, body: await res.json() };
  };
  // what the client's own code does: a switch to its webhook, a number routed to it
  const sw = await api('POST', '/switches', {
    type: 'switch',
    data: { name: 'sms', sms_enabled: true, sms_protocol: 'HTTP', sms_data: webhookUrl },
  });
  await api('PATCH', `/numbers/${box.numbers[0]}`, { type: 'did', data: { switch_id: sw.body.data.id } });

  // the provider fails once; the client's retry then succeeds
  const fault = await box.faults.add({ match: { operation_id: 'listNumbers' }, effect: { status: 503 }, times: 1 });
  expect((await api('GET', '/numbers')).status).toBe(503);
  expect((await api('GET', '/numbers')).status).toBe(200);
  expect((await box.faults.list()).faults.find((r) => r.id === fault.id)?.fired).toBe(1);

  // a handset sends an SMS; it reaches the webhook
  await box.inbound.sms({ to: box.numbers[0]!, from: '+14155550123', text: 'hello' });
  const delivery = await box.deliveries.waitFor({
    kind: 'sms',
    outcome: 'delivered',
    body: { data: { text: 'hello' } },
  });
  expect(delivery.target).toBe(webhookUrl);

  await box.requests.verify({ match: { operation_id: 'listNumbers' }, count: { exactly: 2 } });
  await box.deliveries.verify({ match: { kind: 'sms', outcome: 'delivered' }, count: { exactly: 1 } });
});

it('a verify that fails says which call came nearest, field by field', async () => {
  const box = await sim.sandbox('near misses');
  await fetch(`${sim.url}/api/v1/carts`, {
    method: 'POST',
    headers: { authorization: `Bearer ${box.keys.admin}`, 'content-type': 'application/json' },
    body: JSON.stringify({ type: 'cart', data: { name: 'launch' } }),
  });
  const failed = await box.requests
    .verify({
      match: { method: 'POST', path: '/api/v1/carts', body: { data: { name: 'lunch' } } },
      count: { exactly: 1 },
    })
    .then(
      () => null,
      (e: Error & { expected?: unknown; actual?: unknown }) => e,
    );
  expect(failed?.name).toBe('AssertionError');
  expect(failed?.message).toContain('Expected exactly 1 matching calls, found 0.');
  expect(failed?.message).toContain('near miss: POST /api/v1/carts → 201');
  expect(failed?.message).toContain('/body/data/name: expected "lunch", got "launch"');
  // vitest and node:test show these two as a diff
  expect(failed?.expected).toEqual({ '/body/data/name': 'lunch' });
  expect(failed?.actual).toEqual({ '/body/data/name': 'launch' });
});
