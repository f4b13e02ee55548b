/** What every control handler needs to read the state as it stands. */
import type { Runtime } from '../runtime.js';
import type { UnitOfWork } from '../store/store.js';

/** Reads the store, outside any account's lock. */
export const read = <T>(runtime: Runtime, fn: (w: UnitOfWork) => Promise<T>): Promise<T> =>
  runtime.run({ read: true }, fn);
