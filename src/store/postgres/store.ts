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
import type { Logger as FullLogger } from '../../deps.js';
import { StorageUnavailable, UnitOfWork, type Store, type WorkScope } from '../store.js';
import { PgPeers } from './peers.js';
import { withoutPassword } from './url.js';
import { MIGRATIONS, table } from './sql.js';
import { aheadKey, PgWork, prepared, reindex, statementName } from './work.js';
import type { AnyRow } from '../rows.js';

/** The store only warns. */
type Logger = Pick<FullLogger, 'warn'>;

/** Connections one instance holds at most (each unit of work takes one for its transaction). */
export const PG_POOL_SIZE = 10;

/** Advisory lock keys: the whole state (shared by account work, exclusive for whole-state work), and migrations. */
const STATE_LOCK = 7_406_001;
const MIGRATION_LOCK = 7_406_002;
/** The first key of the two-key advisory locks of accounts (the second is the hash of the account's id). */
const ACCOUNT_LOCKS = 7406;

/** The second key of an account's advisory lock: a 32-bit FNV-1a hash of its id (a number, so no text goes into SQL). */
function accountLock(accountId: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < accountId.length; i++) h = Math.imul(h ^ accountId.charCodeAt(i), 0x01000193);
  return h | 0;
}

/**
 * Whether `e` says the database failed (it is down, refused the write, or the connection broke),
 * rather than dipswitch's own refusal or a constraint: the answer is then 503 `storage_unavailable`.
 */
export function unavailable(e: unknown): boolean {
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
    this.location = withoutPassword(url);
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
        const migration = MIGRATIONS[v] ?? '';
        if (typeof migration === 'string') await client.query(migration);
        else await reindex(client, migration.reindex);
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
      // an account's work: its clock row too, which all such work reads first (read ahead: PgWork)
      const ahead = new Map<string, AnyRow | undefined>();
      if ('read' in scope && scope.ahead) ahead.set(aheadKey(scope.ahead.collection, scope.ahead.id), scope.ahead.row);
      if ('account' in scope) {
        const results = (await client.query(
          `BEGIN; SELECT pg_advisory_xact_lock_shared(${STATE_LOCK}), pg_advisory_xact_lock(${ACCOUNT_LOCKS}, ${accountLock(scope.account)});
           SELECT row FROM ${table('clocks')} WHERE id = ${client.escapeLiteral(scope.account)}`,
        )) as unknown as pg.QueryResult<{ row: string }>[];
        const row = results[2]?.rows[0]?.row;
        ahead.set(aheadKey('clocks', scope.account), row === undefined ? undefined : (JSON.parse(row) as AnyRow));
      }
      const page = 'read' in scope ? scope.page : undefined;
      const work = new PgWork(prepared(client), reads, 'global' in scope, afterCommit, this.peers, ahead, page);
      result = await fn(work.uow);
      // the writes not sent yet go with the COMMIT
      if (!reads) await work.commit();
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

  /**
   * One statement outside any unit of work (src/store/postgres/shared.ts); the database failing is
   * StorageUnavailable. A statement of every call (`prepare`) is prepared once per connection.
   */
  async query<R extends pg.QueryResultRow>(sql: string, params: unknown[] = [], prepare = false): Promise<R[]> {
    try {
      const name = prepare ? statementName(sql) : undefined;
      return (await this.pool.query<R>({ name, text: sql, values: params })).rows;
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
