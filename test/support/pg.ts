/** A throwaway PostgreSQL for a test file: one server per file, a fresh database per `database()`. */
import { afterAll, beforeAll } from 'vitest';
import { startPostgres, type PostgresServer } from './pg_server.js';

export interface TestPostgres {
  /** A new empty database; answers its URL. */
  database(): Promise<string>;
}

export function usePostgres(): () => TestPostgres {
  let server: PostgresServer | undefined;
  let n = 0;
  beforeAll(async () => {
    server = await startPostgres();
  }, 120_000);
  afterAll(() => server?.stop(), 60_000);
  return () => ({ database: () => server!.database(`t${process.pid}_${n++}`) });
}
