/**
 * A page of an account's list as a store reads it (interface.md section 5's pagination, without its
 * cursors' text): the rows after one key and before another, the first or the last `size` of them,
 * oldest first or newest first. The embedded store cuts it from the list it keeps in order; PostgreSQL
 * reads only the page, by its sort key.
 */
import { at, sortedIndex } from '../domain/lists.js';

/** A row's place in its list: `inserted_at`, then `id`. */
export type SortKey = readonly [string, string];

export interface PageWindow {
  /** Rows shown after this one (a cursor's key). */
  after?: SortKey;
  /** Rows shown before this one. */
  before?: SortKey;
  size: number;
  /** The last `size` rows of the window (`last`), rather than the first (`first`). */
  fromEnd: boolean;
  newestFirst: boolean;
}

export interface PageRows<R> {
  /** Every row of the list. */
  count: number;
  /** The page, in the order shown. */
  rows: R[];
  hasPrevious: boolean;
  hasNext: boolean;
}

interface Keyed {
  data: { id: string; inserted_at: string };
}

export const keyOf = (r: Keyed): SortKey => [r.data.inserted_at, r.data.id];

export function compareKeys(a: SortKey, b: SortKey): number {
  return a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : a[1] < b[1] ? -1 : a[1] > b[1] ? 1 : 0;
}

/** The page of `rows` (in list order, oldest first): binary searches and a slice, not a scan. */
export function cutPage<R extends Keyed>(rows: readonly R[], w: PageWindow): PageRows<R> {
  const n = rows.length;
  const index = (key: SortKey, after: boolean) => sortedIndex(rows, key, (row, k) => compareKeys(keyOf(row), k), after);
  // positions in the list as shown (newest first reverses it)
  const item = (i: number): R => at(rows, w.newestFirst ? n - 1 - i : i);
  let start = 0;
  let end = n;
  if (w.after) start = w.newestFirst ? n - index(w.after, false) : index(w.after, true);
  if (w.before) end = Math.max(start, w.newestFirst ? n - index(w.before, true) : index(w.before, false));
  if (w.fromEnd) start = Math.max(start, end - w.size);
  else end = Math.min(end, start + w.size);
  const page: R[] = [];
  for (let i = start; i < end; i++) page.push(item(i));
  return { count: n, rows: page, hasPrevious: start > 0, hasNext: end < n };
}
