/**
 * The one place a backend is picked (a composition root, with src/server.ts): the store the options
 * name, and the side stores that go with it, PostgreSQL's shared by every instance or this process's.
 */
import type { Logger } from './deps.js';
import type { Limits } from './limits.js';
import { addTally, KEPT_TALLIES } from './harness/coverage.js';
import { JsonStore, type JsonStoreOptions } from './store/embedded/json_store.js';
import { MemoryFaultRules, MemoryJournalLog, MemorySnapshotStore, MemoryTallyStore } from './store/embedded/shared.js';
import { PgFaultRules, PgJournalLog, PgSnapshotStore } from './store/postgres/shared.js';
import { PgTallyStore } from './store/postgres/tallies.js';
import type { PgStore } from './store/postgres/store.js';
import { storeBounds } from './store/postgres/connection.js';
import { SERVER_CALLS_KEPT } from './store/shared.js';
import type { Store } from './store/store.js';

/** The store the options name: PostgreSQL (its driver loaded only then), or the embedded one. */
export async function openStore(
  where: JsonStoreOptions | { postgres: string },
  logger: Logger,
  instance: string,
  limits: Limits,
): Promise<{ pg: PgStore | undefined; store: Store }> {
  // the driver is loaded only for a database: the embedded store's start-up does without it
  const pg =
    'postgres' in where
      ? await (
          await import('./store/postgres/store.js')
        ).PgStore.open(where.postgres, logger, instance, storeBounds(limits))
      : undefined;
  return { pg, store: pg ?? (await JsonStore.open(where as JsonStoreOptions, logger)) };
}

/**
 * The side stores (fault rules, journal, snapshots, kept coverage), chosen once: PostgreSQL's when the
 * state is there (every instance shares them), else this process's.
 */
export function sideStores(pg: PgStore | undefined, limits: Limits) {
  if (pg)
    return {
      rules: new PgFaultRules(pg),
      log: new PgJournalLog(pg, limits.journalBytes, SERVER_CALLS_KEPT),
      snapshots: new PgSnapshotStore(pg),
      tallies: new PgTallyStore(pg, KEPT_TALLIES, addTally),
    };
  return {
    rules: new MemoryFaultRules(),
    log: new MemoryJournalLog(limits.journalBytes),
    snapshots: new MemorySnapshotStore(),
    tallies: new MemoryTallyStore(KEPT_TALLIES, addTally),
  };
}
