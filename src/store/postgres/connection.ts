/**
 * How dipswitch connects to PostgreSQL: every wait on the database bounded (docs/postgres.md,
 * "Outages"), each connection named after its instance, its plans made once.
 */
import pg from 'pg';
import { DEFAULT_LIMITS, type Limits } from '../../limits.js';

/** The bounds of every wait on the database (src/limits.ts's `--store-*-timeout` rows), in ms. */
export interface StoreBounds {
  /** For a connection: a new one made, or a free one of the pool. */
  connectMs: number;
  /** For a statement to run; PostgreSQL cancels it (`statement_timeout`). */
  statementMs: number;
  /** For a statement to get a lock (`lock_timeout`). */
  lockMs: number;
  /** For a transaction left idle, before PostgreSQL ends its session (`idle_in_transaction_session_timeout`). */
  idleMs: number;
}

/** The bounds the limits give (their `--store-*-timeout` flags). */
export function storeBounds(limits: Limits = DEFAULT_LIMITS): StoreBounds {
  return {
    connectMs: limits.storeConnectTimeoutMs,
    statementMs: limits.storeStatementTimeoutMs,
    lockMs: limits.storeLockTimeoutMs,
    idleMs: limits.storeIdleTimeoutMs,
  };
}

/**
 * A statement PostgreSQL does not answer this long after its own bound (a database frozen, its
 * machine cut off) is given up by dipswitch, and its connection closed.
 */
export const UNANSWERED_MARGIN_MS = 1_000;

/** Each connection's plans: a prepared statement is planned once, not at each run with its values. */
const GENERIC_PLANS = '-c plan_cache_mode=force_generic_plan';

/**
 * A connection's settings: the URL's own parameters win over these (its `options`, its
 * `application_name`, a `statement_timeout`…); TCP keepalive finds a peer gone without a word.
 */
export function connectionOf(url: string, bounds: StoreBounds, name: string): pg.ClientConfig {
  return {
    connectionString: url,
    // one plan a prepared statement, made at its first runs: planning the caller's joins at every call
    // took PostgreSQL longer than running them
    options: GENERIC_PLANS,
    application_name: name,
    connectionTimeoutMillis: bounds.connectMs,
    statement_timeout: bounds.statementMs,
    lock_timeout: bounds.lockMs,
    idle_in_transaction_session_timeout: bounds.idleMs,
    query_timeout: bounds.statementMs + UNANSWERED_MARGIN_MS,
    keepAlive: true,
  };
}

/** A broken connection's error while it has no holder: the pool finds it not queryable when it hands it over. */
const noHolderYet = (): void => undefined;

/**
 * The pool of an instance's connections. The connect bound is each new connection's; a free one of
 * the pool is waited for as long as the units ahead of it take, each within its own bounds (under a
 * burst of calls of one account, they queue here rather than fail).
 */
export function poolOf(url: string, bounds: StoreBounds, name: string, max: number): pg.Pool {
  const connection = connectionOf(url, bounds, name);
  class Bounded extends pg.Client {
    constructor(config?: pg.ClientConfig) {
      super({ ...config, connectionTimeoutMillis: bounds.connectMs });
      // heard from its birth: a connection that breaks while no holder listens (handed between the pool and
      // its caller, or let go by both) is found by the pool when it is next handed over (it is not
      // queryable then, and closed), never an 'error' nobody hears, which would end the process
      this.on('error', noHolderYet);
    }
  }
  return new pg.Pool({ ...connection, connectionTimeoutMillis: 0, max, Client: Bounded });
}
