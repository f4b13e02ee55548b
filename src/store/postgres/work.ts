/** A unit of work on PostgreSQL: the collections over its statements (statements.ts), its writes sent together. */
import pg from 'pg';
import { deepFreeze, refusal, type Taken } from '../table.js';
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
import type { CallerLookup, CallerRows, PageAhead, PeerTopic, SeqName, WorkFiles } from '../store.js';
import { WorkBase, type RowStore } from '../work_base.js';
import type { PgPeers } from './peers.js';
import { indexKeys } from './index_keys.js';
import type { Queries } from './statements.js';
import { callerRows, pageOf, parsed, violationOf, windowKey, type CallerFound, type PageFound } from './answers.js';
import {
  callerSql,
  countedIn,
  countLists,
  EXPORT_STATE,
  pageSql,
  removeCounted,
  sortOf,
  stored,
  table,
} from './sql.js';

type Keyed = { data: { id: string; inserted_at: string } };

/** A row read ahead of a unit of work (PgWork's `ahead`), by collection and id. */
export const aheadKey = (name: CollectionName, id: string): string => `${name}\u0001${id}`;

/** A collection given at least this many rows by a whole state is analyzed with it (replaceAll). */
const ANALYZED_ROWS = 500;

/** Writes a unit of work holds before it sends them on anyway (a whole state replaced): statements, and bytes. */
const PENDING_STATEMENTS = 500;
const PENDING_BYTES = 1 << 20;

/** A value as an SQL literal (the statements sent in one round trip carry their values in their text). */
const literal = (value: string): string => pg.escapeLiteral(value);

export class PgWork extends WorkBase {
  constructor(
    private readonly db: Queries,
    readOnly: boolean,
    global: boolean,
    private readonly hooks: (() => void | Promise<void>)[],
    private readonly peers: PgPeers,
    /** Rows read with the work's first statement (aheadKey): read from here until the work writes them. */
    private readonly ahead = new Map<string, AnyRow | undefined>(),
    /** A page read with the caller's key: a read-only work's page of the same list and window. */
    private readonly pageAhead?: PageAhead,
  ) {
    super(readOnly, global);
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

  /** The caller's rows read as the work began (WorkScope `callerOf`): the answer to the same lookup, once. */
  private begun?: { lookup: CallerLookup; rows: CallerRows };

  begunWith(lookup: CallerLookup, rows: CallerRows): void {
    this.begun = { lookup, rows };
  }

  /** The caller's rows (CallerRows) in one statement. */
  protected override async caller(lookup: CallerLookup): Promise<CallerRows> {
    const begun = this.begun;
    this.begun = undefined;
    if (
      begun &&
      begun.lookup.index === lookup.index &&
      begun.lookup.value === lookup.value &&
      !lookup.ahead &&
      !lookup.page
    )
      return begun.rows;
    const { ahead } = lookup;
    // a window whose cursor holds a NUL, which text cannot, is not read ahead: its handler's page reads it
    const page = lookup.page && !holdsNul(lookup.page.window) ? lookup.page : undefined;
    const params: unknown[] = [lookup.index, stored(lookup.value)];
    if (ahead) params.push(ahead.id);
    if (page) params.push(windowKey(page.window.after), windowKey(page.window.before), page.window.size);
    const [r] = (await this.db.query<CallerFound>(callerSql(ahead?.collection, page), params)).rows;
    const rows = callerRows(r);
    const key = rows.key;
    return {
      ...rows,
      ...(ahead && { ahead: { ...ahead, row: parsed(r?.ahead) } }),
      ...(page &&
        key &&
        r && { page: { ...page, accountId: key.account_id, rows: pageOf(r as PageFound, page.window) } }),
    };
  }

  private readonly fileRemovals: string[] = [];

  /** The errors its writes asked for, by collection, should an index refuse one (`Taken`). */
  private readonly taken = new Map<CollectionName, Taken>();

  private refusing(name: CollectionName, taken: Taken | undefined): void {
    if (taken) this.taken.set(name, { ...this.taken.get(name), ...taken });
  }

  /** The work's writes not sent yet: sent together before its next read, or with its COMMIT. */
  private pending: string[] = [];
  private pendingBytes = 0;

  /** Sends the writes not sent yet (before a read, which must see them), in one round trip. */
  private async flush(): Promise<void> {
    if (!this.pending.length) return;
    const text = this.pending.join(';\n');
    this.pending = [];
    this.pendingBytes = 0;
    await this.db.batch(text).catch((e: unknown) => {
      const violation = violationOf(e);
      throw violation ? refusal(violation, this.taken.get(violation.collection as CollectionName)) : e;
    });
  }

  /** Queues a write; a long queue (a whole state replaced) is sent on, not held to the end. */
  private async later(...statements: string[]): Promise<void> {
    this.pending.push(...statements);
    this.pendingBytes += statements.reduce((n, sql) => n + sql.length, 0);
    if (this.pending.length >= PENDING_STATEMENTS || this.pendingBytes >= PENDING_BYTES) await this.flush();
  }

  /** Commits: the writes not sent yet, the files to remove and COMMIT, in one round trip. */
  async commit(): Promise<void> {
    if (this.fileRemovals.length)
      this.pending.push(`DELETE FROM files WHERE id IN (${this.fileRemovals.map(literal).join(', ')})`);
    this.pending.push('COMMIT');
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

  /**
   * Writes a row and its index keys, with the work's next round trip (`later`): a new row is
   * inserted, refused with its keys if its id is taken; a changed one replaces the stored row and
   * its old keys. A unique key another row holds is refused by the index's constraint. A refusal
   * ends the work, when the statements are sent, with UniqueViolation (`violationOf`).
   */
  private async write(name: CollectionName, row: AnyRow, fresh: boolean, counted = fresh): Promise<void> {
    this.ahead.set(aheadKey(name, row.data.id), row);
    const [id, sort] = [literal(row.data.id), literal(sortOf(name, row))];
    const values = `(${id}, ${literal(row.account_id)}, ${sort}, ${literal(JSON.stringify(row))})`;
    const { keys } = indexKeys(name, row);
    const keyRows = keys.map(
      (k) => `(${literal(name)}, ${literal(k.index)}, ${literal(k.key)}, ${id}, ${sort}, ${k.unique})`,
    );
    const insertKeys = keyRows.length
      ? [`INSERT INTO row_index (collection, index_name, key, id, sort, is_unique) VALUES ${keyRows.join(', ')}`]
      : [];
    const insert = `INSERT INTO ${table(name)} (id, account_id, sort, row) VALUES ${values}`;
    if (fresh) return this.later(insert, ...insertKeys, ...(counted ? [countedIn(name, literal(row.account_id))] : []));
    await this.later(
      `${insert} ON CONFLICT (id) DO UPDATE SET account_id = excluded.account_id, sort = excluded.sort, row = excluded.row`,
      `DELETE FROM row_index WHERE collection = ${literal(name)} AND id = ${id}`,
      ...insertKeys,
    );
  }

  /**
   * One page of an account's list in one statement (src/store/page.ts): its rows by the list's sort
   * key, and the counts that place the page in the list, so the list is never read whole.
   */
  private async page<R extends AnyRow>(name: CollectionName, accountId: string, w: PageWindow): Promise<PageRows<R>> {
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
        this.refusing(name, taken);
        await this.write(name, row, true);
      },
      replace: async (_before, after, taken) => {
        this.refusing(name, taken);
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
