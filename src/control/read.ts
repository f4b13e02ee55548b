/** What every control handler reads the state with: its call's unit of work (SimCtx `read`). */
import type { UnitOfWork } from '../store/store.js';

/** Reads the store in the call's unit of work, outside any account's lock. */
export type Read = <T>(fn: (w: UnitOfWork) => Promise<T>) => Promise<T>;
