/**
 * How every backend runs a unit of work, written once (Store.run, StoreBase): the backend opens one
 * (its locks, its transaction: `Opened`, a UnitOfWork of its own kind), `fn` runs in it, and it is
 * committed (durable) or ended keeping nothing; once durable, its after-commit hooks run, and one
 * that fails is logged, never the answer (the work is durable). A backend supplies how a unit opens,
 * commits and ends, and what its failures become; its unit of work's storage is its UnitOfWork's
 * (store.ts). And a caller's rows read as any unit reads them (Store.caller).
 */
import type { CallerRows, KeyLookup, UnitOfWork, WorkScope } from './store.js';

/** A unit of work a backend opened. */
export interface Opened {
  readonly work: UnitOfWork;
  /** Makes the work durable, resolving once it is; a commit that fails has ended the work itself. */
  commit(): Promise<void>;
  /** Ends the work keeping nothing of it (`fn` failed). */
  abort(): Promise<void>;
  /** What runs once the work is durable, in order. */
  readonly hooks: readonly (() => void | Promise<void>)[];
}

export abstract class StoreBase {
  protected abstract readonly logger: { warn(message: string): void };

  /** Opens a unit of work of `scope`, its locks taken. */
  protected abstract open(scope: WorkScope): Promise<Opened>;

  /** What a failure of a unit of work becomes for its caller (a backend's own: StorageUnavailable). */
  protected failure(e: unknown): unknown {
    return e;
  }

  async run<T>(scope: WorkScope, fn: (work: UnitOfWork) => Promise<T>): Promise<T> {
    let opened: Opened;
    try {
      opened = await this.open(scope);
    } catch (e) {
      throw this.failure(e);
    }
    let result: T;
    try {
      result = await fn(opened.work);
    } catch (e) {
      await opened.abort();
      throw this.failure(e);
    }
    try {
      await opened.commit();
    } catch (e) {
      throw this.failure(e);
    }
    for (const hook of opened.hooks) {
      try {
        await hook();
      } catch (e) {
        this.logger.warn(`store: after a commit: ${(e as Error).message}`);
      }
    }
    return result;
  }

  /** The rows a caller's key names, read in a unit of work of their own (Store.caller). */
  caller(lookup: KeyLookup): Promise<CallerRows> {
    return this.run({ read: true }, (w) => readCaller(w, lookup));
  }
}

/** The rows a caller's key names, read one table at a time. */
export async function readCaller(w: UnitOfWork, lookup: KeyLookup): Promise<CallerRows> {
  const key = await w.apiKeys[lookup.index === 'key' ? 'byKey' : 'byIdentity'](lookup.value);
  if (!key) return { key, user: undefined, clock: undefined };
  const user = key.user_id ? await w.view(key.account_id).users.get(key.user_id) : undefined;
  return { key, user, clock: await w.clocks.get(key.account_id) };
}
