/** Repairs of a damaged embedded store that work on its rows (the log's own damage is log_file.ts's). */
import type { LogFile } from './log_file.js';
import { inaccessible, StoreRefused } from './refusals.js';
import { MemoryTable } from './memory_table.js';
import { UniqueViolation } from '../collections.js';
import { COLLECTION_NAMES, emptyLists, stateOf, type AnyRow, type CollectionName, type DbData } from '../schema.js';
import { SCHEMA } from '../schema.js';

/** A row set aside by a repair, with its collection. */
export interface AsideRow {
  collection: CollectionName;
  row: AnyRow;
}

/**
 * The state without the rows whose unique key (an index's, or the id) another row of the collection
 * held first: the first holder keeps it, the others are set aside (a store repair).
 */
export function withoutDuplicates(data: DbData): { kept: DbData; aside: AsideRow[] } {
  const kept = emptyLists();
  const aside: AsideRow[] = [];
  for (const name of COLLECTION_NAMES) {
    const table = new MemoryTable<AnyRow>(name, SCHEMA[name] as never, []);
    for (const row of data[name] as AnyRow[]) {
      try {
        if (table.get(row.data.id)) throw new UniqueViolation(name, 'id', row.data.id);
        table.put(row);
        kept[name].push(row);
      } catch (e) {
        if (!(e instanceof UniqueViolation)) throw e;
        aside.push({ collection: name, row });
      }
    }
  }
  return { kept: stateOf(kept), aside };
}

/** The store made from what was read, or refused when two of its rows hold one unique key. */
export function refuseDuplicates<T>(file: string, make: () => T): T {
  try {
    return make();
  } catch (e) {
    if (!(e instanceof UniqueViolation)) throw e;
    throw new StoreRefused(
      `${file} holds two rows for one key of the unique index ${e.collection}.${e.index} (two processes wrote this store at once?). ` +
        'Run `dipswitch store repair` (or start with --repair): each key keeps its first holder, the others are moved to a file it names.',
      'damaged',
    );
  }
}

/**
 * Reads the store's files; with `repair`, keeps what is sound: the log's own damage is cut off
 * (log_file.ts), and rows that hold a unique key another row held first are moved to a file beside
 * the store, the state written again without them.
 */
export async function readRepaired(
  log: LogFile,
  repair: boolean,
): Promise<{ state: DbData | null; warnings: string[] }> {
  const { state, warnings } = await log.read({ repair }).catch((e: unknown) => {
    throw inaccessible(log.path, e);
  });
  await log.checkWritable().catch((e: unknown) => {
    throw inaccessible(log.path, e);
  });
  if (!repair || !state) return { state, warnings };
  const { kept, aside } = withoutDuplicates(state);
  if (!aside.length) return { state, warnings };
  const file = await log.keepAside(aside);
  // the repaired state is the new snapshot, so the next start reads no duplicate again
  await log.write(kept);
  warnings.push(
    `${log.path}: ${aside.length} row(s) held a unique key another row held first (two processes wrote this store at once?); each key kept its first holder, the others were moved to ${file}.`,
  );
  return { state: kept, warnings };
}
