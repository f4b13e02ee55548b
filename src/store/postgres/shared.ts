/**
 * What instances over one PostgreSQL database share besides the records: the fault rules (a
 * firing is counted by one UPDATE, so `times: 1` fires once across them all), the request journal
 * (bounded by bytes like the in-memory one, trimmed every JOURNAL_TRIM_EVERY calls an instance
 * keeps; an unlogged table, so a call costs no disk flush: like the in-memory journal it is not
 * kept through a crash, of PostgreSQL here), and the snapshots with their files.
 */
import type {
  FaultRule,
  FaultRules,
  JournalFilter,
  JournalLog,
  JournalScope,
  Kept,
  Snapshot,
  SnapshotStore,
} from '../shared.js';
import type { PgStore } from './store.js';
import { templatePattern } from '../../domain/matching.js';
import type { DbData } from '../schema.js';

/**
 * The shared rules, and a copy of them each instance matches calls against: dropped when the rules
 * change (a firing included), here at once and on every other instance as it hears the change told
 * (`faults`); kept only while the other instances are heard.
 */
export class PgFaultRules implements FaultRules {
  private copy: FaultRule[] | undefined;
  /** Moves at each drop: rules read before it are not kept. */
  private generation = 0;

  constructor(private readonly db: PgStore) {
    db.peers.hear('faults', () => this.drop());
    db.peers.onLost(() => this.drop());
  }

  private drop(): void {
    this.copy = undefined;
    this.generation++;
  }

  /**
   * Runs a change whose statement tells the other instances (`notify`, its own parameters numbered
   * before). A change a call must see on every instance (`heard`: an added or removed rule) answers
   * once every instance heard its message, as a commit changing callers' rows does; a firing does not wait.
   */
  private async change<R extends object>(
    sql: (notify: string) => string,
    params: unknown[],
    heard = false,
  ): Promise<R[]> {
    const told = heard
      ? this.db.peers.tellingEchoed('faults', "''", params.length)
      : { ...this.db.peers.telling('faults', "''", params.length), heard: undefined };
    let rows: R[];
    try {
      rows = await this.db.query<R>(sql(told.sql), [...params, ...told.params]);
    } finally {
      this.drop();
    }
    // a statement that changed nothing told nothing: there is nothing to hear back
    if (rows.length) await told.heard?.();
    return rows;
  }

  async all(): Promise<FaultRule[]> {
    const rows = await this.db.query<{ rule: string; fired: number }>('SELECT rule, fired FROM faults ORDER BY seq');
    return rows.map((r) => ({ ...(JSON.parse(r.rule) as FaultRule), fired: r.fired }));
  }

  cached(): readonly FaultRule[] | undefined {
    return this.db.peers.hearing ? this.copy : undefined;
  }

  async live(): Promise<readonly FaultRule[]> {
    const kept = this.cached();
    if (kept) return kept;
    const generation = this.generation;
    const rules = await this.all();
    if (generation === this.generation && this.db.peers.hearing) this.copy = rules;
    return rules;
  }

  async count(): Promise<number> {
    return Number((await this.db.query<{ n: string }>('SELECT count(*) AS n FROM faults'))[0]?.n ?? 0);
  }

  async add(rule: FaultRule): Promise<void> {
    await this.change(
      (notify) => `WITH added AS (INSERT INTO faults (id, rule, fired) VALUES ($1, $2, $3) RETURNING 1)
        SELECT ${notify} FROM added`,
      [rule.id, JSON.stringify(rule), rule.fired],
      true,
    );
  }

  async remove(id: string): Promise<FaultRule | undefined> {
    const [row] = await this.change<{ rule: string; fired: number }>(
      (notify) => `WITH gone AS (DELETE FROM faults WHERE id = $1 RETURNING rule, fired)
        SELECT rule, fired, ${notify} FROM gone`,
      [id],
      true,
    );
    return row && { ...(JSON.parse(row.rule) as FaultRule), fired: row.fired };
  }

  async clear(): Promise<void> {
    await this.change((notify) => `WITH gone AS (DELETE FROM faults RETURNING 1) SELECT ${notify}`, [], true);
  }

  async take(rule: FaultRule): Promise<boolean> {
    const taken = await this.change(
      (notify) => `WITH taken AS (
         UPDATE faults SET fired = fired + 1 WHERE id = $1 AND ($2::integer IS NULL OR fired < $2) RETURNING 1)
       SELECT ${notify} FROM taken`,
      [rule.id, rule.times],
    );
    return taken.length > 0;
  }
}

/** The journal is trimmed to its bytes once every this many calls an instance keeps. */
export const JOURNAL_TRIM_EVERY = 200;

/** PostgreSQL's text holds no NUL: the columns searched drop it (the entry itself is JSON, which escapes it). */
const column = (s: string | null): string | null => s?.replace(/\u0000/g, '') ?? null;

/** The calls one statement keeps at most (calls that come while one is written wait for the next). */
export const JOURNAL_BATCH = 100;

interface Waiting {
  call: Omit<Kept, 'id'>;
  resolve(kept: Kept): void;
  reject(e: unknown): void;
}

/**
 * The journal's statement: the calls of `$1`…`$9` (arrays, one element a call, in order) and their
 * entries (`$10`, one JSON array: an entry is long, and a text[] element is escaped character by
 * character in JavaScript, where JSON.stringify escapes natively) kept, each with its place in the
 * bytes journaled so far (`upto`: the oldest past the bound are one range); the other instances are
 * told of each in the same statement (their live readers show it).
 */
function keepSql(tell: string): string {
  return `WITH input AS (
       SELECT c.api, c.at, c.method, c.path, c.operation_id, c.account_id, c.status, c.bytes, c.trace_id,
         e.entry::text AS entry, c.ord
       FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::integer[], $8::integer[],
         $9::text[])
         WITH ORDINALITY AS c(api, at, method, path, operation_id, account_id, status, bytes, trace_id, ord)
       JOIN json_array_elements($10::json) WITH ORDINALITY AS e(entry, ord) ON e.ord = c.ord),
     added AS (SELECT sum(bytes) AS n FROM input),
     total AS (
       INSERT INTO journal_bytes SELECT true, added.n FROM added ON CONFLICT (one)
       DO UPDATE SET total = journal_bytes.total + excluded.total RETURNING total),
     kept AS (
       INSERT INTO journal (api, at, method, path, operation_id, account_id, status, bytes, trace_id, upto, entry)
       SELECT i.api, i.at, i.method, i.path, i.operation_id, i.account_id, i.status, i.bytes, i.trace_id,
         total.total - added.n + sum(i.bytes) OVER (ORDER BY i.ord), i.entry
       FROM input i, total, added ORDER BY i.ord RETURNING id, upto)
     SELECT kept.id, kept.upto, ${tell} FROM kept ORDER BY kept.upto`;
}

/**
 * The journal over PostgreSQL. A call is kept by one statement before it is answered; calls that
 * come while a statement runs are kept together by the next one (one round trip for them all), so
 * under load the journal costs a fraction of a round trip a call, and a call answered is still in
 * the journal every instance reads.
 */
export class PgJournalLog implements JournalLog {
  private appended = 0;
  private waiting: Waiting[] = [];
  private writing = false;

  constructor(
    private readonly db: PgStore,
    private readonly limitBytes: number,
    /** The calls of no account kept at most (the engine's SERVER_CALLS_KEPT). */
    private readonly serverCallsKept: number,
  ) {}

  append(call: Omit<Kept, 'id'>): Promise<Kept> {
    return new Promise((resolve, reject) => {
      this.waiting.push({ call, resolve, reject });
      if (!this.writing) void this.write();
    });
  }

  /** Keeps the calls waiting, a statement at a time, until none waits. */
  private async write(): Promise<void> {
    this.writing = true;
    while (this.waiting.length) {
      const batch = this.waiting.splice(0, JOURNAL_BATCH);
      try {
        const ids = await this.keep(batch.map((w) => w.call));
        batch.forEach((w, i) => w.resolve({ ...w.call, id: ids[i] ?? 0 }));
      } catch (e) {
        for (const w of batch) w.reject(e);
      }
    }
    this.writing = false;
  }

  /** Keeps `calls` in one statement; answers their ids, in order. */
  private async keep(calls: Omit<Kept, 'id'>[]): Promise<number[]> {
    // a column a parameter: an array with an element for each call
    const of = <T>(value: (call: Omit<Kept, 'id'>) => T) => calls.map(value);
    const columns = [
      of((c) => c.api),
      of((c) => c.at),
      of((c) => c.method),
      of((c) => column(c.path)),
      of((c) => column(c.operation_id)),
      of((c) => column(c.account_id)),
      of((c) => c.status),
      of((c) => c.bytes),
      of((c) => c.trace_id ?? null),
      JSON.stringify(
        of((c) => ({
          ...c,
          requestBody: Buffer.isBuffer(c.requestBody) ? c.requestBody.toString('utf8') : c.requestBody,
          responseText: c.responseText.toString(),
        })),
      ),
    ];
    const tell = this.db.peers.telling('journal', 'kept.id::text', 10);
    // in the order of `upto`, which is the order of the calls (each adds its bytes, more than none)
    const rows = await this.db.query<{ id: string; upto: string }>(
      keepSql(tell.sql),
      [...columns, ...tell.params],
      true,
    );
    const before = this.appended;
    this.appended += calls.length;
    const last = rows[rows.length - 1];
    if (last && Math.floor(before / JOURNAL_TRIM_EVERY) !== Math.floor(this.appended / JOURNAL_TRIM_EVERY)) {
      await this.db.query('DELETE FROM journal WHERE upto <= $1', [Number(last.upto) - this.limitBytes]);
      // the calls of no account: the newest SERVER_CALLS_KEPT (harness/journal.ts), give or take a trim's worth
      await this.db.query(
        `DELETE FROM journal WHERE account_id IS NULL AND id < (SELECT coalesce(min(id), 0) FROM
           (SELECT id FROM journal WHERE account_id IS NULL ORDER BY id DESC LIMIT $1) newest)`,
        [this.serverCallsKept],
      );
    }
    return rows.map((r) => Number(r.id));
  }

  async page(f: JournalFilter, limit: number, before: number) {
    const where: string[] = [];
    const params: unknown[] = [];
    const is = (sql: string, value: unknown) => {
      params.push(value);
      where.push(sql.replace('?', `$${params.length}`));
    };
    const api = f.api ?? 'v1';
    if (api !== 'all')
      where.push(`api = '${api === 'v1' ? 'openapi' : api === 'smpp' || api === 'step' ? api : 'sim'}'`);
    // a template of the contract names every path it routes; a literal path itself (src/domain/matching.ts)
    if (f.path) {
      if (/[{}]/.test(f.path)) is('path ~ ?', templatePattern(f.path).source);
      else is('path = ?', column(f.path));
    }
    if (f.method) is('method = ?', f.method.toUpperCase());
    if (f.status !== undefined) is('status = ?', f.status);
    if (f.operation_id) is('operation_id = ?', column(f.operation_id));
    if (f.account_id) is('account_id = ?', column(f.account_id));
    if (f.trace_id) is('trace_id = ?', f.trace_id);
    if (f.since) is('at >= ?', f.since);
    if (f.until) is('at <= ?', f.until);
    const all = where.length ? `WHERE ${where.join(' AND ')}` : '';
    const [counted] = await this.db.query<{ n: string }>(`SELECT count(*) AS n FROM journal ${all}`, params);
    const older = Number.isFinite(before) ? `${all ? `${all} AND` : 'WHERE'} id < ${Math.trunc(before)}` : all;
    const rows = await this.db.query<{ id: string; entry: string }>(
      `SELECT id, entry FROM journal ${older} ORDER BY id DESC LIMIT ${limit + 1}`,
      params,
    );
    const found = rows.slice(0, limit).map((r) => ({ ...(JSON.parse(r.entry) as Kept), id: Number(r.id) }));
    return { count: Number(counted?.n ?? 0), found, more: rows.length > limit };
  }

  async get(id: number): Promise<Kept | undefined> {
    const [row] = await this.db.query<{ entry: string }>('SELECT entry FROM journal WHERE id = $1', [id]);
    return row && { ...(JSON.parse(row.entry) as Kept), id };
  }

  async bytes(): Promise<number> {
    const [row] = await this.db.query<{ n: string }>('SELECT coalesce(sum(bytes), 0) AS n FROM journal');
    return Number(row?.n ?? 0);
  }

  async clear(scope?: JournalScope): Promise<void> {
    if (!scope) await this.db.query('DELETE FROM journal');
    else if ('only' in scope) await this.db.query('DELETE FROM journal WHERE account_id = $1', [scope.only]);
    else
      await this.db.query('DELETE FROM journal WHERE account_id IS NULL OR NOT (account_id = ANY($1))', [
        [...scope.except],
      ]);
  }
}

export class PgSnapshotStore implements SnapshotStore {
  constructor(private readonly db: PgStore) {}

  async list(): Promise<{ name: string; bytes: number }[]> {
    const rows = await this.db.query<{ name: string; bytes: string }>('SELECT name, bytes FROM snapshots ORDER BY seq');
    return rows.map((r) => ({ name: r.name, bytes: Number(r.bytes) }));
  }

  async get(name: string): Promise<Snapshot | undefined> {
    const [row] = await this.db.query<{ data: string; bytes: string }>(
      'SELECT data, bytes FROM snapshots WHERE name = $1',
      [name],
    );
    if (!row) return undefined;
    const files = await this.db.query<{ id: string; bytes: Buffer }>(
      'SELECT id, bytes FROM snapshot_files WHERE name = $1',
      [name],
    );
    return {
      data: JSON.parse(row.data) as DbData,
      files: new Map(files.map((f) => [f.id, f.bytes])),
      bytes: Number(row.bytes),
    };
  }

  async put(name: string, snapshot: Snapshot): Promise<void> {
    await this.db.transaction(async (query) => {
      await query('DELETE FROM snapshot_files WHERE name = $1', [name]);
      await query(
        `INSERT INTO snapshots (name, bytes, data) VALUES ($1, $2, $3)
         ON CONFLICT (name) DO UPDATE SET bytes = excluded.bytes, data = excluded.data`,
        [name, snapshot.bytes, JSON.stringify(snapshot.data)],
      );
      for (const [id, bytes] of snapshot.files)
        await query('INSERT INTO snapshot_files (name, id, bytes) VALUES ($1, $2, $3)', [name, id, bytes]);
    });
  }
}
