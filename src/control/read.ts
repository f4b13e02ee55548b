/** What every control handler needs to read the state as it stands. */
import type { ControlPort } from '../handling/control_port.js';
import type { UnitOfWork } from '../store/store.js';

/** Reads the store, outside any account's lock. */
export const read = <T>(port: ControlPort, fn: (w: UnitOfWork) => Promise<T>): Promise<T> =>
  port.run({ read: true }, fn);
