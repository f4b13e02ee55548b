/**
 * Vitest global setup of the PostgreSQL run of the suite (`DIPSWITCH_TEST_STORE=postgres`): one
 * throwaway server for the whole run; each test server gets a database of its own (test/helpers.ts).
 */
import { startPostgres } from './pg_server.js';

export default async function setup(): Promise<(() => Promise<void>) | undefined> {
  if (process.env.DIPSWITCH_TEST_STORE !== 'postgres') return undefined;
  const server = await startPostgres();
  process.env.DIPSWITCH_TEST_PG = server.url;
  return () => server.stop();
}
