/**
 * One collection held in memory: rows by id, each account's rows in list order, and a map per
 * index of the schema. Rows are frozen on the way in. Only the store changes a table, through
 * `put` and `delete`, which check unique indexes before touching anything.
 */
import type { AnyRow } from '../schema.js';
import { deepFreeze, keysOf, UniqueViolation } from '../collections.js';
import { sortedIndex } from '../../domain/lists.js';
import { byInsertion, type IndexDef, type TableDef } from '../schema.js';

export class MemoryTable<R extends AnyRow> {
  private readonly byId = new Map<string, R>();
  private readonly byAccount = new Map<string, R[]>();
  private readonly unique = new Map<string, { key: IndexDef<R>['key']; rows: Map<string, R> }>();
  private readonly multi = new Map<string, { key: IndexDef<R>['key']; rows: Map<string, R[]> }>();
  private readonly compare: (a: R, b: R) => number;

  constructor(
    readonly name: string,
    def: TableDef<R>,
    rows: readonly R[] = [],
  ) {
    this.compare = def.compare ?? byInsertion;
    for (const [index, d] of Object.entries(def.indexes)) {
      if (d.unique) this.unique.set(index, { key: d.key, rows: new Map() });
      else this.multi.set(index, { key: d.key, rows: new Map() });
    }
    for (const row of rows) this.put(deepFreeze(row));
  }

  get size(): number {
    return this.byId.size;
  }

  get(id: string): R | undefined {
    return this.byId.get(id);
  }

  /** The account's rows in list order (the live list: do not change it). */
  list(accountId: string): readonly R[] {
    return this.byAccount.get(accountId) ?? [];
  }

  /** The row of a unique index's key. */
  one(index: string, key: string): R | undefined {
    const map = this.unique.get(index);
    if (!map) throw new Error(`${this.name} has no unique index ${index}`);
    return map.rows.get(key);
  }

  /** The rows of an index's key, in list order. */
  many(index: string, key: string): readonly R[] {
    const map = this.multi.get(index);
    if (!map) throw new Error(`${this.name} has no index ${index}`);
    return map.rows.get(key) ?? [];
  }

  /** Every row, in list order (for snapshots: stable whatever order rows came and went in). */
  all(): R[] {
    return [...this.byId.values()].sort(this.compare);
  }

  /** Every account that has rows here. */
  accounts(): IterableIterator<string> {
    return this.byAccount.keys();
  }

  /**
   * Adds `row`, or replaces the row with its id; throws UniqueViolation first if a unique key is
   * taken. `force` (undoing a change) takes the key whoever holds it.
   */
  put(row: R, force = false): void {
    const old = this.byId.get(row.data.id);
    if (!force) this.checkUnique(row);
    if (old) this.unlink(old);
    this.byId.set(row.data.id, row);
    this.link(row);
  }

  private checkUnique(row: R): void {
    for (const [index, { key, rows }] of this.unique) {
      for (const k of keysOf(key(row))) {
        const holder = rows.get(k);
        if (holder && holder.data.id !== row.data.id) throw new UniqueViolation(this.name, index, k);
      }
    }
  }

  delete(row: R): void {
    const old = this.byId.get(row.data.id);
    if (!old) return;
    this.unlink(old);
    this.byId.delete(row.data.id);
  }

  private link(row: R): void {
    insertSorted(this.byAccount, row.account_id, row, this.compare);
    for (const { key, rows } of this.unique.values()) for (const k of keysOf(key(row))) rows.set(k, row);
    for (const { key, rows } of this.multi.values())
      for (const k of keysOf(key(row))) insertSorted(rows, k, row, this.compare);
  }

  private unlink(row: R): void {
    removeSorted(this.byAccount, row.account_id, row, this.compare);
    for (const { key, rows } of this.unique.values())
      for (const k of keysOf(key(row))) if (rows.get(k) === row) rows.delete(k);
    for (const { key, rows } of this.multi.values())
      for (const k of keysOf(key(row))) removeSorted(rows, k, row, this.compare);
  }
}

function insertSorted<R>(map: Map<string, R[]>, key: string, row: R, compare: (a: R, b: R) => number): void {
  let list = map.get(key);
  if (!list) map.set(key, (list = []));
  list.splice(sortedIndex(list, row, compare), 0, row);
}

function removeSorted<R>(map: Map<string, R[]>, key: string, row: R, compare: (a: R, b: R) => number): void {
  const list = map.get(key);
  if (!list) return;
  const at = sortedIndex(list, row, compare) - 1;
  const i = list[at] === row ? at : list.indexOf(row);
  if (i >= 0) list.splice(i, 1);
  if (!list.length) map.delete(key);
}
