// The library example of docs/library.md, verbatim (test/project/docs.test.ts checks that they match).
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startDipswitch, type Dipswitch } from 'dipswitch';

let sim: Dipswitch;
beforeAll(async () => {
  sim = await startDipswitch({ startTime: '2026-03-01T12:00:00Z' });
});
afterAll(() => sim.close());

it('my client sees its order complete', async () => {
  const box = await sim.sandbox('orders suite');
  const call = (method: string, path: string, body?: unknown) =>
    fetch(`${sim.url}/api/v1${path}`, {
      method,
      headers: { authorization: `Bearer ${box.keys.admin}`, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    }).then((r) => r.json());

  const cart = await call('POST', '/carts', { type: 'cart', data: { name: 'launch numbers' } });
  await call('POST', `/carts/${cart.data.id}/requests`, {
    type: 'request',
    data: { type: 'NEW_NUMBERS', data: { npa: '312', state: 'IL', number_type: 'TENDLC', quantity: '2' } },
  });
  const order = await call('POST', `/carts/${cart.data.id}/checkout`);
  expect(order.data.status).toBe('NEW');

  await box.clock.advance({ by: 'PT10M' });
  expect((await call('GET', `/orders/${cart.data.id}`)).data.status).toBe('COMPLETED');
  expect((await call('GET', '/numbers')).count).toBe(12);
});
