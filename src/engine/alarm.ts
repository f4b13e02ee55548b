/** One timer on wall time, set for the soonest moment it is asked to wake at (the scheduler's `real` clocks). */

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
