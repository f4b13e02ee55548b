/** A promise with its resolve and reject in hand: a commit's durability, settled by the append that carries it. */
import { cleanupFailed } from '../../domain/side_paths.js';
export interface Deferred {
  promise: Promise<void>;
  resolve(): void;
  reject(e: unknown): void;
}

export function deferred(): Deferred {
  let resolve!: () => void;
  let reject!: (e: unknown) => void;
  const promise = new Promise<void>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  // the commit's caller hears a rejection; this keeps one nobody awaits from being unhandled
  promise.catch(cleanupFailed);
  return { promise, resolve, reject };
}
