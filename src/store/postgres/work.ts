/** A unit of work on PostgreSQL: the collections over its statements (statements.ts), its writes sent together. */
import pg from 'pg';
import { deepFreeze, type RowStore, type SeqName, type WorkFiles } from '../collections.js';
import {
  COLLECTION_NAMES,
  emptyLists,
  stateOf,
  type AnyRow,
  type CollectionName,
  type Collections,
  type DbData,
} from '../schema.js';
import { cutPage, type PageRows, type PageWindow } from '../page.js';
import { CALLER_COLLECTIONS, UnitOfWork, type PeerTopic } from '../store.js';
import type { PgPeers } from './peers.js';
import type { Lease } from './statements.js';
import { literal, PendingWrites } from './pending.js';
import { pageOf, windowKey, type PageFound } from './answers.js';
import {
  beginAccount,
  BEGIN_WHOLE_STATE,
  countLists,
  EXPORT_STATE,
  pageSql,
  removeCounted,
  stored,
  table,
} from './sql.js';

type Keyed = { data: { id: string; inserted_at: string } };

/** A row the work read with its first statement, or wrote (PgWork's `ahead`), by collection and id. */
export const aheadKey = (name: CollectionName, id: string): string => `${name}\u0001${id}`;

/** A collection given at least this many rows by a whole state is analyzed with it (replaceAll). */
const ANALYZED_ROWS = 500;

export class PgWork extends UnitOfWork {
  /** Rows read with the work's first statement (its account's clock) or written by it (aheadKey). */
  private readonly ahead = new Map<string, AnyRow | undefined>();
  /** A transaction is open (what a write's commit ends). */
  open = false;
  /** The accounts whose callers' rows (CALLER_COLLECTIONS) the work changed; `*`: every account's. */
  readonly callersChanged = new Set<string>();

  constructor(
    private readonly db: Lease,
    readOnly: boolean,
    global: boolean,
    private readonly hooks: (() => void | Promise<void>)[],
    private readonly peers: PgPeers,
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
  }

  /** NOTIFY in a transaction is delivered at its commit, and only then. */
  protected override async notify(topic: PeerTopic, payload: string): Promise<void> {
    const told = this.peers.telling(topic, '$1::text', 1);
    await this.db.query(`SELECT ${told.sql}`, [payload, ...told.params]);
  }

  protected storedFiles(): WorkFiles {
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

  protected onCommit(fn: () => void | Promise<void>): void {
    this.hooks.push(fn);
  }

  protected async sequence(name: SeqName): Promise<number> {
    const r = await this.db.query<{ value: string }>(
      'UPDATE seqs SET value = value + 1 WHERE name = $1 RETURNING value - 1 AS value',
      [name],
    );
    return Number(r.rows[0]?.value ?? 0);
  }

  protected async dropAccount(accountId: string): Promise<void> {
    this.callersChanged.add(accountId);
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

  async exportState(): Promise<DbData> {
    await this.flush();
    const state = emptyLists();
    const all = await this.db.query<{ c: number; row: string }>(EXPORT_STATE);
    for (const { c, row } of all.rows)
      state[COLLECTION_NAMES[c] as CollectionName].push(deepFreeze(JSON.parse(row) as AnyRow));
    return stateOf(state);
  }

  private readonly fileRemovals: string[] = [];

  /** The work's writes not sent yet: sent together before its next read, or with its COMMIT. */
  private readonly pending: PendingWrites;

  private flush(): Promise<void> {
    return this.pending.flush();
  }

  private later(...statements: string[]): Promise<void> {
    return this.pending.later(...statements);
  }

  /**
   * Commits: the writes not sent yet, the files to remove, the other instances told of callers'
   * rows changed, and COMMIT, in one round trip; then waits for every instance to hear that message (PgPeers.echoed).
   */
  async commit(): Promise<void> {
    const removals = this.fileRemovals.length
      ? [`DELETE FROM files WHERE id IN (${this.fileRemovals.map(literal).join(', ')})`]
      : [];
    const told = this.callersChanged.size ? this.peers.echoed('callers', [...this.callersChanged].join(',')) : null;
    await this.pending.later(...removals, ...(told ? [told.sql] : []), 'COMMIT');
    await this.flush();
    // the answer goes once every other instance dropped its copies: its next call reads the rows again
    await told?.heard();
  }

  private async select<R extends AnyRow>(sql: string, params: unknown[]): Promise<R[]> {
    await this.flush();
    const r = await this.db.query<{ row: string }>(sql, params);
    return r.rows.map((x) => deepFreeze(JSON.parse(x.row) as R));
  }

  protected async replaceState(data: DbData): Promise<void> {
    this.callersChanged.add('*');
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
    this.changing(name, row);
    await this.pending.row(name, row, fresh, counted);
  }

  /**
   * One page of an account's list in one statement (src/store/page.ts): its rows by the list's sort
   * key, and the counts that place the page in the list, so the list is never read whole.
   */
  private async page<R extends AnyRow>(name: CollectionName, accountId: string, w: PageWindow): Promise<PageRows<R>> {
    const [after, before] = [windowKey(w.after), windowKey(w.before)];
    // PostgreSQL's text holds no NUL: such a cursor is read against the whole list
    if (holdsNul(w))
      // cast: every collection's rows carry `id` and `inserted_at` (Keyed), which the generic R does not say
      return cutPage((await this.rows(name).list(accountId)) as unknown as R[] & Keyed[], w) as PageRows<R>;
    await this.flush();
    const found = await this.db.query<PageFound>(pageSql(name, w), [accountId, after, before, w.size]);
    return pageOf<R>(found.rows[0], w);
  }

  /** Notes a change of a caller's rows (CALLER_COLLECTIONS): told to every instance with the commit. */
  private changing(name: CollectionName, row: AnyRow): void {
    if (CALLER_COLLECTIONS.includes(name)) this.callersChanged.add(row.account_id);
  }

  protected rows<K extends CollectionName>(name: K): RowStore<Collections[K]> {
    type R = Collections[K];
    const t = table(name);
    const one = async (id: string) => {
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
      head: (accountId, n) =>
        this.select<R>(`SELECT row FROM ${t} WHERE account_id = $1 ORDER BY sort LIMIT $2`, [accountId, n]),
      count: async (accountId) => {
        await this.flush();
        const counted = await this.db.query<{ n: string }>(
          'SELECT n FROM list_counts WHERE collection = $1 AND account_id = $2',
          [name, accountId],
        );
        return Number(counted.rows[0]?.n ?? 0);
      },
      firsts: () => this.select<R>(`SELECT DISTINCT ON (account_id) row FROM ${t} ORDER BY account_id, sort`, []),
      size: async () => {
        await this.flush();
        const counted = await this.db.query<{ n: string }>(
          'SELECT coalesce(sum(n), 0) AS n FROM list_counts WHERE collection = $1',
          [name],
        );
        return Number(counted.rows[0]?.n ?? 0);
      },
      all: () => this.select<R>(`SELECT row FROM ${t} ORDER BY sort`, []),
      page: (accountId, window) => this.page<R>(name, accountId, window),
      current: async (id) => (await this.select<R>(`SELECT row FROM ${t} WHERE id = $1 FOR UPDATE`, [id]))[0],
      insert: async (row, onDuplicate) => {
        this.pending.onDuplicateOf(name, onDuplicate);
        await this.write(name, row, true);
      },
      replace: async (_before, after, onDuplicate) => {
        this.pending.onDuplicateOf(name, onDuplicate);
        await this.write(name, after, false);
      },
      remove: async (row) => {
        this.ahead.set(aheadKey(name, row.data.id), undefined);
        this.changing(name, row);
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
