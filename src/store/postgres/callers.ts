/**
 * The callers' rows (CallerRows) an instance read, kept so that a call is known before its unit of
 * work opens without a round trip of its own: a copy is dropped when a commit changes a row it is
 * made of (CALLER_COLLECTIONS), on this instance at once and on every other one as it hears the
 * commit told on the peers' channel (`callers`). Nothing is kept while that channel is not heard
 * (a notification missed meanwhile would leave a copy stale), nor a key that matched nothing.
 */
import type { CallerRows, KeyLookup } from '../store.js';

/** Callers kept at most (the oldest read first forgotten first). */
export const KEPT_CALLERS = 10_000;

export class CallerCopies {
  private readonly kept = new Map<string, CallerRows>();
  /** Moves at each drop: a read begun before it may not be kept. */
  private generation = 0;

  /** The copy for the key, if one is kept. */
  get(lookup: KeyLookup): CallerRows | undefined {
    return this.kept.get(keyOf(lookup));
  }

  /** Reads the caller's rows with `read`, and keeps them if nothing was dropped meanwhile and `keep` still holds. */
  async read(lookup: KeyLookup, read: () => Promise<CallerRows>, keep: () => boolean): Promise<CallerRows> {
    const generation = this.generation;
    const rows = await read();
    if (rows.key && generation === this.generation && keep()) {
      this.kept.set(keyOf(lookup), rows);
      if (this.kept.size > KEPT_CALLERS) this.kept.delete(this.kept.keys().next().value ?? '');
    }
    return rows;
  }

  /** Drops the copies of the accounts (`*`: every one). */
  drop(accounts: Iterable<string>): void {
    this.generation++;
    const gone = new Set(accounts);
    if (gone.has('*')) return this.kept.clear();
    for (const [k, rows] of this.kept) if (gone.has(rows.key?.account_id ?? '')) this.kept.delete(k);
  }
}

const keyOf = (lookup: KeyLookup): string => `${lookup.index}\u0001${lookup.value}`;
