// The PostgreSQL backend of the store (issue 14, first part): the store's contract, a server on it
// running every scenario, a restart, and two instances over one database.
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { silentLogger } from '../../src/deps.js';
import { buildServer, listen, listenSmpp, type Runtime } from '../../src/server.js';
import { fixtureState } from '../../src/store/fixtures.js';
import { cutPage, keyOf, type PageWindow, type SortKey } from '../../src/store/page.js';
import { UniqueViolation } from '../../src/store/collections.js';
import { PgStore } from '../../src/store/postgres/store.js';
import { withoutPassword } from '../../src/store/postgres/url.js';
import { PgJournalLog } from '../../src/store/postgres/shared.js';
import { LISTENER_NAME, PgPeers } from '../../src/store/postgres/peers.js';
import { postgresUrl } from '../../src/cli/values.js';
import { MIGRATIONS } from '../../src/store/postgres/sql.js';
import pgClient from 'pg';
import { COLLECTION_NAMES } from '../../src/store/schema.js';
import { DEMO, PARTNER, envelope, START, callAt } from '../support/helpers.js';
import { usePostgres } from '../support/pg.js';
import { client, messageOf } from '../support/smpp_client.js';
import { eventually } from '../support/eventually.js';

describe('the PostgreSQL store', () => {
  const pg = usePostgres();

  it('is created empty, takes the fixtures whole and gives them back in list order', async () => {
    const url = await pg().database();
    const store = await PgStore.open(url, silentLogger, 'test');
    try {
      expect(store.created).toBe(true);
      expect(store.location).toBe(url.replace(':postgres@', ':***@'));
      const fixtures = fixtureState();
      await store.run({ global: true }, (w) => w.replaceAll(fixtures));
      const back = await store.run({ read: true }, (w) => w.exportState());
      for (const name of COLLECTION_NAMES) expect(back[name], name).toEqual(fixtures[name]);
      const keys = await store.run({ read: true }, (w) => w.view(DEMO).apiKeys.list());
      expect(keys.map((k) => k.data.key)).toEqual(
        fixtures.api_keys.filter((k) => k.account_id === DEMO).map((k) => k.data.key),
      );
    } finally {
      await store.close();
    }
    const again = await PgStore.open(url, silentLogger, 'test');
    expect(again.created).toBe(false);
    await again.close();
  });

  it('an index added to schema.ts is given to the rows that exist by its reindex migration', async () => {
    const url = await pg().database();
    const store = await PgStore.open(url, silentLogger, 'test');
    const fixtures = fixtureState();
    const key = fixtures.api_keys.find((k) => k.account_id === DEMO)!;
    await store.run({ global: true }, (w) => w.replaceAll(fixtures));
    await store.close();
    // the database as the version before the reindex migrations left it: no keys of the new indexes
    const db = new pgClient.Client({ connectionString: url });
    await db.connect();
    const reindexAt = MIGRATIONS.findIndex((m) => typeof m !== 'string');
    await db.query(`DELETE FROM row_index WHERE index_name IN ('smppSystemId', 'sandbox')`);
    await db.query('UPDATE schema_version SET version = $1', [reindexAt]);
    await db.end();
    const again = await PgStore.open(url, silentLogger, 'test');
    try {
      const found = await again.run({ read: true }, (w) => w.apiKeys.bySmppSystemId(key.data.smpp_system_id!));
      expect(found.map((k) => k.data.id)).toEqual([key.data.id]);
    } finally {
      await again.close();
    }
  });

  it('a collection added to schema.ts after the database was made gets its table at the next start', async () => {
    const url = await pg().database();
    const store = await PgStore.open(url, silentLogger, 'test');
    const fixtures = fixtureState();
    await store.run({ global: true }, (w) => w.replaceAll(fixtures));
    await store.close();
    // the database as a dipswitch without the shared resource groups collection left it
    const db = new pgClient.Client({ connectionString: url });
    await db.connect();
    await db.query('DROP TABLE c_shared_resource_groups');
    await db.end();
    const again = await PgStore.open(url, silentLogger, 'test');
    try {
      expect(again.created).toBe(false);
      const group = { data: { id: 'g-new', name: 'new', inserted_at: '2026-03-01T12:00:00.000Z' } };
      await again.run({ account: DEMO }, (w) => w.view(DEMO).sharedResourceGroups.insert(group));
      const state = await again.run({ read: true }, (w) => w.exportState());
      expect(state.shared_resource_groups.map((g) => g.data.id)).toEqual(['g-new']);
      expect(state.carts).toEqual(fixtures.carts);
    } finally {
      await again.close();
    }
  });

  it("a list's count is kept as its rows come and go, and counted again by its migration", async () => {
    const url = await pg().database();
    const store = await PgStore.open(url, silentLogger, 'test');
    const fixtures = fixtureState();
    const counts = (s: PgStore) =>
      s.run({ read: true }, async (w) => {
        const out: Record<string, [number, number]> = {};
        for (const account of [DEMO, PARTNER]) {
          const page = await w.view(account).carts.page({ size: 1, fromEnd: false, newestFirst: false });
          out[account] = [page.count, (await w.view(account).carts.list()).length];
        }
        return out;
      });
    const cart = (i: number, account = DEMO) =>
      ({
        account_id: account,
        data: {
          id: `01KCOUNT00000000000000000${i}`,
          name: `count ${i}`,
          notes: null,
          inserted_at: START.toISOString(),
          updated_at: START.toISOString(),
        },
      }) as never;
    try {
      await store.run({ global: true }, (w) => w.replaceAll(fixtures));
      await store.run({ account: DEMO }, async (w) => {
        for (const i of [1, 2, 3]) await w.carts.insert(cart(i));
      });
      await store.run({ account: PARTNER }, (w) => w.carts.insert(cart(4, PARTNER)));
      // a removal counts out only a row that was there; an update, and work that throws, change nothing
      await store.run({ account: DEMO }, async (w) => {
        const two = (await w.view(DEMO).carts.get('01KCOUNT000000000000000002'))!;
        await w.carts.remove(two);
        await w.carts.remove(two);
        const three = (await w.view(DEMO).carts.get('01KCOUNT000000000000000003'))!;
        await w.carts.update(three, (d) => void (d.data.notes = 'n'));
      });
      await expect(
        store.run({ account: DEMO }, async (w) => {
          await w.carts.insert(cart(5));
          throw new Error('no');
        }),
      ).rejects.toThrow('no');
      const kept = await counts(store);
      expect(kept[DEMO]).toEqual([kept[DEMO]![1], kept[DEMO]![1]]);
      expect(kept[DEMO]![0]).toBe(fixtures.carts.filter((c) => c.account_id === DEMO).length + 2);
      expect(kept[PARTNER]).toEqual([kept[PARTNER]![1], kept[PARTNER]![1]]);
      await store.run({ global: true }, (w) => w.removeAccount(PARTNER));
      expect((await counts(store))[PARTNER]).toEqual([0, 0]);
      await store.close();
      // a database from before the counts: its lists are counted as it is opened
      const db = new pgClient.Client({ connectionString: url });
      await db.connect();
      await db.query('UPDATE list_counts SET n = 1000');
      const counting = MIGRATIONS.findIndex((m) => typeof m === 'string' && m.includes('list_counts'));
      await db.query('UPDATE schema_version SET version = $1', [counting]);
      await db.end();
      const again = await PgStore.open(url, silentLogger, 'test');
      try {
        expect((await counts(again))[DEMO]).toEqual(kept[DEMO]);
      } finally {
        await again.close();
      }
    } finally {
      await store.close().catch(() => undefined);
    }
  });

  it("a write begun with the caller's key waits for whole-state work without deadlocking its TRUNCATE", async () => {
    const store = await PgStore.open(await pg().database(), silentLogger, 'test');
    try {
      await store.run({ global: true }, (w) => w.replaceAll(fixtureState()));
      let go!: () => void;
      const holding = new Promise<void>((resolve) => (go = resolve));
      let started!: () => void;
      const begun = new Promise<void>((resolve) => (started = resolve));
      const whole = store.run({ global: true }, async (w) => {
        started();
        await holding;
        await w.replaceAll(fixtureState());
      });
      await begun;
      // the write waits for the whole state's lock; then the whole-state work truncates the tables
      const write = store.run({ account: DEMO }, async (w) => {
        await w.carts.insert({
          account_id: DEMO,
          data: {
            id: '01KWHOLE00000000000000000A',
            name: 'after',
            notes: null,
            inserted_at: START.toISOString(),
            updated_at: START.toISOString(),
          },
        } as never);
        return w.view(DEMO).carts.list();
      });
      // the write is waiting for the lock when the database says a session waits on an advisory lock
      await eventually(
        async () =>
          (
            await store.query<{ n: number }>(
              "SELECT count(*)::int AS n FROM pg_stat_activity WHERE wait_event = 'advisory' AND datname = current_database()",
            )
          )[0]?.n === 1,
        'the write to wait for the whole state’s lock',
      );
      go();
      await whole;
      const carts = await write;
      expect(carts.map((c) => c.data.name)).toContain('after');
    } finally {
      await store.close();
    }
  });

  it('a page read in SQL is the page cut from the whole list, for every window', async () => {
    const store = await PgStore.open(await pg().database(), silentLogger, 'test');
    try {
      const fixtures = fixtureState();
      // seven carts, three of them made in the same millisecond (their ids order them)
      const times = ['01', '02', '02', '02', '05', '07', '09'];
      fixtures.carts = times.map((t, i) => ({
        account_id: DEMO,
        data: {
          id: `01KCART0000000000000000000${i}`,
          name: `cart ${i}`,
          notes: null,
          inserted_at: `2026-03-01T12:00:${t}.000Z`,
          updated_at: `2026-03-01T12:00:${t}.000Z`,
        },
      })) as never;
      await store.run({ global: true }, (w) => w.replaceAll(fixtures));
      const list = await store.run({ read: true }, (w) => w.view(DEMO).carts.list());
      const keys: (SortKey | undefined)[] = [
        undefined,
        ...list.map((r) => keyOf(r)),
        ['2026-03-01T12:00:00.000Z', 'a'],
        ['2026-03-01T12:00:02.000Z', '0'],
        ['2026-03-01T12:00:99.000Z', 'z'],
      ];
      let windows = 0;
      for (const after of keys)
        for (const before of keys)
          for (const size of [0, 1, 2, 5, 25])
            for (const fromEnd of [false, true])
              for (const newestFirst of [false, true]) {
                const w: PageWindow = { after, before, size, fromEnd, newestFirst };
                const inSql = await store.run({ read: true }, (work) => work.view(DEMO).carts.page(w));
                expect(inSql, JSON.stringify(w)).toEqual(cutPage(list, w));
                windows++;
              }
      expect(windows).toBe(11 * 11 * 5 * 2 * 2);
    } finally {
      await store.close();
    }
  });

  it('the journal keeps calls that come at once in few statements, each with its own id, bounded by its bytes', async () => {
    const store = await PgStore.open(await pg().database(), silentLogger, 'test');
    const journal = new PgJournalLog(store, 50_000, 1_000);
    const statements: string[] = [];
    const query = store.query.bind(store);
    store.query = ((sql: string, ...rest: unknown[]) => {
      statements.push(sql);
      return (query as (...a: unknown[]) => unknown)(sql, ...rest);
    }) as typeof store.query;
    try {
      const call = (i: number) => ({
        api: 'openapi' as const,
        at: START.toISOString(),
        wall_at: START.toISOString(),
        method: 'GET',
        path: `/api/v1/carts/${i}`,
        operation_id: 'getCart',
        account_id: i % 2 ? DEMO : null,
        status: 200,
        latency_ms: 1,
        headers: {},
        requestBody: undefined,
        responseText: `{"n": ${i}}`,
        bytes: 500,
      });
      const kept = await Promise.all(Array.from({ length: 250 }, (_, i) => journal.append(call(i))));
      // each call has its own id, in the order the calls came
      expect(kept.map((k) => k.path)).toEqual(Array.from({ length: 250 }, (_, i) => `/api/v1/carts/${i}`));
      expect(kept.every((k, i) => i === 0 || k.id > kept[i - 1]!.id)).toBe(true);
      const inserts = statements.filter((sql) => sql.includes('INSERT INTO journal'));
      expect(inserts.length).toBeGreaterThan(2); // a statement keeps at most JOURNAL_BATCH calls
      expect(inserts.length).toBeLessThan(250);
      // trimmed to its bytes every JOURNAL_TRIM_EVERY calls: the newest 100 calls of 500 bytes always kept
      const page = await journal.page({ api: 'all' }, 1_000, Infinity);
      expect(page.count).toBeGreaterThanOrEqual(100);
      expect(page.count).toBeLessThan(250);
      expect(page.found[0]).toMatchObject({ id: kept[249]!.id, path: '/api/v1/carts/249', responseText: '{"n": 249}' });
      expect(page.found.slice(0, 100).map((k) => k.id)).toEqual(
        kept
          .slice(150)
          .map((k) => k.id)
          .reverse(),
      );
      // of the calls of no account, the newest `serverCallsKept` (here 1,000) stay, give or take a trim's worth
      const few = new PgJournalLog(store, 50_000_000, 10);
      for (let i = 0; i < 450; i++) await few.append({ ...call(i * 2), path: `/__sim/accounts/${i}` });
      const server = await few.page({ api: 'all', path: '/__sim/accounts/449' }, 10, Infinity);
      expect(server.count).toBe(1);
      const none = await journal.page({ api: 'all', path: '/__sim/accounts/0' }, 10, Infinity);
      expect(none.count).toBe(0);
      const accountless = await store.query<{ n: number }>(
        'SELECT count(*)::int AS n FROM journal WHERE account_id IS NULL',
      );
      expect(accountless[0]!.n).toBeLessThanOrEqual(10 + 200);
    } finally {
      await store.close();
    }
  });

  it('a unique index is a constraint, and work that throws leaves nothing behind', async () => {
    const store = await PgStore.open(await pg().database(), silentLogger, 'test');
    try {
      await store.run({ global: true }, (w) => w.replaceAll(fixtureState()));
      const cart = (id: string) => ({
        account_id: DEMO,
        data: { id, name: 'same', notes: null, inserted_at: START.toISOString(), updated_at: START.toISOString() },
      });
      await store.run({ account: DEMO }, (w) => w.carts.insert(cart('01A') as never));
      await expect(
        store.run({ account: DEMO }, async (w) => {
          await w.carts.insert({ ...cart('01B'), data: { ...cart('01B').data, name: 'other' } } as never);
          await w.carts.insert(cart('01C') as never);
        }),
      ).rejects.toBeInstanceOf(UniqueViolation);
      // the refusal names what was refused: a unique key another row holds, or a row's id
      await expect(store.run({ account: DEMO }, (w) => w.carts.insert(cart('01D') as never))).rejects.toMatchObject({
        collection: 'carts',
        index: 'name',
      });
      await expect(
        store.run({ account: DEMO }, (w) =>
          w.carts.insert({ ...cart('01A'), data: { ...cart('01A').data, name: 'x' } } as never),
        ),
      ).rejects.toMatchObject({ collection: 'carts', index: 'id', key: '01A' });
      const names = await store.run({ read: true }, async (w) =>
        (await w.view(DEMO).carts.list()).map((c) => c.data.id),
      );
      expect(names).toEqual(['01A']);
      const updated = await store.run({ account: DEMO }, async (w) => {
        const row = (await w.view(DEMO).carts.get('01A'))!;
        return w.carts.update(row, (d) => {
          d.data.name = 'renamed';
        });
      });
      expect(updated.data.name).toBe('renamed');
      const seqs = await store.run({ account: DEMO }, async (w) => [await w.nextSeq(), await w.nextSeq()]);
      expect(seqs[1]).toBe(seqs[0]! + 1);
    } finally {
      await store.close();
    }
  });
});

/** A dipswitch on the database; instances running at once need seeds of their own (docs/postgres.md), or their ids collide. */
async function instance(url: string, seed = 7): Promise<{ base: string; runtime: Runtime; close(): Promise<void> }> {
  const { app, runtime } = await buildServer({
    store: { postgres: url },
    seed,
    clockMode: 'frozen',
    startTime: START,
    logger: silentLogger,
    validateResponses: true,
  });
  const server = await listen(app, 0, '127.0.0.1');
  return {
    base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    runtime,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
      await runtime.close();
      expect(app.contractViolations).toEqual([]);
    },
  };
}

const call = (base: string, method: string, path: string, body?: unknown) => callAt(base, method, path, { body });

describe('dipswitch on PostgreSQL', () => {
  const pg = usePostgres();

  it('runs every scenario; a restart keeps what was written', async () => {
    const url = await pg().database();
    const first = await instance(url);
    try {
      for (const name of (await first.runtime.scenarios.catalog()).scenarios.keys()) {
        const result = await first.runtime.scenarios.run(first.base, name);
        expect(result.passed, `${name}: ${result.error ?? ''}`).toBe(true);
      }
      expect((await call(first.base, 'POST', '/api/v1/carts', envelope('cart', { name: 'kept' }))).status).toBe(201);
    } finally {
      await first.close();
    }
    const second = await instance(url);
    try {
      const carts = (await call(second.base, 'GET', '/api/v1/carts?first=100')).body as {
        results: { data: { name: string } }[];
      };
      expect(carts.results.map((c) => c.data.name)).toContain('kept');
    } finally {
      await second.close();
    }
  }, 120_000);

  it('a GET of one record or of a page is two statements once its caller is known (the read, the journal entry); a create three', async () => {
    const a = await instance(await pg().database());
    const sent: string[] = [];
    const query = pgClient.Client.prototype.query;
    const counting = function (this: unknown, ...args: unknown[]) {
      const q = args[0] as string | { text: string };
      sent.push(typeof q === 'string' ? q : q.text);
      return (query as (...a: unknown[]) => unknown).apply(this, args);
    };
    try {
      // what a first call reads once (the caller's rows, the fault rules, the steps due) is read before counting
      await call(a.base, 'POST', '/api/v1/carts', envelope('cart', { name: 'first' }));
      pgClient.Client.prototype.query = counting as typeof query;
      // a create: BEGIN, its account's locks and its clock; the row with COMMIT (its name's unique index is
      // the check); the journal
      const made = await call(a.base, 'POST', '/api/v1/carts', envelope('cart', { name: 'ahead' }));
      const id = made.body.data.id as string;
      expect(sent.length, sent.join('\n')).toBe(3);
      expect(sent[0]).toMatch(/^BEGIN; SELECT pg_advisory_xact_lock_shared/);
      expect(sent[1]).toMatch(/^INSERT INTO c_carts[^]*COMMIT$/);
      expect(sent[2]).toContain('INSERT INTO journal');
      // a GET of a record: the record, the journal
      sent.length = 0;
      const got = await call(a.base, 'GET', `/api/v1/carts/${id}`);
      expect(got.status).toBe(200);
      expect(got.body.data.name).toBe('ahead');
      expect(sent.length, sent.join('\n')).toBe(2);
      expect(sent[0]).toMatch(/^SELECT row FROM c_carts WHERE id = \$1$/);
      expect(sent[1]).toContain('INSERT INTO journal');
      // a record that is not there, or not the caller's, is not found, at the same cost
      sent.length = 0;
      const other = `${id.slice(0, -1)}${id.endsWith('0') ? '1' : '0'}`;
      const missing = await call(a.base, 'GET', `/api/v1/carts/${other}`);
      expect(missing.status).toBe(404);
      expect(sent.length, sent.join('\n')).toBe(2);
      const foreign = await callAt(a.base, 'GET', `/api/v1/carts/${id}`, { key: 'partner-admin-key' });
      expect(foreign.status).toBe(404);
      // a list's page: one statement, the first page and the next one by its cursor
      sent.length = 0;
      const first = await call(a.base, 'GET', '/api/v1/carts?first=1');
      expect(first.status).toBe(200);
      expect(first.body.results.map((c: { data: { name: string } }) => c.data.name)).toEqual(['first']);
      expect(first.body.page_info.has_next_page).toBe(true);
      expect(sent.length, sent.join('\n')).toBe(2);
      sent.length = 0;
      const next = await call(a.base, 'GET', `/api/v1/carts?first=1&after=${first.body.page_info.last as string}`);
      expect(next.body.results.map((c: { data: { name: string } }) => c.data.name)).toEqual(['ahead']);
      expect(next.body.page_info).toMatchObject({ has_next_page: false, has_previous_page: true });
      expect(sent.length, sent.join('\n')).toBe(2);
      // another account's list is not this key's page, and its cursor is still refused
      const partners = await callAt(a.base, 'GET', '/api/v1/carts', { key: 'partner-admin-key' });
      const partnerCarts = (JSON.parse(partners.text) as { results: { data: { name: string } }[] }).results;
      expect(partnerCarts.map((c) => c.data.name)).not.toContain('ahead');
      const cursor = first.body.page_info.last as string;
      const refused = await callAt(a.base, 'GET', `/api/v1/carts?after=${cursor}`, { key: 'partner-admin-key' });
      expect(refused.status).toBe(422);
    } finally {
      pgClient.Client.prototype.query = query;
      await a.close();
    }
  });

  it('a Unix-socket URL (no host: postgres://user:pw@/db?host=DIR&port=N) serves, and is shown without its password', async () => {
    const tcp = new URL(await pg().database());
    const socket = `postgres://${tcp.username}:${tcp.password}@/${tcp.pathname.slice(1)}?host=/tmp&port=${tcp.port}`;
    expect(postgresUrl(socket)).toBe(socket);
    expect(withoutPassword(socket)).toBe(
      `postgres://${tcp.username}:***@/${tcp.pathname.slice(1)}?host=/tmp&port=${tcp.port}`,
    );
    const over = await instance(socket);
    try {
      expect((await call(over.base, 'POST', '/api/v1/carts', envelope('cart', { name: 'by socket' }))).status).toBe(
        201,
      );
      expect(over.runtime.store.location).toBe(withoutPassword(socket));
    } finally {
      await over.close();
    }
  });

  it('two instances over one database see each other’s writes; one cart name wins across both', async () => {
    const url = await pg().database();
    const a = await instance(url, 7);
    // same seed, same ids: a racing create on b could take the id of a's first cart (it answered 500)
    const b = await instance(url, 8);
    try {
      const made = await call(a.base, 'POST', '/api/v1/carts', envelope('cart', { name: 'from a' }));
      const id = (made.body as { data: { id: string } }).data.id;
      expect((await call(b.base, 'GET', `/api/v1/carts/${id}`)).status).toBe(200);
      const statuses = await Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          call(i % 2 ? a.base : b.base, 'POST', '/api/v1/carts', envelope('cart', { name: 'contested' })).then(
            (r) => r.status,
          ),
        ),
      );
      expect(statuses.filter((s) => s === 201)).toHaveLength(1);
      expect(
        statuses.filter((s) => s !== 201).every((s) => s >= 400 && s < 500),
        String(statuses),
      ).toBe(true);
    } finally {
      await a.close();
      await b.close();
    }
  }, 120_000);

  it('SMPP over two instances: a message sent through one reaches a bind on the other, once', async () => {
    const url = await pg().database();
    const a = await instance(url, 7);
    const b = await instance(url, 8);
    const clients = [];
    try {
      const key = (await call(a.base, 'POST', '/api/v1/api_keys', envelope('api_key', { name: 'smpp' }))).body as any;
      const sw = (
        await call(
          a.base,
          'POST',
          '/api/v1/switches',
          envelope('switch', { name: 'smpp', sms_enabled: true, sms_protocol: 'SMPP', api_key_id: key.data.id }),
        )
      ).body as any;
      await call(a.base, 'PATCH', '/api/v1/numbers/+13125550100', envelope('did', { switch_id: sw.data.id }));
      const inbound = (text: string) =>
        call(a.base, 'POST', '/__sim/inbound/sms', { to: '+13125550100', from: '+14155550123', text });
      // no bind anywhere: the message waits; then a bind on the other instance receives it
      await inbound('waited');
      const onB = await client((await listenSmpp(b.runtime, 0, '127.0.0.1')).port);
      clients.push(onB);
      expect(await onB.bind('receiver', key.data.smpp_system_id, key.data.smpp_secert)).toBe(0);
      await eventually(() => onB.received.length >= 1, 'the waiting message at the bind');
      // a message run by the instance without a bind waits there, and the other, told, sends it
      await inbound('relayed');
      await eventually(() => onB.received.length >= 2, 'the relayed message at the bind');
      expect(onB.received.map(messageOf)).toEqual(['waited', 'relayed']);
      // a bind on the instance that runs the message too: each message still arrives once, at one of them
      const onA = await client((await listenSmpp(a.runtime, 0, '127.0.0.1')).port);
      clients.push(onA);
      expect(await onA.bind('receiver', key.data.smpp_system_id, key.data.smpp_secert)).toBe(0);
      await inbound('one');
      await inbound('two');
      const all = () => [...onA.received, ...onB.received].map(messageOf).sort();
      await eventually(() => all().length >= 4, 'both messages at one bind or the other');
      // none arrives twice: every message's delivery has settled, and each was received once
      await eventually(async () => {
        const log = (await call(a.base, 'GET', '/__sim/deliveries?kind=sms')).body.deliveries;
        return log.every((d: { outcome: string }) => d.outcome === 'delivered');
      }, 'every delivery settled');
      expect(all()).toEqual(['one', 'relayed', 'two', 'waited']);
    } finally {
      for (const c of clients) c.close();
      await a.close();
      await b.close();
    }
  });

  it('a message told with a commit is waited for until its teller and every other listener heard it; a rolled-back one by no one', async () => {
    const url = await pg().database();
    // the peers' pool only counts the listeners here; the statements go on one client. An idle pooled
    // connection may still be closing when the database is dropped after the test: its error is expected
    const pool = new pgClient.Pool({ connectionString: url });
    pool.on('error', () => undefined);
    const listening = { connectionString: url };
    const [a, b] = [new PgPeers(listening, pool, 'a', silentLogger), new PgPeers(listening, pool, 'b', silentLogger)];
    const db = new pgClient.Client({ connectionString: url });
    await db.connect();
    try {
      const deaf = a.echoed('callers', 'x');
      expect(await deaf.heard(), 'not listening: no wait').toBe(false);
      await a.listen();
      await b.listen();
      const heardByB: string[] = [];
      b.hear('callers', (payload) => heardByB.push(payload));
      const told = a.echoed('callers', 'acct-1,acct-2');
      await db.query(`BEGIN; ${told.sql}; COMMIT`);
      expect(await told.heard()).toBe(true);
      expect(heardByB, 'b acted on it before the teller stopped waiting').toEqual(['acct-1,acct-2']);
      const inStatement = a.tellingEchoed('faults', "''", 0);
      await db.query(`SELECT ${inStatement.sql}`, inStatement.params);
      expect(await inStatement.heard(), 'told from inside a statement').toBe(true);
      const rolledBack = a.echoed('callers', 'never');
      await db.query(`BEGIN; ${rolledBack.sql}; ROLLBACK`);
      expect(await rolledBack.heard(), 'a rolled-back message is never heard: the wait ends').toBe(false);
      // a session listening under the listeners' name that never answers: the teller waits for it, up to the bound
      const silent = new pgClient.Client({ connectionString: url });
      await silent.connect();
      try {
        await silent.query(`LISTEN dipswitch; SET application_name = '${LISTENER_NAME}'`);
        const unanswered = a.echoed('callers', 'acct-3');
        await db.query(`BEGIN; ${unanswered.sql}; COMMIT`);
        expect(await unanswered.heard(), 'an instance that did not answer: the wait ends unheard').toBe(false);
      } finally {
        await silent.end();
      }
      const again = a.echoed('callers', 'acct-4');
      await db.query(`BEGIN; ${again.sql}; COMMIT`);
      expect(await again.heard(), 'once it is gone, the others are heard again').toBe(true);
    } finally {
      await a.close();
      await b.close();
      await db.end();
      await pool.end();
    }
  });
});
