/**
 * The PostgreSQL backend of the store (`--store postgres://…` or DATABASE_URL), for several
 * dipswitch instances over one database. A table per collection holds each row whole as JSON text
 * (not `jsonb`, which cannot hold the NUL a caller's string may carry) with its account and its
 * list order; the indexes of src/store/schema.ts are rows of one index table whose unique keys are
 * a real unique constraint. One unit of work that writes is one transaction: account work holds a
 * transaction-scoped advisory lock of its account (and a shared one of the whole state; a call's
 * write begun with the caller's key takes them in SQL, from the key's account: `dipswitch_caller`),
 * whole-state work the exclusive one. Reads take no lock and no transaction (at READ COMMITTED a
 * transaction would give each statement its own snapshot all the same). Statements are prepared
 * once per connection. The schema is versioned (`schema_version`) and migrated at start under a
 * session advisory lock, so instances starting together do not race.
 */
import { availableParallelism } from 'node:os';
import pg from 'pg';
import type { Logger as FullLogger } from '../../deps.js';
import {
  READY_PROBE_MS,
  StorageUnavailable,
  type CallerRows,
  type KeyLookup,
  type Store,
  type WorkScope,
} from '../store.js';
import { StoreBase, type Opened } from '../backend.js';
import { PgPeers } from './peers.js';
import { connectionOf, poolOf, storeBounds } from './connection.js';
import { withoutPassword } from './url.js';
import { CALLER_SQL, COLLECTION_TABLES, MIGRATION_LOCK, MIGRATIONS, stored, table } from './sql.js';
import { reindex } from './index_keys.js';
import { callerRows, type CallerFound } from './answers.js';
import { CallerCopies } from './callers.js';
import { Held, Lease, statementName, unavailable } from './statements.js';
import { PgWork } from './work.js';
import { Answering } from './answering.js';
import { cleanupFailed } from '../../domain/side_paths.js';

/** The store only warns. */
type Logger = Pick<FullLogger, 'warn'>;

/** A start-up whose database has not answered this long says it waits for it. */
const WAITING_SAID_MS = 1_000;

/**
 * Connections one instance holds at most (each unit of work takes one for its transaction): twice the
 * machine's cores, at least 4. More only wait: for the CPU, or for an account's lock (creates of one
 * account with a pool of 10 instead of 4 on two cores: 1,019 against 1,271 a second, alternating).
 */
export const PG_POOL_SIZE = Math.max(4, 2 * availableParallelism());

/**
 * Migrates the schema on `client` (under a session advisory lock: one instance at a time) and gives
 * it back; answers whether the database was empty.
 */
async function migrated(client: Held): Promise<boolean> {
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
    await client.query(COLLECTION_TABLES);
    await client.query('DROP FUNCTION IF EXISTS dipswitch_caller(text, text)');
    const created = (await client.query(`SELECT 1 FROM ${table('accounts')} LIMIT 1`)).rowCount === 0;
    await client.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK]);
    return created;
  } catch (e) {
    await client.query('ROLLBACK').catch(cleanupFailed);
    throw e;
  } finally {
    client.release();
  }
}

export class PgStore extends StoreBase implements Store {
  readonly created: boolean;
  readonly location: string;

  readonly peers: PgPeers;

  /** The callers' rows this instance read, kept until a commit changes them (callers.ts). */
  private readonly callers = new CallerCopies();
  /** Whether the database answers: while it is away, every statement is refused at once (answering.ts). */
  private readonly answering: Answering;

  private constructor(
    private readonly pool: pg.Pool,
    created: boolean,
    url: string,
    peers: PgPeers,
    protected readonly logger: Logger,
  ) {
    super();
    this.answering = new Answering(() => this.pool.query('SELECT 1'), logger);
    this.created = created;
    this.location = withoutPassword(url);
    this.peers = peers;
    peers.hear('callers', (payload) => this.callers.drop(payload.split(',')));
    peers.onLost(() => this.callers.drop(['*']));
  }

  /**
   * Connects, migrates the schema (one instance at a time), listens to the other instances, and says
   * whether the database was empty. `instance` names this one among them (and its sessions, in
   * `pg_stat_activity`: `dipswitch <instance>`).
   */
  static async open(url: string, logger: Logger, instance: string, bounds = storeBounds()): Promise<PgStore> {
    const pool = poolOf(url, bounds, `dipswitch ${instance}`, PG_POOL_SIZE);
    pool.on('error', (e) => logger.warn(`store: an idle PostgreSQL connection failed (${e.message})`));
    // a database that does not answer at once is said to be waited for, up to the bound
    const waiting = setTimeout(
      () => logger.warn(`store: waiting for PostgreSQL at ${withoutPassword(url)} (at most ${bounds.connectMs} ms)`),
      Math.min(WAITING_SAID_MS, bounds.connectMs / 2),
    );
    let created = false;
    try {
      created = await migrated(await Held.take(pool, (e) => e as Error));
    } catch (e) {
      await pool.end();
      throw e;
    } finally {
      clearTimeout(waiting);
    }
    const peers = new PgPeers(connectionOf(url, bounds, `dipswitch ${instance}`), pool, instance, logger);
    try {
      await peers.listen();
    } catch (e) {
      await pool.end();
      throw e;
    }
    return new PgStore(pool, created, url, peers, logger);
  }

  /**
   * A unit of work on PostgreSQL: its connection taken at its first statement; whole-state and account
   * work begin their transaction and locks now, a read none. Its commit sends the writes not sent yet
   * with COMMIT, and drops this instance's copies of the callers' rows it changed.
   */
  protected async open(scope: WorkScope): Promise<Opened> {
    this.answering.check();
    // reads take no transaction: at READ COMMITTED each statement sees its own snapshot either way
    const lease = new Lease(
      this.pool,
      (e) => new StorageUnavailable(e),
      () => this.answering.check(),
    );
    const hooks: (() => void | Promise<void>)[] = [];
    const work = new PgWork(lease, 'read' in scope, 'global' in scope, hooks, this.peers);
    hooks.push(() => {
      if (work.callersChanged.size) this.callers.drop(work.callersChanged);
    });
    const end = async (rollback: boolean) => {
      if (rollback && work.open) await lease.batch('ROLLBACK').catch(cleanupFailed);
      lease.release();
    };
    try {
      if ('global' in scope) await work.beginWholeState();
      if ('account' in scope) await work.beginAccount(scope.account);
    } catch (e) {
      await end(true);
      throw e;
    }
    return {
      work: work,
      commit: async () => {
        try {
          // the writes not sent yet go with the COMMIT
          if (work.open) await work.commit();
        } catch (e) {
          await end(true);
          throw e;
        }
        await end(false);
      },
      abort: () => end(true),
      hooks,
    };
  }

  /** The caller's rows: this instance's copy, or one statement (kept while the other instances are heard). */
  override async caller(lookup: KeyLookup): Promise<CallerRows> {
    const kept = this.callers.get(lookup);
    if (kept) return kept;
    const read = async () =>
      callerRows((await this.query<CallerFound>(CALLER_SQL, [lookup.index, stored(lookup.value)], true))[0]);
    return this.callers.read(lookup, read, () => this.peers.hearing);
  }

  /** The database failing (down, refusing, the connection broken) is StorageUnavailable; a refusal of dipswitch's own is itself. */
  protected override failure(e: unknown): unknown {
    this.answering.failed(e);
    return e instanceof StorageUnavailable || !unavailable(e) ? e : new StorageUnavailable(e);
  }

  /**
   * One statement outside any unit of work (src/store/postgres/shared.ts); the database failing is
   * StorageUnavailable. A statement of every call (`prepare`) is prepared once per connection.
   */
  async query<R extends pg.QueryResultRow>(sql: string, params: unknown[] = [], prepare = false): Promise<R[]> {
    const client = await this.taken();
    try {
      const name = prepare ? statementName(sql) : undefined;
      return (await client.query<R>({ name, text: sql, values: params })).rows;
    } catch (e) {
      this.answering.failed(e);
      throw unavailable(e) ? new StorageUnavailable(e) : e;
    } finally {
      client.release();
    }
  }

  /** Statements in one transaction, outside the store's locks (src/store/postgres/shared.ts). */
  async transaction(
    fn: (query: (sql: string, params?: unknown[]) => Promise<unknown>) => Promise<void>,
  ): Promise<void> {
    const client = await this.taken();
    try {
      await client.query('BEGIN');
      await fn((sql, params) => client.query(sql, params));
      await client.query('COMMIT');
    } catch (e) {
      this.answering.failed(e);
      await client.query('ROLLBACK').catch(cleanupFailed);
      throw unavailable(e) ? new StorageUnavailable(e) : e;
    } finally {
      client.release();
    }
  }

  /** A connection for statements outside a unit of work: refused at once while the database is away. */
  private taken(): Promise<Held> {
    this.answering.check();
    return Held.take(
      this.pool,
      (e) => {
        this.answering.failed(e);
        return new StorageUnavailable(e);
      },
      () => this.answering.check(),
    );
  }

  /** The probe under way, which every readiness call meanwhile waits for (none piles up on a database that does not answer). */
  private probing: Promise<void> | undefined;

  reachable(): Promise<void> {
    this.probing ??= new Promise<void>((resolve, reject) => {
      const late = setTimeout(
        () => reject(new StorageUnavailable(new Error(`PostgreSQL did not answer within ${READY_PROBE_MS} ms`))),
        READY_PROBE_MS,
      );
      this.query('SELECT 1')
        .then(
          () => resolve(),
          (e: unknown) => reject(e instanceof StorageUnavailable ? e : new StorageUnavailable(e)),
        )
        .finally(() => clearTimeout(late));
    }).finally(() => (this.probing = undefined));
    return this.probing;
  }

  /** The database's size on disk. */
  async size(): Promise<number | undefined> {
    const [row] = await this.query<{ n: string }>('SELECT pg_database_size(current_database()) AS n');
    return Number(row?.n ?? 0);
  }

  async close(): Promise<void> {
    this.answering.close();
    await this.peers.close();
    await this.pool.end();
  }
}
