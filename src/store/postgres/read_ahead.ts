/**
 * What a call's work reads with the caller's key, learned from the works of the same task (its
 * operation) before it: a call that only reads costs the caller's round trip and its reads', and the
 * first of its reads is usually one record by an id it was given (a GET of a record) or one page of
 * its account's list (a list's GET). So the work that read first the row whose id was the value of
 * one of its arguments teaches the next work of that task to read, with the key, the row of that
 * collection whose id is that argument's value; the work that read first a page teaches the next of
 * that task with the same arguments to read the same page. Nothing is read ahead that no earlier work
 * read; a wrong guess costs a row nobody reads, never an answer.
 */
import type { PageWindow } from '../page.js';
import type { CallScope } from '../store.js';
import type { CollectionName } from '../../domain/rows.js';

/** What a work read first, besides the caller's rows. */
export type FirstRead =
  { collection: CollectionName; id: string } | { collection: CollectionName; accountId: string; window: PageWindow };

/** What to read with the caller's key: a row by id, or a page of the key's account's list. */
export interface Ahead {
  row?: { collection: CollectionName; id: string };
  page?: { collection: CollectionName; window: PageWindow };
}

/** Pages remembered at most, by task and arguments (the oldest forgotten first). */
export const REMEMBERED_PAGES = 1_000;

export class ReadAhead {
  /** By task: the collection its first read was of, and the argument that gave the id. */
  private readonly rows = new Map<string, { collection: CollectionName; arg: string }>();
  /** By task and arguments: the page its first read was. */
  private readonly pages = new Map<string, { collection: CollectionName; window: PageWindow }>();

  /** What to read with the key, for a call's work of `call`. */
  ahead(call: CallScope): Ahead {
    const row = this.rows.get(call.task);
    const id = row && call.args[row.arg];
    return {
      ...(row && id !== undefined && { row: { collection: row.collection, id } }),
      ...(this.pages.has(pageKey(call)) && { page: this.pages.get(pageKey(call)) }),
    };
  }

  /** Learns what a call's work of `call` read first (nothing: it read only the caller's rows). */
  learn(call: CallScope, first: FirstRead | undefined): void {
    const key = pageKey(call);
    if (first && 'window' in first) {
      this.pages.delete(key);
      this.pages.set(key, { collection: first.collection, window: first.window });
      if (this.pages.size > REMEMBERED_PAGES) this.pages.delete(this.pages.keys().next().value ?? key);
      return;
    }
    this.pages.delete(key);
    const arg = first && Object.keys(call.args).find((name) => call.args[name] === first.id);
    if (first && arg !== undefined) this.rows.set(call.task, { collection: first.collection, arg });
    else this.rows.delete(call.task);
  }
}

const pageKey = (call: CallScope): string => JSON.stringify([call.task, call.args]);
