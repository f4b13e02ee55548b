/**
 * The one pagination every list uses (interface.md section 5): `inserted_at` then `id` order
 * (or newest first where the spec says so), `first`/`after` forward, `last`/`before` backward,
 * opaque cursors bound to their list.
 */
import { invalidParameter } from '../domain/errors.js';
import { compareKeys, cutPage, keyOf, type PageRows, type PageWindow, type SortKey } from '../store/page.js';

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

function encodeCursor(list: string, key: SortKey): string {
  return Buffer.from(JSON.stringify([list, ...key])).toString('base64url');
}

/** A cursor's list and key, if it is one (of any list). */
function cursorParts(cursor: string): [string, string, string] | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    // not base64url JSON: not a cursor
    return undefined;
  }
  const ok = Array.isArray(parsed) && parsed.length === 3 && parsed.every((p) => typeof p === 'string');
  return ok ? (parsed as [string, string, string]) : undefined;
}

function decodeCursor(list: string, cursor: string, parameter: string): SortKey {
  const parts = cursorParts(cursor);
  if (parts?.[0] !== list) throw invalidParameter(parameter, `${parameter} is not a cursor of this list.`);
  return [parts[1], parts[2]];
}

export interface ListOptions {
  /** Names the list (operation and its scope), so a cursor of another list is refused. */
  list: string;
  newestFirst?: boolean;
  /** The rows are not in list order yet (the store's own lists always are). */
  unsorted?: boolean;
}

/** The window a page query asks for, its cursors read (a cursor of another list is refused). */
export function windowOf(query: PageQuery, opts: ListOptions): PageWindow {
  if (query.first !== undefined && query.last !== undefined) {
    throw invalidParameter('last', 'first and last cannot be given together.');
  }
  return {
    after: query.after === undefined ? undefined : decodeCursor(opts.list, query.after, 'after'),
    before: query.before === undefined ? undefined : decodeCursor(opts.list, query.before, 'before'),
    size: query.last ?? query.first ?? DEFAULT_PAGE_SIZE,
    fromEnd: query.last !== undefined,
    newestFirst: !!opts.newestFirst,
  };
}

/** The page as the API answers it, its cursors bound to the list. */
export function pageAnswer<R extends Keyed>(list: string, page: PageRows<R>): Page<R> {
  const firstRow = page.rows[0];
  const lastRow = page.rows[page.rows.length - 1];
  return {
    count: page.count,
    page_info: {
      first: firstRow ? encodeCursor(list, keyOf(firstRow)) : null,
      has_next_page: page.hasNext,
      has_previous_page: page.hasPrevious,
      last: lastRow ? encodeCursor(list, keyOf(lastRow)) : null,
    },
    results: page.rows,
  };
}

/**
 * One page of `rows`. The store keeps lists in order, so a page costs a binary search and a slice,
 * not a sort of the whole list.
 */
export function paginate<R extends Keyed>(rows: readonly R[], query: PageQuery, opts: ListOptions): Page<R> {
  const window = windowOf(query, opts);
  const ascending = opts.unsorted ? [...rows].sort((a, b) => compareKeys(keyOf(a), keyOf(b))) : rows;
  return pageAnswer(opts.list, cutPage(ascending, window));
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

/**
 * The 200 answer of a list the store pages itself (the account's whole list of one collection, in list
 * order): only the page is read, which a store with a sort-key index reads by that index.
 */
export async function storePageOf<R extends Keyed, T>(
  ctx: ListContext,
  read: (window: PageWindow) => Promise<PageRows<R>>,
  present: (row: R) => T | Promise<T>,
  opts: { newestFirst?: boolean } = {},
) {
  const list = `${ctx.meta.operationId}:${ctx.principal.accountId}`;
  const page = pageAnswer(list, await read(windowOf(ctx.query, { list, ...opts })));
  const results: T[] = [];
  for (const row of page.results) results.push(await present(row));
  return { status: 200 as const, body: { ...page, results } };
}
