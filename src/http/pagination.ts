/**
 * The one pagination every list uses (interface.md section 5): `inserted_at` then `id` order
 * (or newest first where the spec says so), `first`/`after` forward, `last`/`before` backward,
 * opaque cursors bound to their list.
 */
import { at, sortedIndex } from '../domain/lists.js';
import { invalidParameter } from '../domain/errors.js';

export interface PageQuery {
  first?: number;
  last?: number;
  after?: string;
  before?: string;
}

export interface Page<T> {
  count: number;
  page_info: { first: string | null; has_next_page: boolean; has_previous_page: boolean; last: string | null };
  results: T[];
}

interface Keyed {
  data: { id: string; inserted_at: string };
}

export const DEFAULT_PAGE_SIZE = 25;

type SortKey = [string, string];

const keyOf = (r: Keyed): SortKey => [r.data.inserted_at, r.data.id];

function compare(a: SortKey, b: SortKey): number {
  return a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : a[1] < b[1] ? -1 : a[1] > b[1] ? 1 : 0;
}

function encodeCursor(list: string, key: SortKey): string {
  return Buffer.from(JSON.stringify([list, ...key])).toString('base64url');
}

function decodeCursor(list: string, cursor: string, parameter: string): SortKey {
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    parsed = null;
  }
  if (
    !Array.isArray(parsed) ||
    parsed.length !== 3 ||
    !parsed.every((p) => typeof p === 'string') ||
    parsed[0] !== list
  ) {
    throw invalidParameter(parameter, `${parameter} is not a cursor of this list.`);
  }
  return [parsed[1] as string, parsed[2] as string];
}

export interface ListOptions {
  /** Names the list (operation and its scope), so a cursor of another list is refused. */
  list: string;
  newestFirst?: boolean;
  /** The rows are not in list order yet (the store's own lists always are). */
  unsorted?: boolean;
}

/** The first index in `rows` whose key sorts after `key` (`rows` sorted ascending). */
const firstAfter = <R extends Keyed>(rows: readonly R[], key: SortKey): number =>
  sortedIndex(rows, key, (row, k) => compare(keyOf(row), k), true);

/** The first index in `rows` whose key sorts at or after `key`. */
const firstAtOrAfter = <R extends Keyed>(rows: readonly R[], key: SortKey): number =>
  sortedIndex(rows, key, (row, k) => compare(keyOf(row), k), false);

/**
 * One page of `rows`, each shown through `present`. The store keeps lists in order, so a page
 * costs a binary search and a slice, not a sort of the whole list.
 */
export function paginate<R extends Keyed>(rows: readonly R[], query: PageQuery, opts: ListOptions): Page<R> {
  if (query.first !== undefined && query.last !== undefined) {
    throw invalidParameter('last', 'first and last cannot be given together.');
  }
  const ascending = opts.unsorted ? [...rows].sort((a, b) => compare(keyOf(a), keyOf(b))) : rows;
  const n = ascending.length;
  // positions in the list as shown (newest first reverses it)
  const item = (i: number): R => at(ascending, opts.newestFirst ? n - 1 - i : i);
  let start = 0;
  let end = n;
  if (query.after !== undefined) {
    const k = decodeCursor(opts.list, query.after, 'after');
    start = opts.newestFirst ? n - firstAtOrAfter(ascending, k) : firstAfter(ascending, k);
  }
  if (query.before !== undefined) {
    const k = decodeCursor(opts.list, query.before, 'before');
    end = Math.max(start, opts.newestFirst ? n - firstAfter(ascending, k) : firstAtOrAfter(ascending, k));
  }
  if (query.last !== undefined) start = Math.max(start, end - query.last);
  else end = Math.min(end, start + (query.first ?? DEFAULT_PAGE_SIZE));
  const page: R[] = [];
  for (let i = start; i < end; i++) page.push(item(i));
  const firstRow = page[0];
  const lastRow = page[page.length - 1];
  return {
    count: n,
    page_info: {
      first: firstRow ? encodeCursor(opts.list, keyOf(firstRow)) : null,
      has_next_page: end < n,
      has_previous_page: start > 0,
      last: lastRow ? encodeCursor(opts.list, keyOf(lastRow)) : null,
    },
    results: page,
  };
}

/** What a list handler knows that names its list: the operation and the caller's account. */
export interface ListContext {
  query: PageQuery;
  meta: { operationId: string };
  principal: { accountId: string };
}

/**
 * The 200 answer of a list operation: one page of `rows`, its cursors bound to the operation and
 * to `scope` (the caller's account unless the list belongs to one record, such as a number).
 */
export async function pageOf<R extends Keyed, T>(
  ctx: ListContext,
  rows: readonly R[],
  present: (row: R) => T | Promise<T>,
  opts: { scope?: string; newestFirst?: boolean; unsorted?: boolean } = {},
) {
  const { scope, ...rest } = opts;
  const page = paginate(rows, ctx.query, {
    list: `${ctx.meta.operationId}:${scope ?? ctx.principal.accountId}`,
    ...rest,
  });
  const results: T[] = [];
  for (const row of page.results) results.push(await present(row));
  return { status: 200 as const, body: { ...page, results } };
}
