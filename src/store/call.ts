/**
 * A call's unit of work, begun with what the call will read (its `Prefetch`). The HTTP layer says what
 * a call reads; the store decides how: a backend whose reads are round trips reads the caller's key,
 * its account's clock and the record or page in the first one (and, for a write, takes the account's
 * lock in it too); the embedded store, whose reads are free, reads the key and ignores the rest. No
 * layer above the store sees which backend it was, nor what was read ahead.
 */
import { hold, type HeldWork } from './held.js';
import type { CallerRows, KeyLookup, PageLookup, RowAhead, Store, UnitOfWork, WorkScope } from './store.js';

/** What a call will read, told to the store as the call's work begins. */
export interface Prefetch {
  /** The caller's API key, by one of its unique indexes. */
  key: KeyLookup;
  /**
   * The call writes, in a work of its account begun now with the key and held for the handler
   * (`now`), or begun when the handler runs (`later`: an upload, whose body is read first).
   */
  writes?: 'now' | 'later';
  /** A record the call reads by its id, or a page of its account's list (a GET). */
  reads?: { collection: RowAhead['collection']; id: string } | PageLookup;
}

/** A call's work, begun with its prefetch. */
export interface CallWork {
  /** The caller's rows (its key, user, account clock), read as the work began. */
  readonly caller: CallerRows;
  /**
   * Runs `fn` in the call's unit of work of the caller's account and commits it (Store.run): a write's
   * work is the one begun with the key, unless released; a read's is given what was read ahead.
   */
  run<T>(fn: (work: UnitOfWork) => Promise<T>): Promise<T>;
  /** Lets go of the account's lock a write's work holds (a fault may delay the call); `run` begins anew. */
  release(): Promise<void>;
  /** Forgets what was read ahead (the call waited: its handler reads the records as they are then). */
  readAgain(): void;
}

/** Begins a call's work: the caller's rows are read at once, with whatever else the backend reads ahead. */
export async function beginCall(store: Store, prefetch: Prefetch): Promise<CallWork> {
  const { key, writes, reads } = prefetch;
  if (writes === 'now') {
    const held = await hold(store, { callerOf: key });
    return writeWork(store, held, await held.work.caller(key));
  }
  if (writes === 'later') return writeWork(store, undefined, await store.run({ read: true }, (w) => w.caller(key)));
  const lookup = {
    ...key,
    ...(reads && ('id' in reads ? { ahead: reads } : { page: reads })),
  };
  const caller = await store.run({ read: true }, (w) => w.caller(lookup));
  return readWork(store, caller);
}

function writeWork(store: Store, held: HeldWork | undefined, caller: CallerRows): CallWork {
  let holding = held;
  const accountId = caller.key?.account_id ?? '';
  return {
    caller,
    run: (fn) => {
      const now = holding;
      holding = undefined;
      return now ? now.finish(fn) : store.run({ account: accountId }, fn);
    },
    release: async () => {
      const now = holding;
      holding = undefined;
      await now?.abandon();
    },
    readAgain: () => undefined,
  };
}

function readWork(store: Store, caller: CallerRows): CallWork {
  let scope: WorkScope | undefined = readScope(caller);
  return {
    caller,
    run: (fn) => store.run(scope ?? { read: true }, fn),
    release: () => Promise.resolve(),
    readAgain: () => {
      scope = undefined;
    },
  };
}

/** A read given the rows read with the caller's key: its account's clock, and the record or page. */
function readScope(caller: CallerRows): WorkScope {
  const accountId = caller.key?.account_id;
  const clock: RowAhead[] = accountId ? [{ collection: 'clocks', id: accountId, row: caller.clock }] : [];
  return { read: true, ahead: [...clock, ...(caller.ahead ? [caller.ahead] : [])], page: caller.page };
}
