/** A cart of new numbers, checked out, processed to a completed order, with events along the way. */
import { scenario } from '../src/testing/scenario.js';

export default scenario(
  'cart-to-order',
  'A cart of new numbers becomes a completed order, announced by events',
  async (s) => {
    const hooks = await s.receiver();
    const sub = await s.api('POST', '/api/v1/event_subscriptions', {
      body: {
        type: 'event_subscription',
        data: {
          name: 'scenario events',
          protocol: 'HTTP',
          data: `${hooks.url}/events`,
          topics: ['ORDER', 'REQUEST', 'DID'],
        },
      },
    });
    s.expect(sub.status === 201, 'the client subscribes to ORDER, REQUEST and DID events');
    const now = (await s.api('GET', '/__sim/clock', { key: null })).body.now as string;
    const cart = await s.api('POST', '/api/v1/carts', {
      body: { type: 'cart', data: { name: `scenario cart ${now}` } },
    });
    const cartId = cart.body.data.id as string;
    const request = await s.api('POST', `/api/v1/carts/${cartId}/requests`, {
      body: {
        type: 'request',
        data: {
          name: 'two Chicago numbers',
          type: 'NEW_NUMBERS',
          data: { npa: '773', state: 'IL', rate_center: 'CHICAGO', number_type: 'TENDLC', quantity: '2' },
        },
      },
    });
    s.expect(request.status === 201, 'a NEW_NUMBERS request is added');
    const order = await s.api('POST', `/api/v1/carts/${cartId}/checkout`);
    s.expect(
      order.status === 200 && order.body.data.status === 'NEW' && order.body.data.id === cartId,
      'checkout answers the order at once, status NEW, same id',
    );
    await s.advance('PT5S');
    s.expect(
      (await s.api('GET', `/api/v1/orders/${cartId}`)).body.data.status === 'PROCESSING',
      'the order is PROCESSING',
    );
    await s.advance('PT1M');
    s.expect(
      (await s.api('GET', `/api/v1/orders/${cartId}`)).body.data.status === 'COMPLETED',
      'the order is COMPLETED',
    );
    const kinds = hooks.received.map((r) => r.json().data.kind as string);
    s.note(`events: ${kinds.join(', ')}`);
    s.expect(kinds.filter((k) => k === 'did.created').length === 2, 'two did.created events announce the new numbers');
    s.expect(kinds.at(-1) === 'order.completed', 'order.completed comes last');
    const numbers = (await s.api('GET', '/api/v1/numbers?first=100')).body.results.map(
      (r: { data: { number: string } }) => r.data.number,
    );
    s.expect(numbers.filter((n: string) => n.startsWith('+1773')).length >= 2, "the numbers are the account's");
  },
);
