/** A unit of work on PostgreSQL: the collections over its statements (statements.ts), its writes sent together. */
import pg from 'pg';
import { deepFreeze } from '../table.js';
import {
  COLLECTION_NAMES,
  emptyLists,
  stateOf,
  type AnyRow,
  type CollectionName,
  type Collections,
  type DbData,
} from '../../domain/rows.js';
import { cutPage, sameWindow, type PageRows, type PageWindow } from '../page.js';
import type { CallerRows, CallScope, KeyLookup, PeerTopic, SeqName, WorkFiles } from '../store.js';
import { WorkBase, type RowStore } from '../work_base.js';
import type { PgPeers } from './peers.js';
import type { Lease } from './statements.js';
import type { Ahead, FirstRead } from './read_ahead.js';
import { literal, PendingWrites } from './pending.js';
import { callerRows, pageOf, parsed, windowKey, type CallerFound, type PageFound } from './answers.js';
import {
  beginAccount,
  beginCaller,
  BEGIN_WHOLE_STATE,
  callerSql,
  countLists,
  EXPORT_STATE,
  pageSql,
  removeCounted,
  stored,
  table,
} from './sql.js';

type Keyed = { data: { id: string; inserted_at: string } };

/** A row read ahead of a unit of work (PgWork's `ahead`), by collection and id. */
export const aheadKey = (name: CollectionName, id: string): string => `${name}\u0001${id}`;

/** A collection given at least this many rows by a whole state is analyzed with it (replaceAll). */
const ANALYZED_ROWS = 500;

export class PgWork extends WorkBase {
  /** Rows read with the work's first statement (aheadKey): read from here until the work writes them. */
  private readonly ahead = new Map<string, AnyRow | undefined>();
  /** A page read with the caller's key: a read-only work's page of the same list and window. */
  private pageAhead?: { collection: CollectionName; accountId: string; window: PageWindow; rows: PageRows<AnyRow> };
  /** A transaction is open (what a write's commit ends). */
  open = false;
  /** The account whose work this is, once known (a call's: once its caller's key named it). */
  private account?: string;
  /** What the work read first besides the caller's rows (a call's work teaches the store's ReadAhead). */
  firstRead?: FirstRead;
  /** The work queued a write. */
  private wrote = false;

  constructor(
    private readonly db: Lease,
    readOnly: boolean,
    global: boolean,
    private readonly hooks: (() => void | Promise<void>)[],
    private readonly peers: PgPeers,
    /** A call's work: its scope, and what to read with its caller's key (ReadAhead). */
    private readonly call?: { scope: CallScope; ahead: Ahead },
  ) {
    super(readOnly, global);
    this.pending = new PendingWrites(db);
  }

  /** BEGIN and the whole state's exclusive lock: whole-state work. */
  async beginWholeState(): Promise<void> {
    await this.db.batch(BEGIN_WHOLE_STATE);
    this.open = true;
  }

  /** BEGIN, the account's locks and its clock row (which all such work reads first), in one round trip. */
  async beginAccount(accountId: string): Promise<void> {
    const account = literal(accountId);
    // cast: pg types one result per query; a text of several statements answers one result each
    const results = (await this.db.batch(
      `${beginAccount(account)}; SELECT row FROM ${table('clocks')} WHERE id = ${account}`,
    )) as pg.QueryResult<{ row: string }>[];
    const row = results[2]?.rows[0]?.row;
    this.ahead.set(aheadKey('clocks', accountId), row === undefined ? undefined : (JSON.parse(row) as AnyRow));
    this.open = true;
    this.account = accountId;
  }

  /** A call's write that no key named an account for begins as the account's work (a control call's). */
  protected override async bind(accountId: string): Promise<void> {
    if (this.call && !this.readOnly && !this.open) await this.beginAccount(accountId);
  }

  protected override writable(): void {
    if (this.call && !this.readOnly && !this.open)
      throw new Error("a call's work writes only once its caller's key named the account");
    super.writable();
  }

  /**
   * Waits holding nothing: a call's write that wrote nothing yet ends its transaction (its locks go)
   * and gives back its connection, and begins again after; a read forgets what it read ahead.
   */
  protected override async wait<T>(pending: () => Promise<T>): Promise<T> {
    if (this.wrote) return pending();
    const account = this.open ? this.account : undefined;
    if (this.open) await this.db.batch('ROLLBACK');
    this.open = false;
    this.ahead.clear();
    this.pageAhead = undefined;
    this.db.release();
    const out = await pending();
    if (account !== undefined) await this.beginAccount(account);
    return out;
  }

  /** NOTIFY in a transaction is delivered at its commit, and only then. */
  protected override async tell(topic: PeerTopic, payload: string): Promise<void> {
    const told = this.peers.telling(topic, '$1::text', 1);
    await this.db.query(`SELECT ${told.sql}`, [payload, ...told.params]);
  }

  protected files(): WorkFiles {
    const db = this.db;
    return {
      put: async (id, bytes) => {
        await db.query('INSERT INTO files VALUES ($1, $2) ON CONFLICT (id) DO UPDATE SET bytes = excluded.bytes', [
          id,
          bytes,
        ]);
      },
      get: async (id) =>
        (await db.query<{ bytes: Buffer }>('SELECT bytes FROM files WHERE id = $1', [id])).rows[0]?.bytes,
      // deleted in the transaction, just before its commit: the file goes only if the work commits
      remove: (id) => void this.fileRemovals.push(id),
    };
  }

  protected afterCommit(fn: () => void | Promise<void>): void {
    this.hooks.push(fn);
  }

  protected async nextSeq(name: SeqName): Promise<number> {
    const r = await this.db.query<{ value: string }>(
      'UPDATE seqs SET value = value + 1 WHERE name = $1 RETURNING value - 1 AS value',
      [name],
    );
    return Number(r.rows[0]?.value ?? 0);
  }

  protected async dropAccount(accountId: string): Promise<void> {
    await this.flush();
    for (const name of COLLECTION_NAMES) {
      await this.db.query(
        `DELETE FROM row_index WHERE collection = $1 AND id IN (SELECT id FROM ${table(name)} WHERE account_id = $2)`,
        [name, accountId],
      );
      await this.db.query(`DELETE FROM ${table(name)} WHERE account_id = $1`, [accountId]);
    }
    await this.db.query('DELETE FROM list_counts WHERE account_id = $1', [accountId]);
  }

  protected async exportState(): Promise<DbData> {
    await this.flush();
    const state = emptyLists();
    const all = await this.db.query<{ c: number; row: string }>(EXPORT_STATE);
    for (const { c, row } of all.rows)
      state[COLLECTION_NAMES[c] as CollectionName].push(deepFreeze(JSON.parse(row) as AnyRow));
    return stateOf(state);
  }

  /**
   * The caller's rows (CallerRows) in one statement: a call's write begins its transaction with them,
   * under the locks of the key's account; a read reads with them what ReadAhead says the call will read.
   */
  protected override async caller(lookup: KeyLookup): Promise<CallerRows> {
    if (this.call && !this.readOnly && !this.open) {
      const sql = beginCaller(literal(lookup.index), literal(stored(lookup.value)));
      // cast: pg types one result per query; a text of several statements answers one result each
      const results = (await this.db.batch(sql)) as pg.QueryResult<CallerFound>[];
      const rows = callerRows(results[1]?.rows[0]);
      this.open = true;
      if (rows.key) {
        this.account = rows.key.account_id;
        this.ahead.set(aheadKey('clocks', rows.key.account_id), rows.clock);
      }
      return rows;
    }
    const { row: ahead, page: wanted } = this.call?.ahead ?? {};
    // a window whose cursor holds a NUL, which text cannot, is not read ahead: its handler's page reads it
    const page = wanted && !holdsNul(wanted.window) ? wanted : undefined;
    const params: unknown[] = [lookup.index, stored(lookup.value)];
    if (ahead) params.push(ahead.id);
    if (page) params.push(windowKey(page.window.after), windowKey(page.window.before), page.window.size);
    const [r] = (await this.db.query<CallerFound>(callerSql(ahead?.collection, page), params)).rows;
    const rows = callerRows(r);
    const key = rows.key;
    if (key) {
      this.account = key.account_id;
      this.ahead.set(aheadKey('clocks', key.account_id), rows.clock);
      if (ahead) this.ahead.set(aheadKey(ahead.collection, ahead.id), parsed(r?.ahead));
      if (page && r) this.pageAhead = { ...page, accountId: key.account_id, rows: pageOf(r as PageFound, page.window) };
    }
    return rows;
  }

  /** Notes a call's first read besides its caller's rows (its account's clock). */
  private reading(first: FirstRead): void {
    if (!this.call || this.firstRead) return;
    if (first.collection === 'clocks' && 'id' in first && first.id === this.account) return;
    this.firstRead = first;
  }

  private readonly fileRemovals: string[] = [];

  /** The work's writes not sent yet: sent together before its next read, or with its COMMIT. */
  private readonly pending: PendingWrites;

  private flush(): Promise<void> {
    return this.pending.flush();
  }

  private later(...statements: string[]): Promise<void> {
    this.wrote = true;
    return this.pending.later(...statements);
  }

  /** Commits: the writes not sent yet, the files to remove and COMMIT, in one round trip. */
  async commit(): Promise<void> {
    const removals = this.fileRemovals.length
      ? [`DELETE FROM files WHERE id IN (${this.fileRemovals.map(literal).join(', ')})`]
      : [];
    await this.pending.later(...removals, 'COMMIT');
    await this.flush();
  }

  private async select<R extends AnyRow>(sql: string, params: unknown[]): Promise<R[]> {
    await this.flush();
    const r = await this.db.query<{ row: string }>(sql, params);
    return r.rows.map((x) => deepFreeze(JSON.parse(x.row) as R));
  }

  protected async replaceState(data: DbData): Promise<void> {
    await this.flush();
    await this.db.query(`TRUNCATE row_index, list_counts, ${COLLECTION_NAMES.map(table).join(', ')}`);
    for (const name of COLLECTION_NAMES)
      for (const row of data[name] as readonly AnyRow[]) await this.write(name, row, true, false);
    // the lists counted at once; a table given many rows is analyzed, so that the plans made next see its size
    const large = COLLECTION_NAMES.filter((name) => data[name].length >= ANALYZED_ROWS).map(table);
    await this.later(countLists(), ...(large.length ? [`ANALYZE row_index, ${large.join(', ')}`] : []));
    // the counters move past every value the state holds
    const steps = (data.steps as readonly { seq: number }[]).reduce((m, s) => Math.max(m, s.seq + 1), 0);
    const blocks = data.accounts.reduce((m, a) => Math.max(m, (a.sandbox_block ?? -1) + 1), 0);
    await this.db.query("UPDATE seqs SET value = GREATEST(value, $1) WHERE name = 'steps'", [steps]);
    await this.db.query("UPDATE seqs SET value = GREATEST(value, $1) WHERE name = 'sandboxes'", [blocks]);
  }

  /** Writes a row and its index keys with the work's next round trip (PendingWrites.row). */
  private async write(name: CollectionName, row: AnyRow, fresh: boolean, counted = fresh): Promise<void> {
    this.ahead.set(aheadKey(name, row.data.id), row);
    this.wrote = true;
    await this.pending.row(name, row, fresh, counted);
  }

  /**
   * One page of an account's list in one statement (src/store/page.ts): its rows by the list's sort
   * key, and the counts that place the page in the list, so the list is never read whole.
   */
  private async page<R extends AnyRow>(name: CollectionName, accountId: string, w: PageWindow): Promise<PageRows<R>> {
    this.reading({ collection: name, accountId, window: w });
    const [after, before] = [windowKey(w.after), windowKey(w.before)];
    const ahead = this.pageAhead;
    if (ahead?.collection === name && ahead.accountId === accountId && sameWindow(ahead.window, w))
      return ahead.rows as PageRows<R>;
    // PostgreSQL's text holds no NUL: such a cursor is read against the whole list
    if (holdsNul(w))
      // cast: every collection's rows carry `id` and `inserted_at` (Keyed), which the generic R does not say
      return cutPage((await this.rows(name).list(accountId)) as unknown as R[] & Keyed[], w) as PageRows<R>;
    await this.flush();
    const found = await this.db.query<PageFound>(pageSql(name, w), [accountId, after, before, w.size]);
    return pageOf<R>(found.rows[0], w);
  }

  protected rows<K extends CollectionName>(name: K): RowStore<Collections[K]> {
    type R = Collections[K];
    const t = table(name);
    const one = async (id: string) => {
      this.reading({ collection: name, id });
      const key = aheadKey(name, id);
      if (this.ahead.has(key)) return deepFreeze(this.ahead.get(key)) as R | undefined;
      return (await this.select<R>(`SELECT row FROM ${t} WHERE id = $1`, [id]))[0];
    };
    return {
      get: one,
      list: (accountId) => this.select<R>(`SELECT row FROM ${t} WHERE account_id = $1 ORDER BY sort`, [accountId]),
      one: async (index, key) =>
        (
          await this.select<R>(
            `SELECT c.row FROM row_index i JOIN ${t} c ON c.id = i.id
             WHERE i.collection = $1 AND i.index_name = $2 AND i.key = $3 LIMIT 1`,
            [name, index, stored(key)],
          )
        )[0],
      many: (index, key) =>
        this.select<R>(
          `SELECT c.row FROM row_index i JOIN ${t} c ON c.id = i.id
           WHERE i.collection = $1 AND i.index_name = $2 AND i.key = $3 ORDER BY i.sort`,
          [name, index, stored(key)],
        ),
      all: () => this.select<R>(`SELECT row FROM ${t} ORDER BY sort`, []),
      page: (accountId, window) => this.page<R>(name, accountId, window),
      current: async (id) => (await this.select<R>(`SELECT row FROM ${t} WHERE id = $1 FOR UPDATE`, [id]))[0],
      insert: async (row, taken) => {
        this.pending.refusing(name, taken);
        await this.write(name, row, true);
      },
      replace: async (_before, after, taken) => {
        this.pending.refusing(name, taken);
        await this.write(name, after, false);
      },
      remove: async (row) => {
        this.ahead.set(aheadKey(name, row.data.id), undefined);
        const id = literal(row.data.id);
        await this.later(
          `DELETE FROM row_index WHERE collection = ${literal(name)} AND id = ${id}`,
          removeCounted(name, id),
        );
      },
    };
  }
}

/** Whether a window's cursors hold a NUL, which PostgreSQL's text cannot. */
const holdsNul = (w: PageWindow): boolean =>
  [w.after, w.before].some((k) => k?.some((part) => part.includes('\u0000')) ?? false);
