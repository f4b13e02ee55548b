/** Verify with near misses: calls and deliveries counted against a pattern, the closest misses field by field. */
import { describe, expect, it } from 'vitest';
import { envelope, useReceiver, useServer } from '../support/helpers.js';

describe('verify', () => {
  const server = useServer();
  const receiver = useReceiver();
  const verify = (body: unknown, key: string | null = null) =>
    server().call('POST', '/__sim/requests/verify', { key, body });

  it('counts the calls that match, and holds the count asked for', async () => {
    await server().call('POST', '/api/v1/carts', { body: envelope('cart', { name: 'launch' }) });
    await server().call('GET', '/api/v1/numbers?first=1', { headers: { 'x-request-id': 'r1' } });
    const made = await verify({ match: { method: 'POST', path: '/api/v1/carts', body: { data: { name: 'launch' } } } });
    expect(made.status).toBe(200);
    expect(made.body.count).toBe(1);
    expect(
      (
        await verify({
          match: { operation_id: 'listNumbers', query: { first: '1' }, headers: ['X-Request-Id'] },
          count: { exactly: 1 },
        })
      ).status,
    ).toBe(200);
    expect((await verify({ match: { path: '/api/v1/carts/{id}' }, count: { exactly: 0 } })).status).toBe(200);
  });

  it('a count that does not hold is a 422 naming the nearest calls and each field that differs', async () => {
    await server().call('POST', '/api/v1/carts', { body: envelope('cart', { name: 'launch' }) });
    await server().call('GET', '/api/v1/carts');
    const missed = await verify({
      match: { method: 'POST', path: '/api/v1/carts', body: { data: { name: 'lunch' } } },
      count: { exactly: 1 },
    });
    expect(missed.status).toBe(422);
    expect(missed.body.errors[0]).toMatchObject({ code: 'verification_failed' });
    expect(missed.body.errors[0].detail).toBe('Expected exactly 1 matching calls, found 0.');
    const [nearest, next] = missed.body.near_misses;
    expect(nearest.summary).toMatch(/^POST \/api\/v1\/carts → 201/);
    expect(nearest.differences).toEqual([{ field: '/body/data/name', expected: 'lunch', actual: 'launch' }]);
    expect(next.differences.map((d: { field: string }) => d.field)).toContain('method');
  });

  it('near misses: the closest first (same operation, then same path), the rest counted as left out', async () => {
    const box = (await server().call('POST', '/__sim/accounts', { key: null, body: {} })).body;
    const key = box.keys.admin;
    await server().call('POST', '/api/v1/carts', { key, body: envelope('cart', { name: 'launch' }) });
    for (let i = 0; i < 6; i++) await server().call('GET', '/api/v1/numbers', { key });
    const missed = await verify(
      { match: { operation_id: 'createCart', body: { data: { name: 'lunch' } } }, count: { exactly: 1 } },
      key,
    );
    expect(missed.status).toBe(422);
    expect(missed.body.near_misses.map((m: { summary: string }) => m.summary.split(' (')[0])).toEqual([
      'POST /api/v1/carts → 201',
    ]);
    expect(missed.body.near_misses_left_out).toBe(6);
    // with no call of the operation, the nearest of the rest, the others counted
    const none = await verify({ match: { operation_id: 'listCarts' }, count: { exactly: 1 } }, key);
    expect(none.body.near_misses).toHaveLength(5);
    expect(none.body.near_misses_left_out).toBe(2);
  });

  it('a delivery verify that finds nothing says why the journal knows nothing was sent', async () => {
    const box = (await server().call('POST', '/__sim/accounts', { key: null, body: {} })).body;
    const key = box.keys.admin;
    const to = box.numbers[0];
    const sms = await server().call('POST', '/__sim/inbound/sms', {
      key,
      body: { to, from: '+14155550123', text: 'hi' },
    });
    expect(sms.status).toBe(200);
    const missed = await server().call('POST', '/__sim/deliveries/verify', { key, body: { match: { kind: 'sms' } } });
    expect(missed.status).toBe(422);
    expect(missed.body.errors[0].detail).toBe('Expected at least 1 matching deliveries, found 0.');
    expect(missed.body.notes).toEqual([
      expect.stringMatching(
        new RegExp(`^The inbound SMS to \\${to} at .+ was not sent on: the number has no switch\\.$`),
      ),
    ]);
    // an event verify is not told of messages
    const events = await server().call('POST', '/__sim/deliveries/verify', { key, body: { match: { kind: 'event' } } });
    expect(events.body.notes ?? []).toEqual([]);
  });

  it('with a sandbox key, counts that sandbox calls alone', async () => {
    const box = (await server().call('POST', '/__sim/accounts', { key: null, body: {} })).body;
    await server().call('GET', '/api/v1/carts');
    await server().call('GET', '/api/v1/carts', { key: box.keys.admin });
    expect((await verify({ match: { operation_id: 'listCarts' }, count: { exactly: 1 } }, box.keys.admin)).status).toBe(
      200,
    );
    expect((await verify({ match: { operation_id: 'listCarts' }, count: { exactly: 2 } })).status).toBe(200);
  });

  it('deliveries: kind, target, a body subset and the outcome, with near misses', async () => {
    await server().call('POST', '/api/v1/event_subscriptions', {
      body: envelope('event_subscription', {
        name: 'e',
        protocol: 'HTTP',
        data: `${receiver().url}/events`,
        topics: ['DID'],
      }),
    });
    await server().call('PATCH', '/api/v1/numbers/+13125550100', { body: envelope('did', { description: 'x' }) });
    await server().settle();
    const ok = await server().call('POST', '/__sim/deliveries/verify', {
      key: null,
      body: {
        match: { kind: 'event', target: receiver().url, body: { data: { kind: 'did.updated' } }, outcome: 'delivered' },
      },
    });
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    const missed = await server().call('POST', '/__sim/deliveries/verify', {
      key: null,
      body: { match: { kind: 'event', body: { data: { kind: 'did.deleted' } } } },
    });
    expect(missed.status).toBe(422);
    expect(missed.body.near_misses[0].differences).toEqual([
      { field: '/body/data/kind', expected: 'did.deleted', actual: 'did.updated' },
    ]);
  });

  it('a typo in the pattern is refused with the nearest name, never counted as "no such call"', async () => {
    // the failing case this guards: "at most 0 calls of listNumbrs" passed, since no call is ever listNumbrs
    const typo = await verify({ match: { operation_id: 'listNumbrs' }, count: { at_most: 0 } });
    expect(typo.status).toBe(422);
    expect(typo.body.errors[0]).toMatchObject({
      code: 'invalid_parameter',
      source: { pointer: '/match/operation_id' },
      detail: expect.stringMatching(/^No operation of \/api\/v1 is called listNumbrs\. Did you mean `listNumbers`/),
    });
    const path = await verify({ match: { path: '/api/v1/numbrs' }, count: { exactly: 0 } });
    expect(path.status).toBe(422);
    expect(path.body.errors[0].detail).toContain('`/api/v1/numbers`');
    const method = await verify({ match: { operation_id: 'listNumbers', method: 'POST' }, count: { exactly: 0 } });
    expect(method.body.errors[0]).toMatchObject({ source: { pointer: '/match/method' } });
    const account = await verify({ match: { account_id: 'nobody' }, count: { exactly: 0 } });
    expect(account.body.errors[0]).toMatchObject({ source: { pointer: '/match/account_id' } });
    const kind = await server().call('POST', '/__sim/deliveries/verify', {
      key: null,
      body: { match: { kind: 'evnt' }, count: { exactly: 0 } },
    });
    expect(kind.status).toBe(422);
    expect(kind.body.errors[0].detail).toContain('Did you mean `event`?');
    const outcome = await server().call('POST', '/__sim/deliveries/verify', {
      key: null,
      body: { match: { outcome: 'delivred' }, count: { exactly: 0 } },
    });
    expect(outcome.body.errors[0].detail).toContain('`delivered`');
  });

  it('an empty pattern is refused; matching everything is said with any: true', async () => {
    const empty = await verify({ match: {}, count: { at_most: 0 } });
    expect(empty.status).toBe(422);
    expect(empty.body.errors[0]).toMatchObject({ source: { pointer: '/match' } });
    expect(empty.body.errors[0].detail).toContain('"any": true');
    const deliveries = await server().call('POST', '/__sim/deliveries/verify', {
      key: null,
      body: { match: {}, count: { at_most: 0 } },
    });
    expect(deliveries.status).toBe(422);
    await server().call('GET', '/api/v1/carts');
    expect((await verify({ match: { any: true }, count: { exactly: 1 } })).body.count).toBe(1);
    const mixed = await verify({ match: { any: true, method: 'GET' } });
    expect(mixed.body.errors[0]).toMatchObject({ source: { pointer: '/match/any' } });
  });
});
