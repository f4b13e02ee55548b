/**
 * What a handler, a lifecycle step or a control call works with: one account's view of a unit of
 * work with that account's clock, identifiers timed by it, randomness and outbox (Work); and the one
 * runner of such work (WorkRunner), which the HTTP path, the control API and the scheduler
 * all go through. Nothing else: the wiring stays in src/server.ts.
 */
import { idsAt, type Ids, type Random } from '../deps.js';
import { AccountView, type Store, type UnitOfWork, type WorkScope } from '../store/store.js';
import type { Claims } from './claims.js';
import type { Clock, Clocks } from './clock.js';
import { openOutbox, type EffectsOf, type Outbox } from './outbox.js';
import type { Tracing } from '../observability/tracing.js';

/**
 * How a unit of work of an account runs: read-only (`read`); a read may be given the account's clock
 * as read already (a caller's), which it then does not read again. `at`: the scheduler's work of steps
 * due at that time: the account's clock is moved forward to it first, and the scheduler, which looks at
 * the account's steps itself, is not told of the steps it scheduled.
 */
export interface WorkOptions {
  read?: boolean;
  clock?: Clock;
  at?: number;
}

/**
 * One account's view of a unit of work (its collections, files and after-commit work: AccountView)
 * with the account's clock, identifiers timed by it, randomness, and the outbox: effects (events,
 * CDRs, deliveries, lifecycle steps) written with the work, run after its commit. Its identifiers and
 * outbox are made at their first use (most reads use neither).
 */
export class Work extends AccountView {
  readonly random: Random;
  private readonly lazy: { ids?: Ids; outbox?: Outbox } = {};

  constructor(
    private readonly sources: Pick<WorkRunnerOptions, 'ids' | 'random' | 'effects' | 'tracing'>,
    unit: UnitOfWork,
    accountId: string,
    readonly clock: Clock,
  ) {
    super(unit, accountId);
    this.random = sources.random;
  }

  get ids(): Ids {
    return (this.lazy.ids ??= idsAt(this.sources.ids, this.clock.ms));
  }

  get outbox(): Outbox {
    const { effects, tracing } = this.sources;
    return (this.lazy.outbox ??= openOutbox(this, this.clock, this.ids, effects, () => tracing.cause()));
  }

  /** The earliest step the work scheduled (null: none). */
  get earliest(): number | null {
    return this.lazy.outbox ? this.lazy.outbox.earliest : null;
  }
}

/** What the runner works with: the store, the clocks and claims, and the nondeterminism and effects a Work draws on. */
export interface WorkRunnerOptions {
  store: Store;
  clocks: Clocks;
  claims: Claims;
  ids: Ids;
  random: Random;
  /** The provider's effects an outbox makes. */
  effects: EffectsOf;
  /** Whose work runs now (the cause its outbox keeps with what it makes). */
  tracing: Pick<Tracing, 'cause'>;
}

/** Who hears of an account whose committed work scheduled a step: the scheduler, which runs what is due. */
export interface StepListener {
  notify(accountId: string): void;
}

/**
 * The one way a unit of work runs: a call's, a lifecycle step's, a delivery's, a reset's, a control
 * call's, a metric's read (WorkRunner; nothing else calls the store's `run`).
 */
export interface Units {
  run<T>(scope: WorkScope, fn: (work: UnitOfWork) => Promise<T>): Promise<T>;
}

/** Runs units of work, an account's each with its Work: the one way steps enter the schedule. */
export class WorkRunner implements Units {
  private scheduler?: StepListener;

  constructor(private readonly opts: WorkRunnerOptions) {}

  /** The scheduler to tell of scheduled steps: it is made after the runner, which it runs its steps through. */
  notifies(scheduler: StepListener): void {
    this.scheduler = scheduler;
  }

  /** Runs `fn` in one unit of work of `scope` and commits it (the store's own, with no Work around it). */
  run<T>(scope: WorkScope, fn: (work: UnitOfWork) => Promise<T>): Promise<T> {
    return this.opts.store.run(scope, fn);
  }

  /**
   * Runs `fn` in one unit of work of the account, with its clock and outbox, and commits it; once
   * committed, the scheduler hears of any step it scheduled. `fn` is given the account's Work, and the
   * unit itself: the view across accounts, which only the control API takes.
   */
  async work<T>(
    accountId: string,
    fn: (work: Work, unit: UnitOfWork) => Promise<T>,
    opts: WorkOptions = {},
  ): Promise<T> {
    let earliest: number | null = null;
    const result = await this.run(opts.read ? { read: true } : { account: accountId }, async (w) => {
      const clock =
        opts.at !== undefined
          ? await this.opts.clocks.advanceTo(w, accountId, opts.at)
          : opts.read && opts.clock
            ? opts.clock
            : await this.opts.clocks.of(w, accountId);
      const work = new Work(this.opts, w, accountId, clock);
      const out = await fn(work, w);
      earliest = await this.scheduledBy(w, accountId, work);
      return out;
    });
    if (earliest !== null && opts.at === undefined) this.scheduler?.notify(accountId);
    return result;
  }

  /**
   * The steps `work` scheduled are told to the other instances with its commit; those already due are
   * claimed here. Answers the earliest it scheduled (null: none).
   */
  private async scheduledBy(w: UnitOfWork, accountId: string, work: Work): Promise<number | null> {
    const earliest = work.earliest;
    if (earliest === null) return null;
    await w.tell('steps', accountId);
    if (earliest <= work.clock.ms()) await this.opts.claims.claimDue(w, accountId, work.clock.ms());
    return earliest;
  }
}
