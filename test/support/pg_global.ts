/**
 * Global setup of the suite's PostgreSQL project (vitest.config.ts): one throwaway server for the
 * whole run, and two template databases made once: one migrated, one migrated and seeded with the
 * default fixtures. Each test server's database is a copy of one of them (`CREATE DATABASE …
 * TEMPLATE`, test/support/helpers.ts), which costs a file copy rather than a migration and a seeding per test.
 */
import type { TestProject } from 'vitest/node';
import { silentLogger } from '../../src/deps.js';
import { fixtureState } from '../../src/store/fixtures.js';
import { PgStore } from '../../src/store/postgres/store.js';
import { startPostgres } from './pg_server.js';
import { PG_TEMPLATES } from './pg_templates.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The PostgreSQL server of the run (`postgres://…`, without a database); empty in the embedded project. */
    postgres: string;
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const server = await startPostgres();
  for (const [name, seeded] of [
    [PG_TEMPLATES.migrated, false],
    [PG_TEMPLATES.seeded, true],
  ] as const) {
    const store = await PgStore.open(await server.database(name), silentLogger, 'template');
    if (seeded) await store.run({ global: true }, (w) => w.replaceAll(fixtureState()));
    await store.close();
  }
  project.provide('postgres', server.url);
  return () => server.stop();
}
