/**
 * What a handler, a lifecycle step or a control call works with: the unit of work of one account,
 * that account's clock, identifiers timed by it, randomness, and the simulation's outbox port; and
 * the one runner of such work (WorkRunner), which the HTTP path, the control API and the scheduler
 * all go through. Nothing else: the wiring stays in src/server.ts.
 */
import { idsAt, type Ids, type Random } from '../deps.js';
import type { CallWork } from '../store/call.js';
import type { Store, UnitOfWork } from '../store/store.js';
import type { Claims } from './claims.js';
import type { Clock, Clocks } from './clock.js';
import { outbox, type SimPort } from './outbox.js';

export interface Work {
  readonly accountId: string;
  readonly store: UnitOfWork;
  readonly clock: Clock;
  readonly ids: Ids;
  readonly random: Random;
  /** Effects (events, CDRs, deliveries, lifecycle steps): written with the work, run after its commit. */
  readonly sim: SimPort;
}

/** How a unit of work of an account runs: read-only (`read`), or as the call's work the store began (`call`). */
export interface WorkOptions {
  read?: boolean;
  /** A call's work, begun with what it reads (src/store/call.ts): the handler runs in it. */
  call?: CallWork;
}

/** The nondeterminism a unit of work draws on. */
export interface WorkSources {
  ids: Ids;
  random: Random;
}

/** A unit of work's Work, and the earliest step it scheduled (null: none). */
export interface MadeWork extends Work {
  readonly earliest: number | null;
}

/**
 * The Work of a unit of work. Its identifiers and outbox are made at their first use (most reads use neither); a class, so that
 * every Work has one shape and its getters are made once.
 */
class LazyWork implements MadeWork {
  readonly random: Random;
  private made: { ids?: Ids; sim?: SimPort } = {};

  constructor(
    private readonly sources: WorkSources,
    readonly store: UnitOfWork,
    readonly accountId: string,
    readonly clock: Clock,
  ) {
    this.random = sources.random;
  }

  get ids(): Ids {
    return (this.made.ids ??= idsAt(this.sources.ids, this.clock.ms));
  }

  get sim(): SimPort {
    return (this.made.sim ??= outbox(this.store, this.accountId, this.clock, this.ids));
  }

  get earliest(): number | null {
    return this.made.sim ? this.made.sim.earliest : null;
  }
}

export const makeWork = (sources: WorkSources, store: UnitOfWork, accountId: string, clock: Clock): MadeWork =>
  new LazyWork(sources, store, accountId, clock);

export interface WorkRunnerOptions extends WorkSources {
  store: Store;
  clocks: Clocks;
  claims: Claims;
  /** Told of an account whose committed work scheduled a step (the scheduler runs what is due). */
  scheduled(accountId: string): void;
}

/** Runs units of work of an account, each with its Work: the one way steps enter the schedule. */
export class WorkRunner {
  constructor(private readonly opts: WorkRunnerOptions) {}

  /**
   * Runs `fn` in one unit of work of the account, with its clock and outbox, and commits it; once
   * committed, the scheduler hears of any step it scheduled.
   */
  async work<T>(accountId: string, fn: (work: Work) => Promise<T>, opts: WorkOptions = {}): Promise<T> {
    let earliest: number | null = null;
    const body = async (w: UnitOfWork) => {
      const done = await this.within(w, accountId, await this.opts.clocks.of(w, accountId), fn);
      earliest = done.earliest;
      return done.out;
    };
    const result = opts.call
      ? await opts.call.run(body)
      : await this.opts.store.run(opts.read ? { read: true } : { account: accountId }, body);
    if (earliest !== null) this.opts.scheduled(accountId);
    return result;
  }

  /**
   * Runs `fn` on the account's Work inside `w`, its clock at `clock`. The steps it scheduled are told
   * to the other instances with this commit, and those already due are claimed here. Answers the
   * earliest step it scheduled (null: none).
   */
  async within<T>(
    w: UnitOfWork,
    accountId: string,
    clock: Clock,
    fn: (work: Work) => Promise<T>,
  ): Promise<{ out: T; earliest: number | null }> {
    const work = makeWork(this.opts, w, accountId, clock);
    const out = await fn(work);
    const earliest = work.earliest;
    if (earliest !== null) {
      await w.tell('steps', accountId);
      if (earliest <= clock.ms()) await this.opts.claims.claimDue(w, accountId, clock.ms());
    }
    return { out, earliest };
  }
}
