/** One timer on wall time, set for the soonest moment it is asked to wake at, and the accounts it wakes for (the scheduler's `real` clocks). */

/** The longest a timer of Node's can wait. */
const MAX_TIMER_MS = 2 ** 31 - 1;

export interface AlarmOptions {
  /** Wall time and a timer on it; injected so nothing here reads time itself. */
  wall(): number;
  setTimer(fn: () => void, ms: number): { cancel(): void };
}

export class Alarm {
  private timer: { cancel(): void } | undefined;
  private due = Infinity;

  constructor(
    private readonly opts: AlarmOptions,
    private readonly ring: () => void,
  ) {}

  /** Rings in `ms` (at once when not positive), unless it is set to ring sooner already. */
  soonest(ms: number): void {
    const delay = Math.min(Math.max(0, ms), MAX_TIMER_MS);
    const due = this.opts.wall() + delay;
    if (this.timer && due >= this.due) return;
    this.set(delay, due);
  }

  /** Rings in `ms`, whenever it was set to ring before (a retry after a failure). */
  in(ms: number): void {
    this.set(ms, this.opts.wall() + ms);
  }

  /** Rings no more until set again. */
  cancel(): void {
    this.timer?.cancel();
    this.timer = undefined;
    this.due = Infinity;
  }

  private set(delay: number, due: number): void {
    this.timer?.cancel();
    this.due = due;
    this.timer = this.opts.setTimer(() => {
      this.timer = undefined;
      this.due = Infinity;
      this.ring();
    }, delay);
  }
}

/**
 * The scheduler's timer over accounts: for each account on a real clock that has steps, the wall time
 * its earliest step falls due (one entry an account, set as its steps and clock change), and one
 * Alarm set for the soonest of them.
 */
export class DueTimes {
  private readonly at = new Map<string, number>();
  private readonly alarm: Alarm;

  constructor(
    private readonly opts: AlarmOptions,
    ring: () => void,
  ) {
    this.alarm = new Alarm(opts, ring);
  }

  /** The account's earliest step falls due in `inMs` (undefined: it has none, or its clock is not real). */
  set(accountId: string, inMs: number | undefined): void {
    if (inMs === undefined) this.at.delete(accountId);
    else this.at.set(accountId, this.opts.wall() + inMs);
    this.arm();
  }

  /** Every account's entry anew (the start, a whole state replaced): [account, due in ms]. */
  replace(entries: readonly (readonly [string, number])[]): void {
    const now = this.opts.wall();
    this.at.clear();
    for (const [accountId, inMs] of entries) this.at.set(accountId, now + inMs);
    this.arm();
  }

  /** The accounts whose earliest step's time has come. */
  dueNow(): string[] {
    const now = this.opts.wall();
    return [...this.at].filter(([, at]) => at <= now).map(([accountId]) => accountId);
  }

  /** Rings again in `ms`, whatever it was set for (a retry after the store refused a write). */
  retryIn(ms: number): void {
    this.alarm.in(ms);
  }

  stop(): void {
    this.alarm.cancel();
  }

  /** Sets the timer for the soonest account (again, after it rang). */
  arm(): void {
    let soonest = Infinity;
    for (const at of this.at.values()) soonest = Math.min(soonest, at);
    this.alarm.cancel();
    if (soonest !== Infinity) this.alarm.soonest(soonest - this.opts.wall());
  }
}
