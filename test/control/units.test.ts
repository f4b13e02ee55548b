/**
 * A control call runs in the one unit of work its call opens (contract/sim.yaml `x-unit`): a change
 * of the account it acts on is that unit's write, durable before the answer; a read is that unit's
 * read; only work that is many units by nature (a clock moved forward, a reset) runs more.
 */
import { describe, expect, it, vi } from 'vitest';
import type { WorkScope } from '../../src/store/store.js';
import { useServer } from '../support/helpers.js';

const OPERATOR = '0a0a0a0a-0000-4000-8000-000000000102';
const DEMO = '0a0a0a0a-0000-4000-8000-000000000001';

describe("a control call's unit of work", () => {
  const server = useServer();

  /**
   * The scopes of the units of work the store ran for `call`: those its pipeline or its control
   * handler opened (the scheduler's own reads, made meanwhile on PostgreSQL, are not the call's; nor
   * the read of its caller's key, before any: a unit of its own on the embedded store, a statement or
   * none on PostgreSQL).
   */
  async function unitsOf(call: () => Promise<unknown>): Promise<WorkScope[]> {
    const store = server().runtime.store;
    const run = store.run.bind(store);
    const units: WorkScope[] = [];
    const spy = vi.spyOn(store, 'run').mockImplementation((scope, fn) => {
      const stack = new Error().stack ?? '';
      if (/[/\\]src[/\\](http|control)[/\\]/.test(stack) && !/\.caller /.test(stack)) units.push(scope);
      return run(scope, fn);
    });
    try {
      await call();
      return units;
    } finally {
      spy.mockRestore();
    }
  }

  const suspended = (id: string) => server().read(async (w) => (await w.users.get(id))?.suspended);

  it('a change of the account it acts on is its own unit: one write, that account’s, durable when it answers', async () => {
    const units = await unitsOf(async () => {
      const answer = await server().call('POST', `/__sim/users/${OPERATOR}/suspend`, { key: null });
      expect(answer.status).toBe(200);
    });
    expect(units).toEqual([{ account: DEMO }]);
    expect(await suspended(OPERATOR)).toBe(true);
  });

  it('with a key, the key’s account: another account’s record is not found and nothing changes', async () => {
    const answer = await server().call('POST', `/__sim/users/${OPERATOR}/suspend`, { key: 'partner-admin-key' });
    expect(answer.status).toBe(404);
    expect(await suspended(OPERATOR)).toBe(false);
  });

  it('a clock frozen with a sandbox’s key: one write of that account, which the answer shows', async () => {
    const box = (await server().call('POST', '/__sim/accounts', { key: null, body: { name: 'units' } })).body;
    const units = await unitsOf(async () => {
      const answer = await server().call('POST', '/__sim/clock/freeze', { key: box.keys.admin });
      expect(answer.body).toMatchObject({ mode: 'frozen', account_id: box.id });
    });
    // after it, the scheduler reads when the account's next step is due (a unit of its own, reading)
    expect(units).toEqual([{ account: box.id }, { read: true }]);
  });

  it('a read is its call’s one read', async () => {
    const units = await unitsOf(async () => {
      expect((await server().call('GET', '/__sim/clock', { key: null })).status).toBe(200);
      expect((await server().call('GET', '/__sim/deliveries', { key: null })).status).toBe(200);
    });
    expect(units).toEqual([{ read: true }, { read: true }]);
  });
});
