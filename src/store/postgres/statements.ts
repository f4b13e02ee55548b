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
 * A connection whose statements are prepared once (on each connection) and then only executed:
 * PostgreSQL parses and plans a unit of work's few texts once, not at every call.
 */
export function prepared(client: pg.PoolClient): Queries {
  return {
    query: <R extends pg.QueryResultRow>(text: string, values: unknown[] = []) =>
      client.query<R>({ name: statementName(text), text, values }),
    batch: (text) => client.query(text),
  };
}
