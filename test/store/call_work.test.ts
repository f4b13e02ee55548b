/** A call's unit of work (WorkScope `call`), on both backends: its key its first read, its account's from then on. */
import { describe, expect, it } from 'vitest';
import { JsonStore } from '../../src/store/embedded/json_store.js';
import { fixtureState } from '../../src/store/fixtures.js';
import { PgStore } from '../../src/store/postgres/store.js';
import type { KeyLookup, Store } from '../../src/store/store.js';
import { usePostgres } from '../support/pg.js';

const pg = usePostgres();
const DEMO_KEY: KeyLookup = { index: 'key', value: 'demo-admin-key' };
const WRITE = { call: { writes: true, task: 'updateApiKey', args: {} } } as const;

/** A store's warnings, kept. */
const warnings = () => {
  const said: string[] = [];
  return { said, logger: { warn: (m: string) => void said.push(m) } };
};

/**
 * Shows `work` holding the account until `release`: another write of the account waits for it,
 * another account's does not.
 */
async function expectHolds(store: Store, accountId: string, release: () => void, work: Promise<void>) {
  let other = false;
  const waiting = store.run({ account: accountId }, async () => void (other = true));
  await store.run({ account: 'another-account' }, async () => undefined);
  expect(other).toBe(false);
  release();
  await work;
  await waiting;
  expect(other).toBe(true);
}

describe.each([
  ['embedded', (logger: { warn(m: string): void }) => JsonStore.open({ memory: true }, logger)],
  ['PostgreSQL', async (logger: { warn(m: string): void }) => PgStore.open(await pg().database(), logger, 'call')],
] as [string, (logger: { warn(m: string): void }) => Promise<Store>][])("a call's unit of work (%s)", (_name, open) => {
  const keyName = (store: Store) =>
    store.run({ read: true }, async (w) => (await w.apiKeys.byKey('demo-admin-key'))?.data.name);

  it('holds the account its caller’s key names, writes nothing before, and lets the account go while it waits', async () => {
    const store = await open(warnings().logger);
    try {
      await store.run({ global: true }, (w) => w.replaceAll(fixtureState()));
      let release!: () => void;
      const pause = new Promise<void>((r) => (release = r));
      let named!: (account: string) => void;
      const account = new Promise<string>((r) => (named = r));
      const work = store.run(WRITE, async (w) => {
        await expect(w.carts.list('anyone').then(() => w.apiKeys.insert({} as never))).rejects.toThrow(/caller/);
        const key = (await w.caller(DEMO_KEY)).key!;
        named(key.account_id);
        await pause;
        await w.apiKeys.update(key, (d) => (d.data.name = 'written'));
      });
      await expectHolds(store, await account, release, work);
      expect(await keyName(store)).toBe('written');
      // waiting before its first change, it holds nothing: the account's other write goes meanwhile
      const order: string[] = [];
      await store.run(WRITE, async (w) => {
        const key = (await w.caller(DEMO_KEY)).key!;
        await w.wait(() => store.run({ account: key.account_id }, async () => void order.push('other')));
        order.push('call');
        await w.apiKeys.update(key, (d) => (d.data.name = 'after the wait'));
      });
      expect(order).toEqual(['other', 'call']);
      expect(await keyName(store)).toBe('after the wait');
    } finally {
      await store.close();
    }
  });

  it('a failing work keeps nothing; with no such key it only reads', async () => {
    const store = await open(warnings().logger);
    try {
      await store.run({ global: true }, (w) => w.replaceAll(fixtureState()));
      await expect(
        store.run(WRITE, async (w) => {
          const key = (await w.caller(DEMO_KEY)).key!;
          await w.apiKeys.update(key, (d) => (d.data.name = 'failed'));
          throw new Error('the handler failed');
        }),
      ).rejects.toThrow('the handler failed');
      expect(await keyName(store)).not.toBe('failed');
      const rows = await store.run(WRITE, (w) => w.caller({ index: 'key', value: 'no such key' }));
      expect(rows.key).toBeUndefined();
    } finally {
      await store.close();
    }
  });

  it('one no key named takes the account it is told (a control call acting on an account) and holds it', async () => {
    const store = await open(warnings().logger);
    try {
      await store.run({ global: true }, (w) => w.replaceAll(fixtureState()));
      const accountId = await store.run(
        { read: true },
        async (w) => (await w.apiKeys.byKey('demo-admin-key'))!.account_id,
      );
      let release!: () => void;
      const pause = new Promise<void>((r) => (release = r));
      let owned!: () => void;
      const holding = new Promise<void>((r) => (owned = r));
      const work = store.run(WRITE, async (w) => {
        await w.own(accountId);
        owned();
        await pause;
        const key = (await w.apiKeys.byKey('demo-admin-key'))!;
        await w.apiKeys.update(key, (d) => (d.data.name = 'owned'));
      });
      await holding;
      await expectHolds(store, accountId, release, work);
      expect(await keyName(store)).toBe('owned');
    } finally {
      await store.close();
    }
  });

  it('a hook after a durable commit that fails is logged, and the work answers what it did', async () => {
    const { said, logger } = warnings();
    const store = await open(logger);
    try {
      await store.run({ global: true }, (w) => w.replaceAll(fixtureState()));
      const out = await store.run(WRITE, async (w) => {
        const key = (await w.caller(DEMO_KEY)).key!;
        await w.apiKeys.update(key, (d) => (d.data.name = 'durable'));
        w.afterCommit(() => {
          throw new Error('the hook failed');
        });
        return 'answered';
      });
      expect(out).toBe('answered');
      expect(await keyName(store)).toBe('durable');
      expect(said).toEqual([expect.stringContaining('the hook failed')]);
    } finally {
      await store.close();
    }
  });
});
