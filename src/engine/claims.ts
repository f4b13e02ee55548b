/**
 * Claims on lifecycle steps, over a store several instances share: a step is claimed (for
 * CLAIM_LEASE_MS of wall time) by the instance whose work made it due at once, and by the one sending
 * a delivery outside any lock. The others wait for it, keeping the account's time order, and take it
 * over only once the claim has lapsed (that instance died). A store one process owns claims nothing.
 */
import type { StepRow } from '../domain/rows.js';
import type { UnitOfWork } from '../store/store.js';

/** How long (wall time) a claim holds: past a delivery's timeout twice (a duplicate fault sends twice). */
export const CLAIM_LEASE_MS = 30_000;

export interface ClaimsOptions {
  /** This instance's name among those over a shared store. */
  instance: string;
  /** Whether other instances share the store (only then is anything claimed). */
  shared: boolean;
  wall(): number;
}

export class Claims {
  constructor(private readonly opts: ClaimsOptions) {}

  get shared(): boolean {
    return this.opts.shared;
  }

  /** Whether another instance is running the step now (its claim has not lapsed). */
  heldElsewhere(step: StepRow): boolean {
    return !!step.claim && step.claim.by !== this.opts.instance && step.claim.until > this.opts.wall();
  }

  /** A claim of this instance, from now. */
  claim(): { by: string; until: number } {
    return { by: this.opts.instance, until: this.opts.wall() + CLAIM_LEASE_MS };
  }

  /**
   * In the work that made them: the account's steps due by `nowMs` are this instance's to run, right
   * after the commit, so another instance's `advance` waits for them rather than running (and
   * reporting) them itself, as one instance would.
   */
  async claimDue(w: UnitOfWork, accountId: string, nowMs: number): Promise<void> {
    if (!this.opts.shared) return;
    // the earliest steps, more at a time while they are all due: what is read is what is due (and one more)
    for (let n = 16, seen = 0; ; n *= 4) {
      const steps = await w.view(accountId).steps.soonest(n);
      for (const step of steps.slice(seen)) {
        if (Date.parse(step.data.at) > nowMs) return;
        if (this.heldElsewhere(step)) continue;
        await w.steps.update(step, (s) => {
          s.claim = this.claim();
        });
      }
      if (steps.length < n) return;
      seen = steps.length;
    }
  }
}
