/** What the caller's and a page's statements answer (src/store/postgres/sql.ts), as rows; and what a refused write was. */
import pg from 'pg';
import type { PageRows, PageWindow, SortKey } from '../page.js';
import type { ApiKeyRow } from '../../domain/rows.js';
import type { AnyRow } from '../schema.js';
import type { CallerRows } from '../store.js';
import { deepFreeze, UniqueViolation } from '../collections.js';

/** What a page's statement answers (pageSql): counts as text, and the rows as one JSON array. */
export interface PageFound {
  n: string;
  lo: string;
  hi: string | null;
  rows: string;
}

/** A window's sort key as the page's statement takes it. */
export const windowKey = (k: SortKey | undefined): string | null => (k ? `${k[0]}\u0001${k[1]}` : null);

/** The page a page's statement found, placed in its list. */
export function pageOf<R extends AnyRow>(r: PageFound | undefined, w: PageWindow): PageRows<R> {
  const n = Number(r?.n ?? 0);
  const lo = Number(r?.lo ?? 0);
  const hi = Math.max(lo, r?.hi === null || r?.hi === undefined ? n : Number(r.hi));
  const [start, end] = w.fromEnd ? [Math.max(lo, hi - w.size), hi] : [lo, Math.min(hi, lo + w.size)];
  const rows = (JSON.parse(r?.rows ?? '[]') as R[]).map((row) => deepFreeze(row));
  return { count: n, rows, hasPrevious: start > 0, hasNext: end < n };
}

/** What the caller's statement answers (CALLER_SQL): rows as JSON text. */
export interface CallerFound {
  key: string | null;
  user_row: string | null;
  clock: string | null;
}

export const parsed = <R>(text: string | null | undefined) => (text ? deepFreeze(JSON.parse(text) as R) : undefined);

/** The caller's rows of what the caller's statement found (no row: no key matched). */
export function callerRows(r: CallerFound | undefined): CallerRows {
  return { key: parsed<ApiKeyRow>(r?.key), user: parsed(r?.user_row), clock: parsed(r?.clock) };
}

/** The UniqueViolation a refused write was: a row's id taken, or a unique key another row holds. */
export function violationOf(e: unknown): UniqueViolation | undefined {
  if (!(e instanceof pg.DatabaseError) || e.code !== '23505') return undefined;
  const key = /^Key \((.*)\)=\((.*)\) already exists/.exec(e.detail ?? '');
  if (e.constraint === 'row_index_unique') {
    const [collection = '', index = '', ...rest] = (key?.[2] ?? '').split(', ');
    return new UniqueViolation(collection, index, rest.join(', '));
  }
  return new UniqueViolation((e.table ?? '').replace(/^c_/, ''), 'id', key?.[2] ?? '');
}
