/** The statements of a unit of work on PostgreSQL, prepared once per connection, over connections whose failures are heard. */
import pg from 'pg';

/** What a unit of work sends its statements through. */
export interface Queries {
  query<R extends pg.QueryResultRow = pg.QueryResultRow>(text: string, values?: unknown[]): Promise<pg.QueryResult<R>>;
  /** Statements whose values are literals in their text, sent in one round trip. */
  batch(text: string): Promise<unknown>;
}

/** What node-postgres says when the connection, not the statement, failed (its errors carry no code). */
const CONNECTION_LOST =
  /Connection terminated|connection timeout|timeout exceeded when trying to connect|timeout expired|Query read timeout|not queryable/i;

/**
 * Whether `e` says the database failed (it is down, refused the write, timed out, or the connection
 * broke), rather than dipswitch's own refusal or a constraint: the answer is then 503 `storage_unavailable`.
 */
export function unavailable(e: unknown): boolean {
  if (e instanceof pg.DatabaseError) return !(e.code ?? '').startsWith('23');
  const err = e as NodeJS.ErrnoException;
  return typeof err?.syscall === 'string' || CONNECTION_LOST.test(err?.message ?? '');
}

/** The names of the statements prepared, one per text (a unit of work's texts are a fixed few per collection). */
const statementNames = new Map<string, string>();

/** The name a statement is prepared under, the same on every connection. */
export function statementName(text: string): string {
  let name = statementNames.get(text);
  if (name === undefined) statementNames.set(text, (name = `dipswitch_${statementNames.size}`));
  return name;
}

/**
 * A connection taken out of the pool. node-postgres's pool hears the errors of its idle connections
 * only; one out of it that breaks (its backend terminated, the server restarting) emits an error
 * nobody hears, which ends the process. This one hears it for as long as it is out: a statement
 * after that fails as the connection did, and the connection given back is closed, not reused (so
 * is one whose statement timed out here, which may still be answered later).
 */
export class Held {
  private broken: unknown;
  private readonly heard = (e: Error) => {
    this.broken ??= e;
  };

  private constructor(private readonly client: pg.PoolClient) {
    client.on('error', this.heard);
  }

  /**
   * A connection of the pool, or StorageUnavailable (`refused`) when the pool cannot give one in time;
   * `admit` may still refuse it once given (the database found away while the caller waited its turn).
   */
  static async take(pool: pg.Pool, refused: (e: unknown) => Error, admit = () => {}): Promise<Held> {
    let held: Held;
    try {
      held = new Held(await pool.connect());
    } catch (e) {
      throw refused(e);
    }
    try {
      admit();
    } catch (e) {
      held.release();
      throw e;
    }
    return held;
  }

  async query<R extends pg.QueryResultRow>(
    query: string | pg.QueryConfig,
    values?: unknown[],
  ): Promise<pg.QueryResult<R>> {
    if (this.broken !== undefined) throw this.broken;
    try {
      return await this.client.query<R>(query, values);
    } catch (e) {
      if (unavailable(e)) this.broken ??= e;
      throw e;
    }
  }

  /** Gives the connection back: to be used again, or closed when it failed. */
  release(): void {
    this.client.off('error', this.heard);
    this.client.release(this.broken === undefined ? undefined : this.broken instanceof Error ? this.broken : true);
  }
}

/**
 * A unit of work's connection, taken from the pool at its first statement and given back when the
 * work ends or waits holding nothing (`release`). Its statements are prepared once (on each
 * connection) and then only executed: PostgreSQL parses and plans a unit of work's few texts once,
 * not at every call.
 */
export class Lease implements Queries {
  /** The connection, once asked for: statements sent at once wait for the one connection, never take two. */
  private held?: Promise<Held>;

  constructor(
    private readonly pool: pg.Pool,
    /** What a connection the pool cannot give becomes (the store's StorageUnavailable). */
    private readonly refused: (e: unknown) => Error,
    /** Throws when the work may not go on with the connection it was given (Held.take). */
    private readonly admit?: () => void,
  ) {}

  private taken(): Promise<Held> {
    return (this.held ??= Held.take(this.pool, this.refused, this.admit));
  }

  async query<R extends pg.QueryResultRow>(text: string, values: unknown[] = []): Promise<pg.QueryResult<R>> {
    return (await this.taken()).query<R>({ name: statementName(text), text, values });
  }

  async batch(text: string): Promise<unknown> {
    return (await this.taken()).query(text);
  }

  /** Gives the connection back to the pool (a later statement takes one again). */
  release(): void {
    // a connection that could not be had has nothing to give back: its refusal was the statement's
    void this.held?.then(
      (held) => held.release(),
      () => undefined,
    );
    this.held = undefined;
  }
}
