/**
 * Simulated clocks, one per account (interface.md section 7), stored with the state so a restart
 * never moves one back. `real` follows wall time plus an offset; `frozen` stands still until moved.
 * Time never goes backwards: moving to an earlier time is refused by the control API and ignored here.
 */
import type { ClockMode, ClockRow } from '../domain/rows.js';
import { AccountView } from '../store/store.js';
import type { UnitOfWork } from '../store/store.js';

/** Where an account's clock row is read and written: a unit of work, or the account's view of one. */
export type ClockRows = UnitOfWork | AccountView;

/** The account's clock rows in `w`: the account's view. */
const clocksOf = (w: ClockRows, accountId: string) => (w instanceof AccountView ? w : w.view(accountId)).clocks;

const rowOf = (w: ClockRows, accountId: string): Promise<ClockRow | undefined> => clocksOf(w, accountId).get(accountId);

/** An account's time, as handlers and runners read it. */
export interface Clock {
  readonly mode: ClockMode;
  ms(): number;
  now(): Date;
  /** ISO 8601, the form every timestamp of the API takes. */
  iso(): string;
}

type ClockState = ClockRow['data'];

/** The latest time (ms) ISO 8601 can write with a four-digit year. */
export const MAX_TIME_MS = Date.parse('9999-12-31T23:59:59.999Z');

export interface ClockDefaults {
  mode: ClockMode;
  /** Where a clock starts (ms); wall time at start-up unless given. */
  startMs: number;
}

export class Clocks {
  /**
   * The latest time each account's `real` clock answered in this process, for the clock as stored
   * then (its offset and floor): wall time may step back, clocks do not. A clock changed since (here,
   * or by another instance over a shared store, or by a reset) starts afresh.
   */
  private readonly answered = new Map<string, { offset: number; floor: number; t: number }>();
  private readonly wallAtStart: number;
  /** Where every clock starts, as ISO 8601 (written once: most calls are of accounts that never moved theirs). */
  private readonly startIso: string;

  constructor(
    private readonly wall: () => number,
    private readonly defaults: ClockDefaults,
  ) {
    this.wallAtStart = wall();
    this.startIso = new Date(defaults.startMs).toISOString();
  }

  /** The clock of an account that never changed its own. */
  private initial(accountId: string): ClockState {
    const { mode, startMs } = this.defaults;
    return {
      id: accountId,
      inserted_at: this.startIso,
      mode,
      offset_ms: startMs - this.wallAtStart,
      frozen_at_ms: startMs,
      floor_ms: startMs,
    };
  }

  /** The account's clock as the work sees it. */
  async of(work: ClockRows, accountId: string): Promise<Clock> {
    return this.from(accountId, await rowOf(work, accountId));
  }

  /** The account's clock from its row as read already (undefined: the account never changed its clock). */
  from(accountId: string, row: ClockRow | undefined): Clock {
    return this.view(accountId, row?.data ?? this.initial(accountId));
  }

  /** The server's own clock, for what belongs to no account (unauthenticated calls). */
  server(): Clock {
    return this.view('', this.initial(''));
  }

  private view(accountId: string, state: ClockState): Clock {
    const ms = (): number => {
      if (state.mode === 'frozen') return Math.min(MAX_TIME_MS, state.frozen_at_ms);
      const raw = Math.max(state.floor_ms, this.wall() + state.offset_ms);
      const seen = this.answered.get(accountId);
      const same = seen && seen.offset === state.offset_ms && seen.floor === state.floor_ms;
      const t = Math.min(MAX_TIME_MS, same ? Math.max(raw, seen.t) : raw);
      if (accountId) this.answered.set(accountId, { offset: state.offset_ms, floor: state.floor_ms, t });
      return t;
    };
    return { mode: state.mode, ms, now: () => new Date(ms()), iso: () => new Date(ms()).toISOString() };
  }

  /** Moves the account's clock forward to `t` (ms); an earlier time leaves it where it is. */
  async advanceTo(work: ClockRows, accountId: string, t: number): Promise<Clock> {
    const clock = await this.of(work, accountId);
    const target = Math.min(MAX_TIME_MS, Math.max(t, clock.ms()));
    return this.save(
      work,
      accountId,
      clock.mode === 'frozen'
        ? { frozen_at_ms: target, floor_ms: target }
        : { offset_ms: target - this.wall(), floor_ms: target },
    );
  }

  /** Stops the clock following wall time. */
  async freeze(work: ClockRows, accountId: string): Promise<Clock> {
    const clock = await this.of(work, accountId);
    if (clock.mode === 'frozen') return clock;
    const at = clock.ms();
    return this.save(work, accountId, { mode: 'frozen', frozen_at_ms: at, floor_ms: at });
  }

  /** The clock follows wall time again, from where it stands. */
  async resume(work: ClockRows, accountId: string): Promise<Clock> {
    const clock = await this.of(work, accountId);
    if (clock.mode === 'real') return clock;
    const at = clock.ms();
    return this.save(work, accountId, { mode: 'real', offset_ms: at - this.wall(), floor_ms: at });
  }

  private async save(work: ClockRows, accountId: string, change: Partial<ClockState>): Promise<Clock> {
    const clocks = clocksOf(work, accountId);
    const row = await clocks.get(accountId);
    const next = row
      ? await clocks.update(row, (d) => Object.assign(d.data, change))
      : await clocks.insert({ data: { ...this.initial(accountId), ...change } });
    return this.view(accountId, next.data);
  }

  /** Forgets what the clocks answered: every account's (the state was replaced: reset, restore), or a removed account's. */
  forget(accountId?: string): void {
    if (accountId === undefined) this.answered.clear();
    else this.answered.delete(accountId);
  }
}
