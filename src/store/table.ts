/** What every backend's table does with a row: freeze it, list its index keys, make its next version, refuse a taken unique key. */
import type { AnyRow, Draft } from '../domain/rows.js';

/** A second row for a key of a unique index: the store refuses it (a constraint, as in PostgreSQL). */
export class UniqueViolation extends Error {
  constructor(
    readonly collection: string,
    readonly index: string,
    readonly key: string,
  ) {
    super(`unique index ${collection}.${index} already holds this key`);
  }
}

/**
 * The errors a write answers for a unique key another row holds, by the index's name: the index is
 * the check (a backend finds the holder as it writes, or as the work's writes are sent), so a
 * handler need not read for the key first.
 */
export type Taken = Readonly<Partial<Record<string, () => Error>>>;

/** The error `taken` gives for a refused unique key, else `e` itself. */
export const refusal = (e: unknown, taken: Taken | undefined): unknown =>
  (e instanceof UniqueViolation && taken?.[e.index]?.()) || e;

/** Freezes a row and everything in it, so a change can only go through the store. */
export function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const v of Object.values(value as object)) deepFreeze(v);
  }
  return value;
}

/** The keys an index gives a row (none, one or several). */
export const keysOf = (k: string | null | readonly (string | null)[]): string[] =>
  (Array.isArray(k) ? (k as (string | null)[]) : [k as string | null]).filter((x): x is string => x !== null);

/**
 * A row's next version, as every backend makes it: `change` applied to a copy of the row as stored
 * now (`current`, undefined when it is gone), frozen; its id and account never change.
 */
export function changed<R extends AnyRow>(
  name: string,
  id: string,
  current: R | undefined,
  change: (draft: Draft<R>) => void,
): R {
  if (!current) throw new Error(`${name} ${id} is gone; it cannot change`);
  const draft = structuredClone(current) as Draft<R>;
  change(draft);
  const next = deepFreeze(draft as R);
  if (next.data.id !== current.data.id || next.account_id !== current.account_id)
    throw new Error(`${name}: a row's id and account never change`);
  return next;
}
