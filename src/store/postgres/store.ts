/**
 * The PostgreSQL backend of the store (`--store postgres://…` or DATABASE_URL), for several
 * dipswitch instances over one database. A table per collection holds each row whole as JSON text
 * (not `jsonb`, which cannot hold the NUL a caller's string may carry) with its account and its
 * list order; the indexes of src/store/schema.ts are rows of one index table whose unique keys are
 * a real unique constraint. One unit of work that writes is one transaction: account work holds a
 * transaction-scoped advisory lock of its account (and a shared one of the whole state),
 * whole-state work the exclusive one. Reads take no lock and no transaction (at READ COMMITTED a
 * transaction would give each statement its own snapshot all the same). Statements are prepared
 * once per connection. The schema is versioned (`schema_version`) and migrated at start under a
 * session advisory lock, so instances starting together do not race.
 */
import pg from 'pg';
import type { TableOps } from '../collections.js';
import type { Logger as FullLogger } from '../../deps.js';
import { changed, deepFreeze, keysOf, UniqueViolation } from '../table.js';
import { namedFiles } from '../files.js';
import { COLLECTION_NAMES, emptyDb, type AnyRow, type CollectionName, type Collections, type DbData } from '../rows.js';
import { SCHEMA, type TableDef } from '../schema.js';
import {
  StorageUnavailable,
  UnitOfWork,
  type PeerTopic,
  type Peers,
  type SeqName,
  type Store,
  type WorkScope,
} from '../store.js';

/** The store only warns. */
type Logger = Pick<FullLogger, 'warn'>;

/** Connections one instance holds at most (each unit of work takes one for its transaction). */
export const PG_POOL_SIZE = 10;

/** The channel instances tell each other on (LISTEN/NOTIFY). */
const CHANNEL = 'dipswitch';
/** After the listening connection broke, it connects again this much later. */
const RELISTEN_MS = 1_000;

/** Advisory lock keys: the whole state (shared by account work, exclusive for whole-state work), and migrations. */
const STATE_LOCK = 7_406_001;
const MIGRATION_LOCK = 7_406_002;
/** The first key of the two-key advisory locks of accounts (the second is the hash of the account's id). */
const ACCOUNT_LOCKS = 7406;

const table = (name: CollectionName) => `c_${name}`;

/** The second key of an account's advisory lock: a 32-bit FNV-1a hash of its id (a number, so no text goes into SQL). */
function accountLock(accountId: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < accountId.length; i++) h = Math.imul(h ^ accountId.charCodeAt(i), 0x01000193);
  return h | 0;
}

/** The migrations, in order; each runs once, in its own transaction. */
const MIGRATIONS: string[] = [
  [
    ...COLLECTION_NAMES.map(
      (name) =>
        `CREATE TABLE ${table(name)} (id text PRIMARY KEY, account_id text NOT NULL, sort text COLLATE "C" NOT NULL, row text NOT NULL);
         CREATE INDEX ${table(name)}_list ON ${table(name)} (account_id, sort);`,
    ),
    `CREATE TABLE row_index (collection text NOT NULL, index_name text NOT NULL, key text NOT NULL, id text NOT NULL,
       sort text COLLATE "C" NOT NULL, is_unique boolean NOT NULL);
     CREATE UNIQUE INDEX row_index_unique ON row_index (collection, index_name, key) WHERE is_unique;
     CREATE INDEX row_index_lookup ON row_index (collection, index_name, key, sort);
     CREATE INDEX row_index_row ON row_index (collection, id);
     CREATE TABLE files (id text PRIMARY KEY, bytes bytea NOT NULL);
     CREATE TABLE seqs (name text PRIMARY KEY, value bigint NOT NULL);
     INSERT INTO seqs VALUES ('steps', 0), ('sandboxes', 0);`,
  ].join('\n'),
  // what the instances share besides the records (src/store/postgres/shared.ts)
  `CREATE TABLE faults (seq bigserial PRIMARY KEY, id text NOT NULL UNIQUE, rule text NOT NULL, fired integer NOT NULL);
   CREATE UNLOGGED TABLE journal (id bigserial PRIMARY KEY, api text NOT NULL, at text COLLATE "C" NOT NULL,
     method text NOT NULL, path text NOT NULL, operation_id text, account_id text, status integer NOT NULL,
     bytes integer NOT NULL, upto bigint NOT NULL, entry text NOT NULL);
   CREATE INDEX journal_upto ON journal (upto);
   CREATE UNLOGGED TABLE journal_bytes (one boolean PRIMARY KEY, total bigint NOT NULL);
   CREATE TABLE snapshots (seq bigserial PRIMARY KEY, name text NOT NULL UNIQUE, bytes bigint NOT NULL, data text NOT NULL);
   CREATE TABLE snapshot_files (name text NOT NULL, id text NOT NULL, bytes bytea NOT NULL, PRIMARY KEY (name, id));`,
];

/** A row's place in its list: `inserted_at` then id, or for steps the due time then the order scheduled. */
function sortOf(name: CollectionName, row: AnyRow): string {
  if (name === 'steps') {
    const step = row as Collections['steps'];
    return `${step.data.at}\u0001${String(step.seq).padStart(15, '0')}`;
  }
  return `${row.data.inserted_at}\u0001${row.data.id}`;
}

/**
 * PostgreSQL's text holds no NUL, which composite keys (schema.ts `key`) and callers' strings may:
 * a key is stored with `\` doubled and NUL as `\0` (one stored text per key, and back).
 */
const stored = (k: string): string => k.replace(/\\/g, '\\\\').replace(/\u0000/g, '\\0');

/**
 * Whether `e` says the database failed (it is down, refused the write, or the connection broke),
 * rather than dipswitch's own refusal or a constraint: the answer is then 503 `storage_unavailable`.
 */
function unavailable(e: unknown): boolean {
  if (e instanceof pg.DatabaseError) return !(e.code ?? '').startsWith('23');
  const err = e as NodeJS.ErrnoException;
  return typeof err?.syscall === 'string' || /Connection terminated|connection timeout/i.test(err?.message ?? '');
}

export class PgStore implements Store {
  readonly created: boolean;
  readonly location: string;

  readonly peers: PgPeers;

  private constructor(
    private readonly pool: pg.Pool,
    created: boolean,
    url: string,
    peers: PgPeers,
  ) {
    this.created = created;
    const u = new URL(url);
    u.password = u.password ? '***' : '';
    this.location = u.toString();
    this.peers = peers;
  }

  /**
   * Connects, migrates the schema (one instance at a time), listens to the other instances, and says
   * whether the database was empty. `instance` names this one among them.
   */
  static async open(url: string, logger: Logger, instance: string): Promise<PgStore> {
    const pool = new pg.Pool({ connectionString: url, max: PG_POOL_SIZE });
    pool.on('error', (e) => logger.warn(`store: an idle PostgreSQL connection failed (${e.message})`));
    const client = await pool.connect();
    let created = false;
    try {
      await client.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK]);
      await client.query('CREATE TABLE IF NOT EXISTS schema_version (version integer NOT NULL)');
      const found = await client.query<{ version: number }>('SELECT version FROM schema_version');
      const version = found.rows[0]?.version ?? 0;
      if (version > MIGRATIONS.length)
        throw new Error(`the database's schema is version ${version}; this dipswitch knows ${MIGRATIONS.length}`);
      for (let v = version; v < MIGRATIONS.length; v++) {
        await client.query('BEGIN');
        await client.query(MIGRATIONS[v] ?? '');
        await client.query(
          v === 0 ? 'INSERT INTO schema_version VALUES (1)' : 'UPDATE schema_version SET version = $1',
          v === 0 ? [] : [v + 1],
        );
        await client.query('COMMIT');
      }
      created = (await client.query(`SELECT 1 FROM ${table('accounts')} LIMIT 1`)).rowCount === 0;
    } catch (e) {
      await client.query('ROLLBACK').catch(() => undefined);
      client.release();
      await pool.end();
      throw e;
    }
    await client.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK]);
    client.release();
    const peers = new PgPeers(url, pool, instance, logger);
    try {
      await peers.listen();
    } catch (e) {
      await pool.end();
      throw e;
    }
    return new PgStore(pool, created, url, peers);
  }

  async run<T>(scope: WorkScope, fn: (work: UnitOfWork) => Promise<T>): Promise<T> {
    let client: pg.PoolClient;
    try {
      client = await this.pool.connect();
    } catch (e) {
      throw new StorageUnavailable(e);
    }
    const afterCommit: (() => void | Promise<void>)[] = [];
    let result: T;
    // reads take no transaction: at READ COMMITTED each statement sees its own snapshot either way
    const reads = 'read' in scope;
    try {
      // the transaction and its lock in one round trip
      if ('global' in scope) await client.query(`BEGIN; SELECT pg_advisory_xact_lock(${STATE_LOCK})`);
      if ('account' in scope)
        await client.query(
          `BEGIN; SELECT pg_advisory_xact_lock_shared(${STATE_LOCK}), pg_advisory_xact_lock(${ACCOUNT_LOCKS}, ${accountLock(scope.account)})`,
        );
      const work = new PgWork(prepared(client), reads, 'global' in scope, afterCommit, this.peers);
      result = await fn(work.uow);
      if (!reads) {
        await work.beforeCommit();
        await client.query('COMMIT');
      }
    } catch (e) {
      if (!reads) await client.query('ROLLBACK').catch(() => undefined);
      client.release();
      if (e instanceof StorageUnavailable || !unavailable(e)) throw e;
      throw new StorageUnavailable(e);
    }
    client.release();
    for (const hook of afterCommit) await hook();
    return result;
  }

  /** One statement outside any unit of work (src/store/postgres/shared.ts); the database failing is StorageUnavailable. */
  async query<R extends pg.QueryResultRow>(sql: string, params: unknown[] = []): Promise<R[]> {
    try {
      return (await this.pool.query<R>(sql, params)).rows;
    } catch (e) {
      throw unavailable(e) ? new StorageUnavailable(e) : e;
    }
  }

  /** Statements in one transaction, outside the store's locks (src/store/postgres/shared.ts). */
  async transaction(
    fn: (query: (sql: string, params?: unknown[]) => Promise<unknown>) => Promise<void>,
  ): Promise<void> {
    let client: pg.PoolClient;
    try {
      client = await this.pool.connect();
    } catch (e) {
      throw new StorageUnavailable(e);
    }
    try {
      await client.query('BEGIN');
      await fn((sql, params) => client.query(sql, params));
      await client.query('COMMIT');
    } catch (e) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw unavailable(e) ? new StorageUnavailable(e) : e;
    } finally {
      client.release();
    }
  }

  async close(): Promise<void> {
    await this.peers.close();
    await this.pool.end();
  }
}

/**
 * The other instances, over PostgreSQL's LISTEN/NOTIFY on one connection of its own (connected
 * again after it breaks). What is told is a hint to look again: nothing is lost with a missed one.
 */
class PgPeers implements Peers {
  private readonly handlers = new Map<PeerTopic, ((payload: string) => void)[]>();
  private client: pg.Client | undefined;
  private closed = false;
  private retry: NodeJS.Timeout | undefined;

  constructor(
    private readonly url: string,
    private readonly pool: pg.Pool,
    private readonly instance: string,
    private readonly logger: Logger,
  ) {}

  async listen(): Promise<void> {
    const client = new pg.Client({ connectionString: this.url });
    client.on('error', (e) => {
      if (this.closed || this.client !== client) return;
      this.logger.warn(`store: the connection listening to other instances failed (${e.message}); connecting again`);
      this.client = undefined;
      void client.end().catch(() => undefined);
      this.again();
    });
    client.on('notification', (n) => this.heard(n.payload ?? ''));
    await client.connect();
    await client.query(`LISTEN ${CHANNEL}`);
    if (this.closed) await client.end();
    else this.client = client;
  }

  private again(): void {
    this.retry = setTimeout(() => {
      if (!this.closed) this.listen().catch(() => this.again());
    }, RELISTEN_MS);
    this.retry.unref();
  }

  private heard(text: string): void {
    let message: { from?: string; topic?: PeerTopic; payload?: string };
    try {
      message = JSON.parse(text) as typeof message;
    } catch {
      return;
    }
    if (message.from === this.instance || !message.topic) return;
    for (const fn of this.handlers.get(message.topic) ?? []) fn(message.payload ?? '');
  }

  /**
   * What tells the other instances from inside a statement (the one place a message is made: from
   * whom, on what, and what): an expression for its select list, `payload` being an SQL expression of
   * the text told, and the parameters the expression numbers after the statement's own `count`.
   */
  telling(topic: PeerTopic, payload: string, count: number): { sql: string; params: string[] } {
    const [channel, from, about] = [count + 1, count + 2, count + 3].map((n) => `$${n}::text`);
    return {
      sql: `pg_notify(${channel}, json_build_object('from', ${from}, 'topic', ${about}, 'payload', ${payload})::text)`,
      params: [CHANNEL, this.instance, topic],
    };
  }

  tell(topic: PeerTopic, payload: string): void {
    const told = this.telling(topic, '$1::text', 1);
    this.pool
      .query(`SELECT ${told.sql}`, [payload, ...told.params])
      .catch((e: Error) => this.logger.warn(`store: could not tell the other instances (${e.message})`));
  }

  hear(topic: PeerTopic, fn: (payload: string) => void): void {
    this.handlers.set(topic, [...(this.handlers.get(topic) ?? []), fn]);
  }

  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.retry);
    const client = this.client;
    this.client = undefined;
    await client?.end().catch(() => undefined);
  }
}

/** What a unit of work sends its statements through. */
interface Queries {
  query<R extends pg.QueryResultRow = pg.QueryResultRow>(text: string, values?: unknown[]): Promise<pg.QueryResult<R>>;
}

/** The names of the statements prepared, one per text (a unit of work's texts are a fixed few per collection). */
const statementNames = new Map<string, string>();

/**
 * A connection whose statements are prepared once (on each connection) and then only executed:
 * PostgreSQL parses and plans a unit of work's few texts once, not at every call.
 */
function prepared(client: pg.PoolClient): Queries {
  return {
    query: <R extends pg.QueryResultRow>(text: string, values: unknown[] = []) => {
      let name = statementNames.get(text);
      if (name === undefined) statementNames.set(text, (name = `dipswitch_${statementNames.size}`));
      return client.query<R>({ name, text, values });
    },
  };
}

/** Every row of every collection in one round trip, by collection (its place in COLLECTION_NAMES) and list order. */
const EXPORT_STATE = `${COLLECTION_NAMES.map((name, c) => `SELECT ${c} AS c, sort, row FROM ${table(name)}`).join(' UNION ALL ')}
  ORDER BY c, sort`;

/**
 * The statement inserting a row's index keys, given the numbers of its parameters: the collection,
 * the row's id and sort, and (from `keys` on) the keys' index names, keys and uniqueness as arrays.
 * A unique key another row holds is not inserted (and so not returned).
 */
function insertKeys(n: { collection: number; id: number; sort: number; keys: number }, onlyIf = ''): string {
  return `INSERT INTO row_index (collection, index_name, key, id, sort, is_unique)
    SELECT $${n.collection}, k.index_name, k.key, $${n.id}, $${n.sort}, k.is_unique
    FROM unnest($${n.keys}::text[], $${n.keys + 1}::text[], $${n.keys + 2}::boolean[]) AS k(index_name, key, is_unique)
    ${onlyIf}
    ON CONFLICT (collection, index_name, key) WHERE is_unique DO NOTHING
    RETURNING index_name, key`;
}

class PgWork {
  readonly uow: UnitOfWork;

  constructor(
    private readonly db: Queries,
    private readonly readOnly: boolean,
    private readonly global: boolean,
    afterCommit: (() => void | Promise<void>)[],
    peers: PgPeers,
  ) {
    this.uow = new UnitOfWork({
      // NOTIFY in a transaction is delivered at its commit, and only then
      tell: async (topic, payload) => {
        this.writable();
        const told = peers.telling(topic, '$1::text', 1);
        await db.query(`SELECT ${told.sql}`, [payload, ...told.params]);
      },
      table: (name) => this.table(name) as never,
      files: {
        put: async (id, bytes) => {
          this.writable();
          await db.query('INSERT INTO files VALUES ($1, $2) ON CONFLICT (id) DO UPDATE SET bytes = excluded.bytes', [
            id,
            bytes,
          ]);
        },
        get: async (id) =>
          (await db.query<{ bytes: Buffer }>('SELECT bytes FROM files WHERE id = $1', [id])).rows[0]?.bytes,
        remove: (id) => {
          this.writable();
          // deleted in the transaction, just before its commit: the file goes only if the work commits
          this.fileRemovals.push(id);
        },
      },
      afterCommit: (fn) => {
        afterCommit.push(fn);
      },
      nextSeq: async (name: SeqName) => {
        const r = await db.query<{ value: string }>(
          'UPDATE seqs SET value = value + 1 WHERE name = $1 RETURNING value - 1 AS value',
          [name],
        );
        return Number(r.rows[0]?.value ?? 0);
      },
      replaceAll: async (data) => this.replaceAll(data),
      removeAccount: async (accountId) => {
        this.wholeState();
        const named = await db.query<{ id: string; kind: 'document' | 'task' }>(
          `SELECT id, 'document' AS kind FROM ${table('documents')} WHERE account_id = $1
           UNION ALL SELECT id, 'task' AS kind FROM ${table('bulk_dip_tasks')} WHERE account_id = $1`,
          [accountId],
        );
        const ofKind = (kind: string) => named.rows.filter((r) => r.kind === kind).map((r) => ({ data: r }));
        const fileIds = namedFiles(ofKind('document'), ofKind('task'));
        for (const name of COLLECTION_NAMES) {
          await db.query(
            `DELETE FROM row_index WHERE collection = $1 AND id IN (SELECT id FROM ${table(name)} WHERE account_id = $2)`,
            [name, accountId],
          );
          await db.query(`DELETE FROM ${table(name)} WHERE account_id = $1`, [accountId]);
        }
        if (fileIds.length) await db.query('DELETE FROM files WHERE id = ANY($1)', [fileIds]);
      },
      exportState: async () => {
        const state = emptyDb() as Record<CollectionName, AnyRow[]>;
        const all = await this.db.query<{ c: number; row: string }>(EXPORT_STATE);
        for (const { c, row } of all.rows)
          state[COLLECTION_NAMES[c] as CollectionName].push(deepFreeze(JSON.parse(row) as AnyRow));
        return state as unknown as DbData;
      },
    });
  }

  private readonly fileRemovals: string[] = [];

  /** What the work leaves to its last moment before the commit. */
  async beforeCommit(): Promise<void> {
    if (this.fileRemovals.length) await this.db.query('DELETE FROM files WHERE id = ANY($1)', [this.fileRemovals]);
  }

  private writable(): void {
    if (this.readOnly) throw new Error('this unit of work only reads');
  }

  private wholeState(): void {
    this.writable();
    if (!this.global) throw new Error('only whole-state work may do this');
  }

  private async rows<R extends AnyRow>(sql: string, params: unknown[]): Promise<R[]> {
    const r = await this.db.query<{ row: string }>(sql, params);
    return r.rows.map((x) => deepFreeze(JSON.parse(x.row) as R));
  }

  private async replaceAll(data: DbData): Promise<void> {
    this.wholeState();
    await this.db.query(`TRUNCATE row_index, ${COLLECTION_NAMES.map(table).join(', ')}`);
    for (const name of COLLECTION_NAMES)
      for (const row of data[name] as readonly AnyRow[]) await this.write(name, row, true);
    // the counters move past every value the state holds
    const steps = (data.steps as readonly { seq: number }[]).reduce((m, s) => Math.max(m, s.seq + 1), 0);
    const blocks = data.accounts.reduce((m, a) => Math.max(m, (a.sandbox_block ?? -1) + 1), 0);
    await this.db.query("UPDATE seqs SET value = GREATEST(value, $1) WHERE name = 'steps'", [steps]);
    await this.db.query("UPDATE seqs SET value = GREATEST(value, $1) WHERE name = 'sandboxes'", [blocks]);
  }

  /**
   * Writes a row and its index keys: a new row (`fresh`) is inserted with its keys in one statement,
   * refused if its id is taken; a changed one replaces the stored row and its old keys (two). The keys
   * go in one statement: a unique key another row holds is not inserted, which names the key refused.
   */
  private async write(name: CollectionName, row: AnyRow, fresh: boolean): Promise<void> {
    const sort = sortOf(name, row);
    const id = row.data.id;
    const keys: { index: string; key: string; unique: boolean }[] = [];
    const def = SCHEMA[name] as TableDef<AnyRow>;
    for (const [index, d] of Object.entries(def.indexes))
      // a key a row gives twice is one key (as in the embedded store)
      for (const key of new Set(keysOf(d.key(row)).map(stored))) keys.push({ index, key, unique: !!d.unique });
    const keyColumns = [keys.map((k) => k.index), keys.map((k) => k.key), keys.map((k) => k.unique)];
    let added: { index_name: string; key: string }[];
    if (fresh) {
      // the row and its keys in one statement; the keys only if the row's id was free
      const r = await this.db.query<{ index_name: string | null; key: string | null }>(
        `WITH r AS (
           INSERT INTO ${table(name)} (id, account_id, sort, row) VALUES ($1, $2, $3, $4)
           ON CONFLICT (id) DO NOTHING RETURNING 1),
         k AS (${insertKeys({ collection: 5, id: 1, sort: 3, keys: 6 }, 'WHERE EXISTS (SELECT 1 FROM r)')})
         SELECT NULL AS index_name, NULL AS key FROM r UNION ALL SELECT index_name, key FROM k`,
        [id, row.account_id, sort, JSON.stringify(row), name, ...keyColumns],
      );
      if (!r.rows.some((x) => x.index_name === null)) throw new UniqueViolation(name, 'id', id);
      added = r.rows.filter((x): x is { index_name: string; key: string } => x.index_name !== null);
    } else {
      // the row and the removal of its old keys in one statement (the new keys next: one statement
      // cannot delete a unique key and insert it again)
      await this.db.query(
        `WITH r AS (
           INSERT INTO ${table(name)} (id, account_id, sort, row) VALUES ($1, $2, $3, $4)
           ON CONFLICT (id) DO UPDATE SET account_id = excluded.account_id, sort = excluded.sort, row = excluded.row)
         DELETE FROM row_index WHERE collection = $5 AND id = $1`,
        [id, row.account_id, sort, JSON.stringify(row), name],
      );
      if (!keys.length) return;
      added = (
        await this.db.query<{ index_name: string; key: string }>(
          insertKeys({ collection: 1, id: 2, sort: 3, keys: 4 }),
          [name, id, sort, ...keyColumns],
        )
      ).rows;
    }
    if (added.length === keys.length) return;
    const kept = new Set(added.map((r) => `${r.index_name}\u0001${r.key}`));
    const refused = keys.find((k) => !kept.has(`${k.index}\u0001${k.key}`));
    throw new UniqueViolation(name, refused?.index ?? 'id', refused?.key ?? id);
  }

  private table<K extends CollectionName>(name: K): TableOps<Collections[K]> {
    type R = Collections[K];
    const t = table(name);
    const one = async (id: string) => (await this.rows<R>(`SELECT row FROM ${t} WHERE id = $1`, [id]))[0];
    return {
      get: one,
      list: (accountId) => this.rows<R>(`SELECT row FROM ${t} WHERE account_id = $1 ORDER BY sort`, [accountId]),
      one: async (index, key) =>
        (
          await this.rows<R>(
            `SELECT c.row FROM row_index i JOIN ${t} c ON c.id = i.id
             WHERE i.collection = $1 AND i.index_name = $2 AND i.key = $3 LIMIT 1`,
            [name, index, stored(key)],
          )
        )[0],
      many: (index, key) =>
        this.rows<R>(
          `SELECT c.row FROM row_index i JOIN ${t} c ON c.id = i.id
           WHERE i.collection = $1 AND i.index_name = $2 AND i.key = $3 ORDER BY i.sort`,
          [name, index, stored(key)],
        ),
      all: () => this.rows<R>(`SELECT row FROM ${t} ORDER BY sort`, []),
      insert: async (row) => {
        this.writable();
        const frozen = deepFreeze(row);
        await this.write(name, frozen, true);
        return frozen;
      },
      update: async (row, change) => {
        this.writable();
        const current = (await this.rows<R>(`SELECT row FROM ${t} WHERE id = $1 FOR UPDATE`, [row.data.id]))[0];
        const next = changed(name, row.data.id, current, change);
        await this.write(name, next, false);
        return next;
      },
      remove: async (row) => {
        this.writable();
        await this.db.query('DELETE FROM row_index WHERE collection = $1 AND id = $2', [name, row.data.id]);
        await this.db.query(`DELETE FROM ${t} WHERE id = $1`, [row.data.id]);
      },
    };
  }
}
