/** A row's keys in `row_index` (schema.ts's indexes), and the migration that rebuilds them. */
import { keysOf } from '../collections.js';
import type { AnyRow, CollectionName } from '../schema.js';
import { SCHEMA, type TableDef } from '../schema.js';
import { stored, table } from './sql.js';
import type { Queries } from './statements.js';

/**
 * The statement inserting a row's index keys, given the numbers of its parameters: the collection,
 * the row's id and sort, and (from `keys` on) the keys' index names, keys and uniqueness as arrays.
 * A unique key another row holds is not inserted (and so not returned).
 */
function insertKeys(n: { collection: number; id: number; sort: number; keys: number }, onlyIf = ''): string {
  return `INSERT INTO row_index (collection, index_name, key, id, sort, is_unique)
    SELECT $${n.collection}, k.index_name, k.key, $${n.id}, $${n.sort}, k.is_unique
    FROM unnest($${n.keys}::text[], $${n.keys + 1}::text[], $${n.keys + 2}::boolean[]) AS k(index_name, key, is_unique)
    ${onlyIf}
    ON CONFLICT (collection, index_name, key) WHERE is_unique DO NOTHING
    RETURNING index_name, key`;
}

/** A row's index keys (schema.ts), and the same as the three arrays `insertKeys` takes. */
export function indexKeys(name: CollectionName, row: AnyRow) {
  const keys: { index: string; key: string; unique: boolean }[] = [];
  const def = SCHEMA[name] as TableDef<AnyRow>;
  for (const [index, d] of Object.entries(def.indexes))
    // a key a row gives twice is one key (as in the embedded store)
    for (const key of new Set(keysOf(d.key(row)).map(stored))) keys.push({ index, key, unique: !!d.unique });
  return { keys, keyColumns: [keys.map((k) => k.index), keys.map((k) => k.key), keys.map((k) => k.unique)] };
}

/**
 * A migration that gives the rows of a collection the keys of its indexes as schema.ts defines them
 * now (an index added to a collection that already has rows).
 */
export async function reindex(db: Pick<Queries, 'query'>, name: CollectionName): Promise<void> {
  await db.query('DELETE FROM row_index WHERE collection = $1', [name]);
  const rows = await db.query<{ sort: string; row: string }>(`SELECT sort, row FROM ${table(name)}`);
  for (const r of rows.rows) {
    const row = JSON.parse(r.row) as AnyRow;
    const { keyColumns } = indexKeys(name, row);
    await db.query(insertKeys({ collection: 1, id: 2, sort: 3, keys: 4 }), [name, row.data.id, r.sort, ...keyColumns]);
  }
}
