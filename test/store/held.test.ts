/** A unit of work held open from a write's authentication to its handler (src/store/held.ts), on both backends. */
import { describe, expect, it } from 'vitest';
import { silentLogger } from '../../src/deps.js';
import { JsonStore } from '../../src/store/embedded/json_store.js';
import { fixtureState } from '../../src/store/fixtures.js';
import { hold } from '../../src/store/held.js';
import { PgStore } from '../../src/store/postgres/store.js';
import type { CallerLookup, Store } from '../../src/store/store.js';
import { usePostgres } from '../support/pg.js';

const pg = usePostgres();
const DEMO_KEY: CallerLookup = { index: 'key', value: 'demo-admin-key' };

describe.each([
  ['embedded', () => JsonStore.open({ memory: true }, silentLogger)],
  ['PostgreSQL', async () => PgStore.open(await pg().database(), silentLogger, 'held')],
] as [string, () => Promise<Store>][])('a held unit of work (%s)', (_name, open) => {
  const keyName = (store: Store) =>
    store.run({ read: true }, async (w) => (await w.apiKeys.byKey('demo-admin-key'))?.data.name);

  it('is the key’s account’s: it holds the account until abandoned, and keeps nothing of an abandoned work', async () => {
    const store = await open();
    try {
      await store.run({ global: true }, (w) => w.replaceAll(fixtureState()));
      const held = await hold(store, { callerOf: DEMO_KEY });
      const rows = await held.work.caller(DEMO_KEY);
      expect(rows.key?.data.key).toBe('demo-admin-key');
      const key = rows.key!;
      await held.work.apiKeys.update(key, (d) => (d.data.name = 'abandoned'));
      let other = false;
      const waiting = store.run({ account: key.account_id }, async () => {
        other = true;
      });
      // a write of another account, begun after it, goes through and commits: the account's did not
      await store.run({ account: 'another-account' }, async () => undefined);
      expect(other).toBe(false);
      await held.abandon();
      await waiting;
      expect(other).toBe(true);
      expect(await keyName(store)).not.toBe('abandoned');
      // a second abandon does nothing
      await held.abandon();
    } finally {
      await store.close();
    }
  });

  it('commits what its finish wrote and answers its result; with no such key it only reads', async () => {
    const store = await open();
    try {
      await store.run({ global: true }, (w) => w.replaceAll(fixtureState()));
      const held = await hold(store, { callerOf: DEMO_KEY });
      const key = (await held.work.caller(DEMO_KEY)).key!;
      const out = await held.finish(async (w) => {
        await w.apiKeys.update(key, (d) => (d.data.name = 'finished'));
        return 7;
      });
      expect(out).toBe(7);
      expect(await keyName(store)).toBe('finished');
      await held.abandon();
      expect(await keyName(store)).toBe('finished');
      const finishedTwice = () => held.finish(async () => 8);
      expect(finishedTwice).toThrow(/once/);
      // a failing finish keeps nothing, and its error is the caller's
      const failing = await hold(store, { callerOf: DEMO_KEY });
      await expect(
        failing.finish(async (w) => {
          await w.apiKeys.update(key, (d) => (d.data.name = 'failed'));
          throw new Error('the handler failed');
        }),
      ).rejects.toThrow('the handler failed');
      expect(await keyName(store)).toBe('finished');
      const nobody: CallerLookup = { index: 'key', value: 'no such key' };
      const none = await hold(store, { callerOf: nobody });
      expect((await none.work.caller(nobody)).key).toBeUndefined();
      await none.abandon();
    } finally {
      await store.close();
    }
  });
});
