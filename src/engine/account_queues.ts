/** Work queued by account (the scheduler's): an account's steps never interleave. */
import { cleanupFailed } from '../domain/side_paths.js';

/** Work queued by account: each piece runs once the account's previous one is done, so steps never interleave. */
export class AccountQueues {
  private readonly queues = new Map<string, Promise<unknown>>();

  /** Runs `fn` when the account's previous queued work is done; its failure is the caller's to hear. */
  run<T>(accountId: string, fn: () => Promise<T>): Promise<T> {
    const previous = this.queues.get(accountId) ?? Promise.resolve();
    const next = previous.then(fn, fn);
    // the chain goes on after a failure, which the caller of `next` hears
    const settled = next.catch(cleanupFailed);
    this.queues.set(accountId, settled);
    void settled.then(() => {
      if (this.queues.get(accountId) === settled) this.queues.delete(accountId);
    });
    return next;
  }

  /** Resolves once the account's queued work is done. */
  async idle(accountId: string): Promise<void> {
    // its failures are said by whoever queued it; this only waits for it to settle
    await this.queues.get(accountId)?.catch(cleanupFailed);
  }
}
