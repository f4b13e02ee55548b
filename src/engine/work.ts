/**
 * What a handler, a lifecycle step or a control call works with: the unit of work of one account,
 * that account's clock, identifiers timed by it, randomness, and the simulation's outbox port.
 * Nothing else: the wiring stays in src/server.ts.
 */
import { idsAt, type Ids, type Random } from '../deps.js';
import type { HeldWork } from '../store/held.js';
import type { CallerRows, UnitOfWork } from '../store/store.js';
import type { Clock } from './clock.js';
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

/** How a unit of work of an account runs: read-only (`read`), and what a read may take as read already. */
export interface WorkOptions {
  read?: boolean;
  /** The account's clock row, and a record or a page, as read with the caller's key (a read then does not read them again). */
  readAhead?: Pick<CallerRows, 'clock' | 'ahead' | 'page'>;
  /** A write's work begun already (with the caller's key), to run in and finish. */
  held?: HeldWork;
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
