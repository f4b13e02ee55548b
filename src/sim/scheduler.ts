/**
 * The one scheduler: lifecycle steps wait in the store on their account's clock and run in time
 * order when `advance` moves the clock past them, or, for a clock in `real` mode, when one timer
 * set for the earliest due step fires. Never a polling loop.
 */
import { forAccount, type Deps } from '../deps.js';
import type { ScheduledStep, StepKind } from '../store/rows.js';

/** What a step did, as `advance` reports it. */
export interface Fired {
  at: string;
  kind: StepKind;
  ref: string;
  what: string;
}

/** Runs one due step with the account's dependencies (its clock set to the step's time). */
export type Runner = (step: ScheduledStep, deps: Deps) => Promise<string>;

const MAX_TIMER_MS = 2 ** 31 - 1;

export class Scheduler {
  private runners: Partial<Record<StepKind, Runner>> = {};
  private deps!: Deps;
  private readonly locks = new Map<string, Promise<unknown>>();
  private timer: NodeJS.Timeout | undefined;
  private stopped = false;

  /** Connects the scheduler to the server's dependencies and the runners of each kind. */
  start(deps: Deps, runners: Partial<Record<StepKind, Runner>>): void {
    this.deps = deps;
    this.runners = runners;
    this.stopped = false;
    this.arm();
  }

  stop(): void {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
  }

  /** Schedules `kind` for `ref` at `atMs` on the account's clock. */
  at(accountId: string, atMs: number, kind: StepKind, ref: string, data?: unknown): void {
    const { store, ids } = this.deps;
    store.schedule.add({ id: ids.uuid(), account_id: accountId, at: new Date(atMs).toISOString(), kind, ref, ...(data === undefined ? {} : { data }) });
    this.arm();
  }

  /** Moves the account's clock to `target` (or to its next step), running every step due on the way. */
  advance(accountId: string, target: Date | 'next'): Promise<{ now: string; fired: Fired[] }> {
    return this.exclusive(accountId, async () => {
      const clock = this.deps.clocks.for(accountId);
      const next = this.deps.store.schedule.earliest(accountId);
      const to = target === 'next' ? (next ? new Date(next.at) : clock.now()) : target;
      const fired = await this.runUntil(accountId, to.getTime());
      clock.advanceTo(to);
      return { now: clock.iso(), fired };
    });
  }

  /** Runs the account's due steps one at a time, earliest first, with the clock set to each step's time. */
  private async runUntil(accountId: string, upTo: number): Promise<Fired[]> {
    const fired: Fired[] = [];
    const deps = forAccount(this.deps, accountId);
    for (;;) {
      const step = this.deps.store.schedule.earliest(accountId);
      if (!step || Date.parse(step.at) > upTo) break;
      this.deps.store.schedule.remove(step);
      deps.clock.advanceTo(new Date(step.at));
      const runner = this.runners[step.kind];
      let what: string;
      try {
        what = runner ? await runner(step, deps) : `no runner for ${step.kind}`;
      } catch (e) {
        what = `failed: ${(e as Error).message}`;
        this.deps.logger.warn(`step ${step.kind} ${step.ref} failed: ${(e as Error).stack ?? String(e)}`);
      }
      fired.push({ at: step.at, kind: step.kind, ref: step.ref, what });
      await this.deps.store.commit();
    }
    return fired;
  }

  /** Sets the timer again after the clocks or the schedule changed from outside (resume, reset). */
  rearm(): void {
    this.arm();
  }

  /** One timer, for the earliest step of any account whose clock follows wall time. */
  private arm(): void {
    if (this.stopped || !this.deps) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    let soonest = Infinity;
    for (const step of this.deps.store.schedule.all()) {
      const clock = this.deps.clocks.for(step.account_id);
      if (clock.mode !== 'real') continue;
      soonest = Math.min(soonest, Date.parse(step.at) - clock.now().getTime());
    }
    if (soonest === Infinity) return;
    this.timer = setTimeout(() => void this.runRealClocks(), Math.min(Math.max(0, soonest), MAX_TIMER_MS));
    this.timer.unref();
  }

  private async runRealClocks(): Promise<void> {
    this.timer = undefined;
    const accounts = new Set(this.deps.store.schedule.all().map((s) => s.account_id));
    for (const accountId of accounts) {
      const clock = this.deps.clocks.for(accountId);
      if (clock.mode === 'real') await this.exclusive(accountId, () => this.runUntil(accountId, clock.now().getTime()));
    }
    this.arm();
  }

  /** Runs `fn` when the account's previous scheduler work is done, so steps never interleave. */
  private exclusive<T>(accountId: string, fn: () => Promise<T>): Promise<T> {
    const previous = this.locks.get(accountId) ?? Promise.resolve();
    const next = previous.then(fn, fn);
    this.locks.set(accountId, next.catch(() => undefined));
    return next;
  }
}
