/**
 * Sandboxes in parallel, as a client team's CI runs its test files: each with fault rules, resets,
 * a journal and snapshots of its own, neither seeing the other's; the control API's authority with
 * an admin token set and without one.
 */
import { describe, expect, it } from 'vitest';
import { DEMO, envelope, startTestServer, useServer, type TestServer } from '../support/helpers.js';

const sandbox = async (server: TestServer, name: string, headers: Record<string, string> = {}) => {
  const made = await server.call('POST', '/__sim/accounts', { key: null, body: { name }, headers });
  expect(made.status, JSON.stringify(made.body)).toBe(201);
  return made.body as { id: string; keys: { admin: string; readonly: string; standard: string }; numbers: string[] };
};

describe('two sandboxes in parallel', () => {
  const server = useServer();

  it("a fault made with a sandbox's key fires on that sandbox only, and only it lists or removes it", async () => {
    const a = await sandbox(server(), 'a');
    const b = await sandbox(server(), 'b');
    const rule = await server().call('POST', '/__sim/faults', {
      key: a.keys.admin,
      body: { match: { operation_id: 'listNumbers' }, effect: { status: 503 }, times: 5 },
    });
    expect(rule.status).toBe(201);
    expect(rule.body).toMatchObject({ scope: 'account', match: { account_id: a.id }, spent: false });
    expect((await server().call('GET', '/api/v1/numbers', { key: b.keys.admin })).status).toBe(200);
    expect((await server().call('GET', '/api/v1/numbers')).status).toBe(200);
    expect((await server().call('GET', '/api/v1/numbers', { key: a.keys.admin })).status).toBe(503);

    expect((await server().call('GET', '/__sim/faults', { key: b.keys.admin })).body.faults).toEqual([]);
    expect((await server().call('GET', '/__sim/faults', { key: a.keys.admin })).body.faults).toHaveLength(1);
    expect((await server().call('DELETE', `/__sim/faults/${rule.body.id}`, { key: b.keys.admin })).status).toBe(404);
    // the control API's own authority (no key) sees every rule
    expect((await server().call('GET', '/__sim/faults', { key: null })).body.faults).toHaveLength(1);

    const other = await server().call('POST', '/__sim/faults', {
      key: a.keys.admin,
      body: { match: { operation_id: 'listNumbers', account_id: b.id }, effect: { status: 503 } },
    });
    expect(other.status).toBe(422);
    expect(other.body.errors[0].source).toEqual({ pointer: '/match/account_id' });
  });

  it('a rule without a key is for every account, and says so; narrowed by account_id to one that exists', async () => {
    const a = await sandbox(server(), 'a');
    const all = await server().call('POST', '/__sim/faults', {
      key: null,
      body: { match: { operation_id: 'listUsers' }, effect: { status: 500 }, times: 2 },
    });
    expect(all.body.scope).toBe('all');
    expect((await server().call('GET', '/api/v1/users', { key: a.keys.admin })).status).toBe(500);
    expect((await server().call('GET', '/api/v1/users')).status).toBe(500);
    expect((await server().call('GET', '/api/v1/users')).status).toBe(200);
    const listed = (await server().call('GET', '/__sim/faults', { key: null })).body.faults[0];
    expect(listed).toMatchObject({ fired: 2, spent: true });
    const nobody = await server().call('POST', '/__sim/faults', {
      key: null,
      body: { match: { operation_id: 'listUsers', account_id: 'no-such-account' }, effect: { status: 500 } },
    });
    expect(nobody.status).toBe(422);
  });

  it('an outbound rule of a sandbox fails its own deliveries only', async () => {
    const a = await sandbox(server(), 'a');
    const rule = await server().call('POST', '/__sim/faults', {
      key: a.keys.admin,
      body: { match: { url: 'http://127.0.0.1:9/' }, effect: { fail: true } },
    });
    expect(rule.body).toMatchObject({ scope: 'account', match: { account_id: a.id } });
  });

  it("each sandbox's journal and delivery log are its own; without a key, every account's", async () => {
    const a = await sandbox(server(), 'a');
    const b = await sandbox(server(), 'b');
    await server().call('GET', '/api/v1/numbers', { key: a.keys.admin });
    await server().call('GET', '/api/v1/users', { key: b.keys.admin });
    const ofA = (await server().call('GET', '/__sim/requests', { key: a.keys.admin })).body.requests;
    expect(ofA.map((r: { operation_id: string }) => r.operation_id)).toEqual(['listNumbers']);
    const ofB = (await server().call('GET', '/__sim/requests?account_id=' + a.id, { key: b.keys.admin })).body;
    expect(ofB.requests.map((r: { operation_id: string }) => r.operation_id)).toEqual(['listUsers']);
    const all = (await server().call('GET', '/__sim/requests', { key: null })).body.requests;
    expect(all).toHaveLength(2);
  });

  it("a reset with a sandbox's key resets that sandbox alone: its records, clock, rules and journal; its keys still work", async () => {
    const a = await sandbox(server(), 'a');
    const b = await sandbox(server(), 'b');
    for (const box of [a, b]) {
      const made = await server().call('POST', '/api/v1/carts', {
        key: box.keys.admin,
        body: envelope('cart', { name: 'mine' }),
      });
      expect(made.status).toBe(201);
      await server().call('POST', '/__sim/clock/advance', { key: box.keys.admin, body: { by: 'P1D' } });
      await server().call('POST', '/__sim/faults', {
        key: box.keys.admin,
        body: { match: { operation_id: 'getCart' }, effect: { status: 503 } },
      });
    }
    const reset = await server().call('POST', '/__sim/reset', { key: a.keys.admin });
    expect(reset.body).toMatchObject({ status: 'reset', scope: 'account', account_id: a.id });

    const carts = (key: string) => server().call('GET', '/api/v1/carts', { key });
    expect((await carts(a.keys.admin)).body.count).toBe(0);
    expect((await carts(b.keys.admin)).body.count).toBe(1);
    const numbers = (await server().call('GET', '/api/v1/numbers', { key: a.keys.admin })).body;
    expect(numbers.results.map((n: { data: { number: string } }) => n.data.number).sort()).toEqual(
      [...a.numbers].sort(),
    );
    expect((await server().call('GET', '/__sim/faults', { key: a.keys.admin })).body.faults).toEqual([]);
    expect((await server().call('GET', '/__sim/faults', { key: b.keys.admin })).body.faults).toHaveLength(1);
    const clock = (key: string) => server().call('GET', '/__sim/clock', { key });
    expect((await clock(a.keys.admin)).body.now).toBe('2026-03-01T12:00:00.000Z');
    expect((await clock(b.keys.admin)).body.now).toBe('2026-03-02T12:00:00.000Z');
    const journalA = (await server().call('GET', '/__sim/requests?api=all', { key: a.keys.admin })).body.requests;
    expect(journalA.every((r: { operation_id: string }) => r.operation_id !== 'createCart')).toBe(true);
    const journalB = (await server().call('GET', '/__sim/requests', { key: b.keys.admin })).body.requests;
    expect(journalB.map((r: { operation_id: string }) => r.operation_id)).toContain('createCart');
  });

  it("Demo's key resets Demo alone, back to the fixtures; Partner and the sandboxes go on", async () => {
    const a = await sandbox(server(), 'a');
    await server().call('POST', '/api/v1/carts', { body: envelope('cart', { name: 'demo cart' }) });
    await server().call('POST', '/api/v1/carts', { key: 'partner-admin-key', body: envelope('cart', { name: 'p' }) });
    await server().call('POST', '/api/v1/carts', { key: a.keys.admin, body: envelope('cart', { name: 'a' }) });
    expect((await server().call('POST', '/__sim/reset')).body).toMatchObject({ scope: 'account', account_id: DEMO });
    expect((await server().call('GET', '/api/v1/carts')).body.count).toBe(0);
    expect((await server().call('GET', '/api/v1/carts', { key: 'partner-admin-key' })).body.count).toBe(1);
    expect((await server().call('GET', '/api/v1/carts', { key: a.keys.admin })).body.count).toBe(1);
    expect((await server().call('GET', '/api/v1/numbers')).body.count).toBe(10);
  });

  it('a reset of the whole server keeps the sandboxes others hold, and removes them only when asked to', async () => {
    const a = await sandbox(server(), 'a');
    await server().call('POST', '/api/v1/carts', { key: a.keys.admin, body: envelope('cart', { name: 'a' }) });
    await server().call('POST', '/api/v1/carts', { body: envelope('cart', { name: 'demo' }) });
    // no options: the fixture accounts back to the fixtures, every sandbox kept
    const kept = await server().call('POST', '/__sim/reset', { key: null });
    expect(kept.body).toMatchObject({ scope: 'all' });
    expect((await server().call('GET', '/api/v1/carts')).body.count).toBe(0);
    expect((await server().call('GET', '/api/v1/carts', { key: a.keys.admin })).body.count).toBe(1);
    // the old explicit form says the same; contradicting options are refused
    expect((await server().call('POST', '/__sim/reset', { key: null, body: { keep_sandboxes: true } })).status).toBe(
      200,
    );
    const both = await server().call('POST', '/__sim/reset', {
      key: null,
      body: { keep_sandboxes: true, remove_sandboxes: true },
    });
    expect(both.status).toBe(422);
    expect((await server().call('GET', '/api/v1/carts', { key: a.keys.admin })).body.count).toBe(1);
    await server().call('POST', '/__sim/reset', { key: null, body: { remove_sandboxes: true } });
    expect((await server().call('GET', '/api/v1/carts', { key: a.keys.admin })).status).toBe(403);
  });

  it("snapshots saved with a sandbox's key hold that sandbox alone and are listed to it alone", async () => {
    const a = await sandbox(server(), 'a');
    const b = await sandbox(server(), 'b');
    const cart = (key: string, name: string) =>
      server().call('POST', '/api/v1/carts', { key, body: envelope('cart', { name }) });
    await cart(a.keys.admin, 'before');
    const saved = await server().call('POST', '/__sim/snapshots', { key: a.keys.admin, body: { name: 'start' } });
    expect(saved.status).toBe(201);
    expect((await server().call('GET', '/__sim/snapshots', { key: b.keys.admin })).body.snapshots).toEqual([]);
    expect((await server().call('GET', '/__sim/snapshots', { key: null })).body.snapshots).toEqual([]);
    await cart(a.keys.admin, 'after');
    await cart(b.keys.admin, 'b after');
    const restored = await server().call('POST', '/__sim/snapshots/start/restore', { key: a.keys.admin });
    expect(restored.status).toBe(200);
    const names = async (key: string) =>
      (await server().call('GET', '/api/v1/carts', { key })).body.results.map(
        (c: { data: { name: string } }) => c.data.name,
      );
    expect(await names(a.keys.admin)).toEqual(['before']);
    expect(await names(b.keys.admin)).toEqual(['b after']);
    expect((await server().call('POST', '/__sim/snapshots/start/restore', { key: b.keys.admin })).status).toBe(404);
  });
});

describe('a fault that can never fire is refused', () => {
  const server = useServer();
  const fault = (body: unknown) => server().call('POST', '/__sim/faults', { key: null, body });
  const refused = async (body: unknown, pointer: string, says?: RegExp) => {
    const answer = await fault(body);
    expect(answer.status, JSON.stringify(answer.body)).toBe(422);
    const error = answer.body.errors.find((e: { source?: { pointer?: string } }) => e.source?.pointer === pointer);
    expect(error, JSON.stringify(answer.body)).toBeDefined();
    if (says) expect(error.detail).toMatch(says);
  };

  it('an operation the contract does not have, with the nearest ones suggested', async () => {
    await refused(
      { match: { operation_id: 'checkoutcart' }, effect: { status: 503 } },
      '/match/operation_id',
      /checkoutCart/,
    );
    await refused({ match: { operation_id: 'simAdvance' }, effect: { status: 503 } }, '/match/operation_id');
  });

  it('a path no route matches, literal or template', async () => {
    await refused(
      { match: { path: '/api/v1/cart/{id}/checkout' }, effect: { status: 503 } },
      '/match/path',
      /\/api\/v1\/carts\/\{cart_id\}\/checkout/,
    );
    await refused({ match: { path: '/numbers' }, effect: { status: 503 } }, '/match/path');
    await refused({ match: { path: '/api/v1/carts/{cart_id}' }, effect: { status: 503 } }, '/match/path');
    expect((await fault({ match: { path: '/api/v1/carts/abc/checkout' }, effect: { status: 503 } })).status).toBe(201);
    expect((await fault({ match: { path: '/api/v1/carts/{cart_id}/checkout' }, effect: { status: 503 } })).status).toBe(
      201,
    );
  });

  it('a method no route at the path takes; an operation and a path that disagree', async () => {
    await refused(
      { match: { path: '/api/v1/numbers', method: 'DELETE' }, effect: { status: 503 } },
      '/match/method',
      /GET/,
    );
    await refused({ match: { operation_id: 'listNumbers', method: 'POST' }, effect: { status: 503 } }, '/match/method');
    await refused(
      { match: { operation_id: 'listNumbers', path: '/api/v1/carts' }, effect: { status: 503 } },
      '/match/path',
    );
    await refused({ match: { method: 'BREW' }, effect: { status: 503 } }, '/match/method');
  });

  it('an outbound url that is not a URL; fields and effects of another kind of rule', async () => {
    await refused({ match: { url: '127.0.0.1:4011/sms' }, effect: { fail: true } }, '/match/url');
    await refused({ match: { url: 'http://127.0.0.1:4011/', method: 'GET' }, effect: { fail: true } }, '/match/method');
    await refused({ match: { url: 'http://127.0.0.1:4011/' }, effect: { status: 503 } }, '/effect/status');
    await refused({ match: { operation_id: 'listNumbers' }, effect: { fail: true } }, '/effect/fail');
    await refused(
      { match: { smpp: 'deliver_sm', operation_id: 'listNumbers' }, effect: { drop: true } },
      '/match/operation_id',
    );
    await refused({ match: { system_id: 'abc' }, effect: { status: 503 } }, '/match/system_id');
    await refused({ match: { operation_id: 'listNumbers' }, effect: { body: { x: 1 } } }, '/effect/body');
  });
});

describe('hosted: an admin token is set', () => {
  const TOKEN = 'the-operators-token';
  const admin = { 'x-sim-admin-token': TOKEN };

  const withServer = async (fn: (s: TestServer) => Promise<void>, opts = {}) => {
    const s = await startTestServer({ simAdminToken: TOKEN, ...opts });
    try {
      await fn(s);
    } finally {
      await s.close();
    }
  };

  it("a sandbox is driven with its own key alone, and refused another sandbox's routes and what spans accounts", () =>
    withServer(async (s) => {
      const a = await sandbox(s, 'a', admin);
      const b = await sandbox(s, 'b', admin);
      const as = (method: string, path: string, body?: unknown) => s.call(method, path, { key: a.keys.admin, body });
      expect((await as('GET', '/__sim/clock')).status).toBe(200);
      expect((await as('POST', '/__sim/clock/advance', { by: 'PT1M' })).status).toBe(200);
      const sms = await as('POST', '/__sim/inbound/sms', { to: a.numbers[0], from: '+14155550123', text: 'hi' });
      expect(sms.status).toBe(200);
      expect(
        (await as('POST', '/__sim/faults', { match: { operation_id: 'listNumbers' }, effect: { status: 503 } })).status,
      ).toBe(201);
      expect((await as('GET', '/__sim/faults')).status).toBe(200);
      expect((await as('GET', '/__sim/requests')).status).toBe(200);
      expect((await as('GET', '/__sim/deliveries')).status).toBe(200);
      expect((await as('POST', '/__sim/snapshots', { name: 'mine' })).status).toBe(201);
      expect((await as('POST', '/__sim/reset')).status).toBe(200);

      // what spans accounts needs the token
      for (const [method, path] of [
        ['GET', '/__sim/accounts'],
        ['POST', '/__sim/accounts'],
        ['POST', '/__sim/scenarios/onboarding'],
      ] as const) {
        const answer = await as(method, path);
        expect(answer.status, `${method} ${path}`).toBe(403);
        expect(answer.body.errors[0].detail).toMatch(/X-Sim-Admin-Token/);
      }
      // another sandbox's records are not its own to delete; its number is not this account's
      expect((await as('DELETE', `/__sim/accounts/${b.id}`)).status).toBe(404);
      const foreign = await as('POST', '/__sim/inbound/sms', { to: b.numbers[0], from: '+14155550123', text: 'x' });
      expect(foreign.status).toBeGreaterThanOrEqual(400);
      expect(foreign.status).toBeLessThan(500);
      // no key and no token: refused, saying what would do
      const bare = await s.call('GET', '/__sim/clock', { key: null });
      expect(bare.status).toBe(403);
      expect(bare.body.errors[0].detail).toMatch(/key/);
      // the token alone acts as before
      expect((await s.call('GET', '/__sim/accounts', { key: null, headers: admin })).status).toBe(200);
      // a sandbox may delete itself
      expect((await as('DELETE', `/__sim/accounts/${a.id}`)).status).toBe(200);
    }));

  it('--open-sandboxes lets anyone make a sandbox, and nothing else that spans accounts', () =>
    withServer(
      async (s) => {
        const box = await sandbox(s, 'open');
        expect((await s.call('GET', '/__sim/accounts', { key: box.keys.admin })).status).toBe(403);
      },
      { openSandboxes: true },
    ));
});
