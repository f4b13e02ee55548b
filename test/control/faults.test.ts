import { describe, expect, it } from 'vitest';
import { envelope, PARTNER, startTestServer, useServer, useReceiver } from '../support/helpers.js';
import { eventually } from '../support/eventually.js';
import { connectDipswitch } from '../../src/testing/control_client.js';

describe('inbound faults', () => {
  const server = useServer();
  const fault = (body: unknown) => server().call('POST', '/__sim/faults', { key: null, body });
  /** Resolves once the rule has fired: the call it delays is waiting out its delay. */
  const firing = (rule: { id: string }) =>
    eventually(async () => {
      const listed = (await server().call('GET', '/__sim/faults', { key: null })).body.faults;
      return listed.find((r: { id: string; fired: number }) => r.id === rule.id)?.fired === 1;
    }, 'the rule to fire');

  it('a rule fires exactly `times` times, then the call is served again', async () => {
    const rule = (
      await fault({ match: { method: 'GET', path: '/api/v1/api_keys' }, effect: { status: 503 }, times: 2 })
    ).body;
    expect(rule).toMatchObject({ id: expect.any(String), times: 2, fired: 0 });
    const statuses = [];
    for (let i = 0; i < 4; i++) statuses.push((await server().call('GET', '/api/v1/api_keys')).status);
    expect(statuses).toEqual([503, 503, 200, 200]);
    const listed = (await server().call('GET', '/__sim/faults', { key: null })).body.faults;
    expect(listed[0].fired).toBe(2);
    // one rule by its id, as it is now; another account's or none: not found
    const one = await server().call('GET', `/__sim/faults/${rule.id}`, { key: null });
    expect(one).toMatchObject({ status: 200, body: { id: rule.id, fired: 2, spent: true } });
    expect((await server().call('GET', '/__sim/faults/nope', { key: null })).status).toBe(404);
  });

  it('at most 1,000 rules are kept: one more is a 422 limit_reached, and deleting one makes room', async () => {
    const rule = { match: { operation_id: 'getCart' }, effect: { status: 500 } };
    const made = [];
    for (let i = 0; i < 1_000; i++) made.push((await fault(rule)).status);
    expect(made.every((s) => s === 201)).toBe(true);
    const refused = await fault(rule);
    expect(refused.status).toBe(422);
    expect(refused.body.errors[0].code).toBe('limit_reached');
    const first = (await server().call('GET', '/__sim/faults', { key: null })).body.faults[0];
    expect((await server().call('DELETE', `/__sim/faults/${first.id}`, { key: null })).status).toBe(200);
    expect((await fault(rule)).status).toBe(201);
  });

  it('matches a path template, an operationId or an account; the body may be any code', async () => {
    await fault({
      match: { path: '/api/v1/carts/{id}', method: 'GET' },
      effect: {
        status: 429,
        body: { errors: [{ code: 'rate_limited', detail: 'slow down', title: 'Too many', sub_code: 'none' }] },
      },
    });
    const cart = (await server().call('POST', '/api/v1/carts', { body: envelope('cart', { name: 'c' }) })).body.data;
    const res = await server().call('GET', `/api/v1/carts/${cart.id}`);
    expect(res.status).toBe(429);
    expect(res.body.errors[0].code).toBe('rate_limited');
    await fault({
      match: { operation_id: 'listUsers', account_id: PARTNER },
      effect: { status: 500 },
    });
    expect((await server().call('GET', '/api/v1/users')).status).toBe(200);
    const partner = await server().call('GET', '/api/v1/users', { key: 'partner-admin-key' });
    expect(partner.status).toBe(500);
    expect(partner.body.errors[0].code).toBe('injected_fault');
  });

  it('a malformed body, a dropped connection, a delay', async () => {
    await fault({ match: { operation_id: 'getApiKey' }, effect: { malformed: true }, times: 1 });
    const malformed = await fetch(`${server().base}/api/v1/api_keys/0a0a0a0a-0000-4000-8000-000000000301`, {
      headers: { authorization: 'Bearer demo-admin-key' },
    });
    expect(() => JSON.parse('x')).toThrow();
    await expect(malformed.json()).rejects.toThrow();
    await fault({ match: { operation_id: 'listSecretKeys' }, effect: { drop: true }, times: 1 });
    await expect(
      fetch(`${server().base}/api/v1/secret_keys`, { headers: { authorization: 'Bearer demo-admin-key' } }),
    ).rejects.toThrow();
    await fault({ match: { operation_id: 'listSwitches' }, effect: { delay_ms: 50 }, times: 1 });
    const delayed = await server().call('GET', '/api/v1/switches');
    expect(delayed.status).toBe(200);
    const journal = (await server().call('GET', '/__sim/requests?operation_id=listSwitches', { key: null })).body
      .requests;
    expect(journal[0].latency_ms).toBeGreaterThanOrEqual(50);
  });

  it('a dropped call and a malformed one are journaled as their client met them: verify finds them, coverage counts them', async () => {
    const box = (await server().call('POST', '/__sim/accounts', { key: null, body: {} })).body;
    const key = box.keys.admin as string;
    const call = (path: string) => fetch(`${server().base}${path}`, { headers: { authorization: `Bearer ${key}` } });
    await server().call('POST', '/__sim/faults', {
      key,
      body: { match: { operation_id: 'listSecretKeys' }, effect: { drop: true }, times: 1 },
    });
    // the client retries after the dropped connection, as a client should
    await expect(call('/api/v1/secret_keys')).rejects.toThrow();
    expect((await call('/api/v1/secret_keys')).status).toBe(200);
    await server().call('POST', '/__sim/faults', {
      key,
      body: { match: { operation_id: 'listUsers' }, effect: { malformed: true, status: 502 }, times: 1 },
    });
    expect((await call('/api/v1/users')).status).toBe(502);

    const journal = (await server().call('GET', '/__sim/requests', { key })).body.requests;
    const dropped = journal.filter((e: { operation_id: string }) => e.operation_id === 'listSecretKeys');
    expect(dropped.map((e: { status: number | null }) => e.status)).toEqual([200, null]);
    expect(dropped[1].response.body).toBeNull();
    const malformed = journal.find((e: { operation_id: string }) => e.operation_id === 'listUsers');
    expect(malformed).toMatchObject({ status: 502, response: { body: '{"data": {"id": ' } });

    // through the Node client, as a team's test would
    const verified = await connectDipswitch(server().base, { key }).requests.verify({
      match: { operation_id: 'listSecretKeys' },
      count: { exactly: 2 },
    });
    expect(verified.count).toBe(2);
    const coverage = (await server().call('GET', '/__sim/coverage', { key })).body;
    const listed = coverage.operations.find((o: { operation_id: string }) => o.operation_id === 'listSecretKeys');
    expect(listed.calls, 'the dropped call is a call').toBe(2);
    expect(listed.answers.find((a: { status: number }) => a.status === 200).seen).toBe(1);
  });

  it('a delayed GET answers its record as it is after the delay (a change made meanwhile shows)', async () => {
    const cart = (await server().call('POST', '/api/v1/carts', { body: envelope('cart', { name: 'before' }) })).body
      .data;
    const rule = (await fault({ match: { operation_id: 'getCart' }, effect: { delay_ms: 1500 }, times: 1 })).body;
    const delayed = server().call('GET', `/api/v1/carts/${cart.id}`);
    await firing(rule);
    const renamed = await server().call('PATCH', `/api/v1/carts/${cart.id}`, {
      body: envelope('cart', { name: 'after' }),
    });
    expect(renamed.status).toBe(200);
    expect((await delayed).body.data.name).toBe('after');
  });

  it('a delayed write holds nothing of its account meanwhile, and writes what it finds after the delay', async () => {
    const cart = (await server().call('POST', '/api/v1/carts', { body: envelope('cart', { name: 'first' }) })).body
      .data;
    const rule = (await fault({ match: { operation_id: 'updateCart' }, effect: { delay_ms: 1500 }, times: 1 })).body;
    const answered: string[] = [];
    const delayed = server()
      .call('PATCH', `/api/v1/carts/${cart.id}`, { body: envelope('cart', { notes: 'late' }) })
      .finally(() => answered.push('delayed'));
    await firing(rule);
    // the account's other writes go on during the delay (the delayed call's work is not held across it):
    // answered before the delayed call, which would answer first if it held the account
    const other = await server().call('POST', '/api/v1/carts', { body: envelope('cart', { name: 'meanwhile' }) });
    answered.push('other');
    expect(other.status).toBe(201);
    expect(answered).toEqual(['other']);
    const renamed = await server().call('PATCH', `/api/v1/carts/${cart.id}`, {
      body: envelope('cart', { name: 'renamed' }),
    });
    expect(renamed.status).toBe(200);
    const late = await delayed;
    expect(late.status).toBe(200);
    expect(late.body.data).toMatchObject({ name: 'renamed', notes: 'late' });
  });

  it('a probabilistic fault fires in the same pattern on two runs with the same seed', async () => {
    const pattern = async () => {
      const s = await startTestServer();
      await s.call('POST', '/__sim/faults', {
        key: null,
        body: { match: { operation_id: 'listCarts' }, effect: { status: 503 }, probability: 0.5 },
      });
      const out: number[] = [];
      for (let i = 0; i < 20; i++) out.push((await s.call('GET', '/api/v1/carts')).status);
      await s.close();
      return out;
    };
    const first = await pattern();
    expect(first).toContain(503);
    expect(first).toContain(200);
    expect(await pattern()).toEqual(first);
  });

  it('rules are deleted, and cleared by reset', async () => {
    const { id } = (await fault({ match: { operation_id: 'listCarts' }, effect: { status: 500 } })).body;
    expect((await server().call('DELETE', `/__sim/faults/${id}`, { key: null })).status).toBe(200);
    expect((await server().call('GET', '/api/v1/carts')).status).toBe(200);
    await fault({ match: { operation_id: 'listCarts' }, effect: { status: 500 } });
    await server().call('POST', '/__sim/reset', { key: null });
    expect((await server().call('GET', '/__sim/faults', { key: null })).body.faults).toEqual([]);
    expect((await fault({ match: {}, effect: {} })).status).toBe(422);
  });

  it('an empty match is refused: every call of every account is said with any: true, and the answer warns', async () => {
    // the failing case: {"match":{}} made every call of every account, sandboxes included, answer 503
    const empty = await fault({ match: {}, effect: { status: 503 } });
    expect(empty.status).toBe(422);
    expect(empty.body.errors[0]).toMatchObject({ source: { pointer: '/match' } });
    expect((await server().call('GET', '/api/v1/carts')).status).toBe(200);
    const all = await fault({ match: { any: true }, effect: { status: 503 }, times: 1 });
    expect(all.status).toBe(201);
    expect(all.body.warning).toMatch(/every account/);
    expect((await server().call('GET', '/api/v1/carts')).status).toBe(503);
    // narrowed to one account, or made with a key: no warning
    const partner = await fault({ match: { any: true, account_id: PARTNER }, effect: { status: 503 } });
    expect(partner.status).toBe(422);
    const narrowed = await fault({ match: { account_id: PARTNER }, effect: { status: 503 }, times: 1 });
    expect(narrowed.status).toBe(201);
    expect(narrowed.body.warning).toBeUndefined();
    const own = await server().call('POST', '/__sim/faults', {
      body: { match: { operation_id: 'listCarts' }, effect: { status: 500 } },
    });
    expect(own.body.warning).toBeUndefined();
    const keyEmpty = await server().call('POST', '/__sim/faults', { body: { match: {}, effect: { status: 500 } } });
    expect(keyEmpty.status).toBe(422);
  });
});

describe('outbound faults', () => {
  const server = useServer();
  const receiver = useReceiver();

  async function subscribe(): Promise<void> {
    await server().call('POST', '/api/v1/event_subscriptions', {
      body: envelope('event_subscription', {
        name: 'e',
        protocol: 'HTTP',
        data: `${receiver().url}/events`,
        topics: ['DID'],
      }),
    });
  }
  const didChange = async () => {
    await server().call('PATCH', '/api/v1/numbers/+13125550100', {
      body: envelope('did', { auto_response_id: null }),
    });
    await server().settle();
  };

  it('deliveries to a URL fail N times, then retries on the clock reach it', async () => {
    await subscribe();
    await server().call('POST', '/__sim/faults', {
      key: null,
      body: { match: { url: receiver().url }, effect: { fail: true }, times: 2 },
    });
    await didChange();
    expect(receiver().received).toHaveLength(0);
    await server().call('POST', '/__sim/clock/advance', { key: null, body: { by: 'PT6M' } });
    expect(receiver().received).toHaveLength(1);
    const log = (await server().call('GET', '/__sim/deliveries', { key: null })).body.deliveries[0];
    expect(log.attempts.map((a: any) => a.error)).toEqual(['injected fault', 'injected fault', null]);
  });

  it('a delivery arrives twice when asked: the receiver sees the same event id twice', async () => {
    await subscribe();
    await server().call('POST', '/__sim/faults', {
      key: null,
      body: { match: { url: receiver().url }, effect: { duplicate: true }, times: 1 },
    });
    await didChange();
    expect(receiver().received).toHaveLength(2);
    expect(receiver().received[0]!.json().data.id).toBe(receiver().received[1]!.json().data.id);
  });

  it('a delivery arrives out of order when asked: after the next one', async () => {
    await subscribe();
    await server().call('POST', '/__sim/faults', {
      key: null,
      body: { match: { url: receiver().url }, effect: { reorder: true }, times: 1 },
    });
    await didChange();
    expect(receiver().received).toHaveLength(0);
    await server().call('PATCH', '/api/v1/numbers/+13125550100', { body: envelope('did', { switch_id: null }) });
    await server().settle();
    expect(receiver().received).toHaveLength(2);
    const [a, b] = receiver().received.map((r) => r.json().data);
    expect(Date.parse(a.occurred_at)).toBeLessThanOrEqual(Date.parse(b.occurred_at));
    expect(a.id > b.id).toBe(true);
  });
});
