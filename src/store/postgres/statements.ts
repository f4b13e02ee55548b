/** The statements of a unit of work on PostgreSQL, prepared once per connection. */
import pg from 'pg';

/** What a unit of work sends its statements through. */
export interface Queries {
  query<R extends pg.QueryResultRow = pg.QueryResultRow>(text: string, values?: unknown[]): Promise<pg.QueryResult<R>>;
  /** Statements whose values are literals in their text, sent in one round trip. */
  batch(text: string): Promise<unknown>;
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
 * A unit of work's connection, taken from the pool at its first statement and given back when the
 * work ends or waits holding nothing (`release`). Its statements are prepared once (on each
 * connection) and then only executed: PostgreSQL parses and plans a unit of work's few texts once,
 * not at every call.
 */
export class Lease implements Queries {
  private client?: pg.PoolClient;

  constructor(
    private readonly pool: pg.Pool,
    /** What a connection the pool cannot give becomes (the store's StorageUnavailable). */
    private readonly refused: (e: unknown) => Error,
  ) {}

  private async taken(): Promise<pg.PoolClient> {
    if (this.client) return this.client;
    try {
      return (this.client = await this.pool.connect());
    } catch (e) {
      throw this.refused(e);
    }
  }

  async query<R extends pg.QueryResultRow>(text: string, values: unknown[] = []): Promise<pg.QueryResult<R>> {
    return (await this.taken()).query<R>({ name: statementName(text), text, values });
  }

  async batch(text: string): Promise<unknown> {
    return (await this.taken()).query(text);
  }

  /** Gives the connection back to the pool (a later statement takes one again). */
  release(): void {
    this.client?.release();
    this.client = undefined;
  }
}
