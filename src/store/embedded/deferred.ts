/** A promise with its resolve and reject in hand: a commit's durability, settled by the append that carries it. */
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
  promise.catch(() => undefined);
  return { promise, resolve, reject };
}
