/**
 * What a unit of work sees (src/store/store.ts), on both backends: its own changes, what committed
 * before it, nothing of a work that failed; one account's writes in turn; and the weaker half of the
 * rule for reads, as each backend keeps it.
 */
import { describe, expect, it } from 'vitest';
import { silentLogger } from '../../src/deps.js';
import { JsonStore } from '../../src/store/embedded/json_store.js';
import { fixtureState } from '../../src/store/fixtures.js';
import { PgStore } from '../../src/store/postgres/store.js';
import type { Store } from '../../src/store/store.js';
import { DEMO } from '../support/helpers.js';
import { usePostgres } from '../support/pg.js';

const pg = usePostgres();

const group = (id: string) => ({
  account_id: DEMO,
  data: { id, name: id, inserted_at: '2026-03-01T12:00:00.000Z' },
});

describe.each([
  ['embedded', false, () => JsonStore.open({ memory: true }, silentLogger)],
  ['PostgreSQL', true, async () => PgStore.open(await pg().database(), silentLogger, 'isolation')],
] as [string, boolean, () => Promise<Store>][])('a unit of work (%s)', (_name, committedReadsOnly, open) => {
  const names = (store: Store) =>
    store.run({ read: true }, async (w) => (await w.view(DEMO).sharedResourceGroups.list()).map((g) => g.data.name));

  it('sees its own changes and what committed before it; a failed work leaves nothing', async () => {
    const store = await open();
    try {
      await store.run({ global: true }, (w) => w.replaceAll(fixtureState()));
      await store.run({ account: DEMO }, async (w) => {
        await w.sharedResourceGroups.insert(group('committed'));
        expect((await w.view(DEMO).sharedResourceGroups.list()).map((g) => g.data.name)).toContain('committed');
      });
      const failed = store.run({ account: DEMO }, async (w) => {
        expect((await w.view(DEMO).sharedResourceGroups.list()).map((g) => g.data.name)).toContain('committed');
        await w.sharedResourceGroups.insert(group('failed'));
        throw new Error('the handler fails after writing');
      });
      await expect(failed).rejects.toThrow('the handler fails');
      expect(await names(store)).toContain('committed');
      expect(await names(store)).not.toContain('failed');
    } finally {
      await store.close();
    }
  });

  it("one account's writes go in turn; a read waits for none, and sees a write in flight only where the backend says", async () => {
    const store = await open();
    try {
      await store.run({ global: true }, (w) => w.replaceAll(fixtureState()));
      let release!: () => void;
      const written = new Promise<void>((r) => (release = r));
      let inserted!: () => void;
      const hasInserted = new Promise<void>((r) => (inserted = r));
      const first = store.run({ account: DEMO }, async (w) => {
        await w.sharedResourceGroups.insert(group('in flight'));
        inserted();
        await written;
      });
      await hasInserted;
      // a second write of the account waits for the first; a read does not
      let secondRan = false;
      const second = store.run({ account: DEMO }, async () => {
        secondRan = true;
      });
      const seen = await names(store);
      expect(secondRan).toBe(false);
      if (committedReadsOnly) expect(seen).not.toContain('in flight');
      else expect(seen).toContain('in flight');
      release();
      await first;
      await second;
      expect(secondRan).toBe(true);
      expect(await names(store)).toContain('in flight');
    } finally {
      await store.close();
    }
  });
});
