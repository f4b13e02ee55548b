// Issue 14: three dipswitch processes over one PostgreSQL database behave as one. A client sending
// each call to the next instance in turn runs every scenario with the results of one instance; the
// races come out as on one instance; faults, journal and snapshots are shared; and an instance
// killed during an `advance` leaves every step run exactly once.
import { afterAll, describe, expect, it } from 'vitest';
import { ScenarioCatalog } from '../../src/testing/scenario_runner.js';
import { runScenario, type ScenarioResult } from '../../src/testing/scenario.js';
import { startReceiver } from '../../src/testing/receiver.js';
import { startCli, type Running } from '../support/cli_process.js';
import { callAt, envelope, liveJournal, START } from '../support/helpers.js';
import { usePostgres } from '../support/pg.js';
import { eventually } from '../support/eventually.js';

type Instance = Running & { base: string };

/** The Demo account's operator user (fixtures), whose key is `demo-operator-key`. */
const OPERATOR = '0a0a0a0a-0000-4000-8000-000000000102';

/** A dipswitch process on the database: frozen clocks at START, each with a seed of its own. */
function instance(url: string, seed: number): Promise<Instance> {
  return startCli([
    '--store',
    url,
    '--port',
    '0',
    '--clock',
    'frozen',
    '--start-time',
    START.toISOString(),
    '--seed',
    String(seed),
  ]);
}

const started: Instance[] = [];
async function instances(url: string, n: number): Promise<Instance[]> {
  // one after the other: the first seeds the empty database; the others find it seeded
  const made: Instance[] = [];
  for (let i = 0; i < n; i++) made.push(await instance(url, 7 + i));
  started.push(...made);
  return made;
}
afterAll(() => Promise.all(started.map((s) => s.stop())));

/** A client that sends each call to the next instance in turn. */
function roundRobin(all: Instance[]): () => string {
  let n = 0;
  return () => all[n++ % all.length]!.base;
}

const call = (base: string, method: string, path: string, body?: unknown) => callAt(base, method, path, { body });

/** A timeline with what differs between runs by nature (ids, seeds' secrets, receivers' ports) made alike. */
function comparable(result: ScenarioResult): string[] {
  return result.timeline.map((e) =>
    `${e.at} ${e.step} ${e.detail}`
      .replace(/[0-9A-HJKMNP-TV-Z]{26}/g, '<ulid>')
      .replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, '<uuid>')
      .replace(/127\.0\.0\.1:\d+/g, '127.0.0.1:<port>'),
  );
}

describe('three instances over one PostgreSQL database', () => {
  const pg = usePostgres();
  const shelf = new ScenarioCatalog();

  it('a client going round the three runs every scenario as one instance does', async () => {
    const [alone] = await instances(await pg().database(), 1);
    const three = await instances(await pg().database(), 3);
    const next = roundRobin(three);
    for (const name of await shelf.names()) {
      const scenario = await shelf.load(name);
      const one = await runScenario(alone!.base, scenario);
      expect(one.passed, `${name} on one instance: ${one.error ?? ''}`).toBe(true);
      const shared = await runScenario(next, scenario);
      expect(shared.passed, `${name} on three: ${shared.error ?? ''}`).toBe(true);
      expect(comparable(shared), name).toEqual(comparable(one));
    }
  }, 180_000);

  it('a key revoked or a user suspended on one instance is refused on the other at its next call', async () => {
    // each instance keeps the callers' rows it read (src/store/postgres/callers.ts): a commit changing them
    // on one is told to the other before its answer goes, so the other's next call reads them again
    const [a, b] = await instances(await pg().database(), 2);
    const key = (await call(a!.base, 'POST', '/api/v1/api_keys', envelope('api_key', { name: 'revoked' }))).body
      .data as { id: string; key: string };
    const refusal = (res: { body: { errors?: { code: string; sub_code: string }[] } }) =>
      res.body.errors?.map((e) => `${e.code} ${e.sub_code}`).join(', ');
    const cartsWith = (base: string, k: string) => callAt(base, 'GET', '/api/v1/carts', { key: k });
    const made = (base: string, k: string, name: string) =>
      callAt(base, 'POST', '/api/v1/carts', { key: k, body: envelope('cart', { name }) });
    // both instances know the key (a standard key: known, though it may not list carts) and the operator
    // (ordering), and keep them (a copy read while a change was being told is not kept: called twice)
    for (const [n, at] of [a!, b!, a!, b!].entries()) {
      expect(refusal(await cartsWith(at.base, key.key))).toBe('access_denied.no_scope none');
      expect((await made(at.base, 'demo-operator-key', `before ${n}`)).status).toBe(201);
    }
    expect((await call(a!.base, 'DELETE', `/api/v1/api_keys/${key.id}`)).status).toBe(200);
    expect(refusal(await cartsWith(b!.base, key.key))).toBe('access_denied.unauthenticated unknown_key');
    expect((await call(a!.base, 'POST', `/__sim/users/${OPERATOR}/suspend`)).status).toBe(200);
    expect((await made(b!.base, 'demo-operator-key', 'suspended')).status).toBe(403);
    expect((await call(b!.base, 'POST', `/__sim/users/${OPERATOR}/reinstate`)).status).toBe(200);
    expect((await made(a!.base, 'demo-operator-key', 'reinstated')).status).toBe(201);
  });

  it('races spread over the three come out as on one; faults, journal and snapshots are shared', async () => {
    const all = await instances(await pg().database(), 3);
    const on = (i: number) => all[i % 3]!.base;

    const names = await Promise.all(
      Array.from({ length: 60 }, (_, i) =>
        call(on(i), 'POST', '/api/v1/carts', envelope('cart', { name: 'contested' })),
      ),
    );
    expect(names.filter((a) => a.status === 201)).toHaveLength(1);
    expect(names.filter((a) => a.status === 422)).toHaveLength(59);

    const cart = (await call(on(0), 'POST', '/api/v1/carts', envelope('cart', { name: 'checkout race' }))).body.data;
    await call(
      on(1),
      'POST',
      `/api/v1/carts/${cart.id}/requests`,
      envelope('request', { type: 'REMOVE_NUMBERS', data: { numbers: ['+13125550109'] } }),
    );
    const checkouts = await Promise.all(
      Array.from({ length: 30 }, (_, i) => call(on(i), 'POST', `/api/v1/carts/${cart.id}/checkout`)),
    );
    expect(checkouts.filter((a) => a.status === 200)).toHaveLength(1);
    expect((await call(on(2), 'GET', '/api/v1/orders')).body.count).toBe(1);

    // a rule added on one instance fires once across all three
    const rule = await call(on(0), 'POST', '/__sim/faults', {
      match: { operation_id: 'listSwitches' },
      effect: { status: 503, body: { errors: [{ code: 'injected' }] } },
      times: 1,
    });
    expect(rule.status).toBe(201);
    const lists = await Promise.all(Array.from({ length: 30 }, (_, i) => call(on(i), 'GET', '/api/v1/switches')));
    expect(lists.filter((a) => a.status === 503)).toHaveLength(1);
    expect((await call(on(1), 'GET', '/__sim/faults')).body.faults[0].fired).toBe(1);
    // each instance's copy of the rules follows a change made on another at once
    const always = await call(on(0), 'POST', '/__sim/faults', {
      match: { operation_id: 'listCarts' },
      effect: { status: 503 },
    });
    expect((await call(on(1), 'GET', '/api/v1/carts')).status).toBe(503);
    expect((await call(on(2), 'DELETE', `/__sim/faults/${always.body.id}`)).status).toBe(200);
    expect((await call(on(1), 'GET', '/api/v1/carts')).status).toBe(200);

    // every instance's calls are in one journal
    const journal = (await call(on(2), 'GET', '/__sim/requests?operation_id=listSwitches&limit=100')).body;
    expect(journal.count).toBe(30);
    // and a live reader on one instance sees a call another answered
    const live = await liveJournal(on(0));
    try {
      await call(on(1), 'GET', '/api/v1/carts?first=1');
      expect(await live.next()).toMatchObject({ path: '/api/v1/carts', operation_id: 'listCarts' });
    } finally {
      live.close();
    }

    // a snapshot saved on one instance is restored on another
    expect((await call(on(0), 'POST', '/__sim/snapshots', { name: 'two-carts' })).status).toBe(201);
    await call(on(1), 'POST', '/api/v1/carts', envelope('cart', { name: 'after the snapshot' }));
    expect((await call(on(2), 'POST', '/__sim/snapshots/two-carts/restore')).status).toBe(200);
    const carts = (await call(on(0), 'GET', '/api/v1/carts?first=100')).body.results.map((c: any) => c.data.name);
    expect(carts).toContain('contested');
    expect(carts).not.toContain('after the snapshot');
  }, 120_000);

  it('a real clock’s step made on an instance that then dies is run by another, whose timer heard of it', async () => {
    const url = await pg().database();
    const real = (seed: number) =>
      startCli(['--store', url, '--port', '0', '--clock', 'real', '--seed', String(seed)]).then((i) => {
        started.push(i);
        return i;
      });
    const a = await real(21);
    const b = await real(22);
    const cart = (await call(a.base, 'POST', '/api/v1/carts', envelope('cart', { name: 'timed' }))).body.data;
    await call(
      a.base,
      'POST',
      `/api/v1/carts/${cart.id}/requests`,
      envelope('request', { type: 'REMOVE_NUMBERS', data: { numbers: ['+13125550109'] } }),
    );
    // the order moves to PROCESSING 5 s after the checkout, on the account's clock
    expect((await call(a.base, 'POST', `/api/v1/carts/${cart.id}/checkout`)).status).toBe(200);
    a.child.kill('SIGKILL');
    await eventually(
      async () => (await call(b.base, 'GET', `/api/v1/orders/${cart.id}`)).body.data.status !== 'NEW',
      'the other instance to move the order on',
    );
  }, 60_000);

  it('an instance killed during an advance of many due steps: each step runs exactly once', async () => {
    const [a, b] = await instances(await pg().database(), 2);
    const hooks = await startReceiver();
    try {
      await call(a!.base, 'POST', '/api/v1/event_subscriptions', {
        type: 'event_subscription',
        data: { name: 'orders', protocol: 'HTTP', data: `${hooks.url}/events`, topics: ['ORDER'] },
      });
      const orders: string[] = [];
      for (let i = 0; i < 40; i++) {
        const cart = (await call(a!.base, 'POST', '/api/v1/carts', envelope('cart', { name: `order ${i}` }))).body.data;
        await call(
          b!.base,
          'POST',
          `/api/v1/carts/${cart.id}/requests`,
          envelope('request', {
            type: 'NEW_NUMBERS',
            data: { npa: '773', state: 'IL', rate_center: 'CHICAGO', number_type: 'TENDLC', quantity: '1' },
          }),
        );
        expect((await call(a!.base, 'POST', `/api/v1/carts/${cart.id}/checkout`)).status).toBe(200);
        orders.push(cart.id as string);
      }
      const before = hooks.received.length;
      const advancing = call(a!.base, 'POST', '/__sim/clock/advance', { by: 'PT2M' }).catch(() => null);
      // killed once a few of the steps' events arrived: mid-advance
      await eventually(() => hooks.received.length >= before + 5, 'a few of the advance’s events', 10_000);
      a!.child.kill('SIGKILL');
      await advancing;
      const after = await call(b!.base, 'POST', '/__sim/clock/advance', { by: 'PT2M' });
      expect(after.status).toBe(200);
      for (const id of orders)
        expect(['COMPLETED', 'ERROR']).toContain((await call(b!.base, 'GET', `/api/v1/orders/${id}`)).body.data.status);
      // each order's events were made once each: a step run twice would make its event twice
      const events = (await call(b!.base, 'GET', '/__sim/deliveries?kind=event')).body.deliveries as any[];
      const seen = events.map((d) => {
        const { id: _id, ...event } = JSON.parse(d.body).data;
        return JSON.stringify(event);
      });
      expect(seen.length).toBeGreaterThan(0);
      expect(new Set(seen).size, seen.join('\n')).toBe(seen.length);
    } finally {
      await hooks.close();
    }
  }, 180_000);
});
