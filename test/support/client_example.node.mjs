// The client test of test/project/client_example.test.ts with node:test, as a team on Node's own runner writes it.
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { after, before, test } from 'node:test';
import { startDipswitch } from 'dipswitch';

let sim;
let webhook;
let webhookUrl;
before(async () => {
  sim = await startDipswitch();
  webhook = createServer((req, res) => req.resume().on('end', () => res.end())).listen(0, '127.0.0.1');
  await new Promise((r) => webhook.once('listening', r));
  webhookUrl = `http://127.0.0.1:${webhook.address().port}/sms`;
});
after(async () => {
  webhook.close();
  await sim.close();
});

test('my client routes an SMS to its webhook and survives a 503', async () => {
  const box = await sim.sandbox('sms suite');
  const api = async (method, path, body) => {
    const res = await fetch(`${sim.url}/api/v1${path}`, {
      method,
      headers: { authorization: `Bearer ${box.keys.admin}`, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: res.status, body: await res.json() };
  };
  const sw = await api('POST', '/switches', {
    type: 'switch',
    data: { name: 'sms', sms_enabled: true, sms_protocol: 'HTTP', sms_data: webhookUrl },
  });
  await api('PATCH', `/numbers/${box.numbers[0]}`, { type: 'did', data: { switch_id: sw.body.data.id } });
  const fault = await box.faults.add({ match: { operation_id: 'listNumbers' }, effect: { status: 503 }, times: 1 });
  assert.equal((await api('GET', '/numbers')).status, 503);
  assert.equal((await api('GET', '/numbers')).status, 200);
  assert.equal((await box.faults.list()).faults.find((r) => r.id === fault.id)?.fired, 1);
  await box.inbound.sms({ to: box.numbers[0], from: '+14155550123', text: 'hello' });
  const delivery = await box.deliveries.waitFor({
    kind: 'sms',
    outcome: 'delivered',
    body: { data: { text: 'hello' } },
  });
  assert.equal(delivery.target, webhookUrl);
  await box.requests.verify({ match: { operation_id: 'listNumbers' }, count: { exactly: 2 } });
});

test('a verify that fails says which call came nearest', async () => {
  const box = await sim.sandbox('near misses');
  await fetch(`${sim.url}/api/v1/carts`, {
    method: 'POST',
    headers: { authorization: `Bearer ${box.keys.admin}`, 'content-type': 'application/json' },
    body: JSON.stringify({ type: 'cart', data: { name: 'launch' } }),
  });
  await assert.rejects(
    box.requests.verify({
      match: { method: 'POST', path: '/api/v1/carts', body: { data: { name: 'lunch' } } },
      count: { exactly: 1 },
    }),
    (e) => e.name === 'AssertionError' && e.message.includes('/body/data/name: expected "lunch", got "launch"'),
  );
});
