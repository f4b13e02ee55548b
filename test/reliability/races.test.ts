import { describe, expect, it } from 'vitest';
import { envelope, useServer } from '../helpers.js';

describe('races', () => {
  const server = useServer();

  it('100 parallel creates of one cart name give exactly one 201', async () => {
    const answers = await Promise.all(Array.from({ length: 100 }, () => server().call('POST', '/api/v1/carts', { body: envelope('cart', { name: 'contested' }) })));
    expect(answers.filter((a) => a.status === 201)).toHaveLength(1);
    expect(answers.filter((a) => a.status === 422)).toHaveLength(99);
    expect((await server().call('GET', '/api/v1/carts')).body.count).toBe(1);
  });

  it('50 parallel checkouts of one cart give one order', async () => {
    const cart = (await server().call('POST', '/api/v1/carts', { body: envelope('cart', { name: 'checkout race' }) })).body.data;
    await server().call('POST', `/api/v1/carts/${cart.id}/requests`, { body: envelope('request', { type: 'REMOVE_NUMBERS', data: { numbers: ['+13125550109'] } }) });
    const answers = await Promise.all(Array.from({ length: 50 }, () => server().call('POST', `/api/v1/carts/${cart.id}/checkout`)));
    expect(answers.filter((a) => a.status === 200)).toHaveLength(1);
    expect(answers.filter((a) => a.status === 422 && a.body.errors[0].code === 'cart_checked_out')).toHaveLength(49);
    expect((await server().call('GET', '/api/v1/orders')).body.count).toBe(1);
  });

  it('parallel deletes of a secret key and attaches of it never leave a switch pointing at a deleted key', async () => {
    for (let round = 0; round < 10; round++) {
      const key = (await server().call('POST', '/api/v1/secret_keys', { body: envelope('secret_key', { name: `race ${round}`, size: 16, usage: 'ENCRYPTION' }) })).body.data;
      const switches = await Promise.all(Array.from({ length: 5 }, (_, i) => server().call('POST', '/api/v1/switches', { body: envelope('switch', { name: `sw ${round}.${i}` }) })));
      const calls = [
        ...switches.map((s) => server().call('PUT', `/api/v1/switches/${s.body.data.id}/mms_encryption_key/${key.id}`, { body: envelope('switch', {}) })),
        server().call('DELETE', `/api/v1/secret_keys/${key.id}`),
      ];
      if (round % 2) calls.reverse();
      await Promise.all(calls);
      const keyExists = (await server().call('GET', `/api/v1/secret_keys/${key.id}`)).status === 200;
      const pointing = await server().read((w) => w.switches.usingSecretKey(key.id));
      expect(keyExists || pointing.length === 0, `round ${round}`).toBe(true);
    }
  });
});
