/**
 * The simulated clock. `real` mode follows wall time plus an offset; `frozen` mode stands still
 * until moved. Time never goes backwards (interface.md section 7).
 */
export type ClockMode = 'real' | 'frozen';

export class SimClock {
  private offsetMs = 0;
  private frozenAt = 0;
  private last = 0;

  constructor(private readonly wall: () => number, private currentMode: ClockMode = 'real', start?: Date) {
    const wallNow = wall();
    const startMs = start ? start.getTime() : wallNow;
    this.offsetMs = startMs - wallNow;
    this.frozenAt = startMs;
  }

  get mode(): ClockMode {
    return this.currentMode;
  }

  /** The current simulated time; never earlier than any time it answered before. */
  now(): Date {
    const t = this.currentMode === 'frozen' ? this.frozenAt : this.wall() + this.offsetMs;
    this.last = Math.max(this.last, t);
    return new Date(this.last);
  }

  /** ISO 8601 string of `now()`, the form every timestamp of the API takes. */
  iso(): string {
    return this.now().toISOString();
  }

  freeze(): void {
    if (this.currentMode === 'frozen') return;
    this.frozenAt = this.now().getTime();
    this.currentMode = 'frozen';
  }

  resume(): void {
    if (this.currentMode === 'real') return;
    this.offsetMs = this.now().getTime() - this.wall();
    this.currentMode = 'real';
  }

  /** Moves the clock forward to `t`; a time in the past is ignored. */
  advanceTo(t: Date): void {
    const target = Math.max(t.getTime(), this.now().getTime());
    if (this.currentMode === 'frozen') this.frozenAt = target;
    else this.offsetMs = target - this.wall();
    this.last = target;
  }
}

/** One clock per account (interface.md section 7), made on first use with the server's start settings. */
export class Clocks {
  private readonly clocks = new Map<string, SimClock>();

  constructor(private readonly wall: () => number, private readonly mode: ClockMode = 'real', private readonly start?: Date) {}

  for(accountId: string): SimClock {
    let clock = this.clocks.get(accountId);
    if (!clock) {
      clock = new SimClock(this.wall, this.mode, this.start);
      this.clocks.set(accountId, clock);
    }
    return clock;
  }

  /** Every clock made so far, by account. */
  entries(): [string, SimClock][] {
    return [...this.clocks.entries()];
  }

  /** Back to the start settings (reset). */
  clear(): void {
    this.clocks.clear();
  }

  /** Every clock's time and mode, to restore later. */
  save(): { accountId: string; now: string; mode: ClockMode }[] {
    return this.entries().map(([accountId, c]) => ({ accountId, now: c.iso(), mode: c.mode }));
  }

  /** Puts the clocks back as saved (a snapshot's restore). */
  restore(saved: { accountId: string; now: string; mode: ClockMode }[]): void {
    this.clocks.clear();
    for (const c of saved) this.clocks.set(c.accountId, new SimClock(this.wall, c.mode, new Date(c.now)));
  }
}
