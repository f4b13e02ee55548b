/**
 * A unit of work begun now and finished later (Store.run's callback, held open): a call's write is
 * begun with the caller's key (src/store/call.ts), so that a backend may read the key, take the
 * account's lock and read its clock in one round trip, and the pipeline's stages run before its
 * handler finishes it.
 */
import type { Store, UnitOfWork, WorkScope } from './store.js';
import { cleanupFailed } from '../domain/side_paths.js';

export interface HeldWork {
  readonly work: UnitOfWork;
  /** Runs `fn` in the work and commits it, as Store.run does; once. */
  finish<T>(fn: (work: UnitOfWork) => Promise<T>): Promise<T>;
  /** Ends the work without keeping anything of it (nothing when it was finished). */
  abandon(): Promise<void>;
}

/** The reason an abandoned work ends with (caught here, never seen by a caller). */
const ABANDONED = new Error('the held work was abandoned');

/** Begins a unit of work of `scope` and holds it until finished or abandoned. */
export function hold(store: Store, scope: WorkScope): Promise<HeldWork> {
  return new Promise<HeldWork>((resolveHeld, rejectHeld) => {
    let go!: (fn: (work: UnitOfWork) => Promise<unknown>) => void;
    let stop!: (e: unknown) => void;
    const job = new Promise<(work: UnitOfWork) => Promise<unknown>>((resolve, reject) => {
      go = resolve;
      stop = reject;
    });
    let taken = false;
    const done = store.run(scope, async (work) => {
      resolveHeld({
        work,
        finish: <T>(fn: (w: UnitOfWork) => Promise<T>) => {
          if (taken) throw new Error('a held work is finished once');
          taken = true;
          go(fn);
          return done as Promise<T>;
        },
        abandon: async () => {
          if (taken) return;
          taken = true;
          stop(ABANDONED);
          // an abandoned hold's work was refused on purpose (ABANDONED); a store failure is the held call's
          await done.catch(cleanupFailed);
        },
      });
      return (await job)(work);
    });
    // a work that never began (the store is unavailable) is the hold's failure
    done.catch((e: unknown) => {
      if (e !== ABANDONED) rejectHeld(e);
    });
  });
}
