/**
 * The one scheduler: lifecycle steps and delivery attempts wait in the store on their account's
 * clock, and run in time order when `advance` moves the clock past them, right after the work that
 * scheduled them commits when they are due at once, or, for a clock in `real` mode, when one timer
 * set for the earliest due step fires. Never a polling loop. A step runs in a unit of work with the
 * account's clock set to its time, so a crash loses nothing and a restart resumes; lifecycle steps due
 * at the same instant share one unit (one durable write for a thousand bulk dips started together).
 *
 * Over a shared store several instances run one schedule. A step runs in the work
 * that removes it, under its account's lock, so it runs once whoever reaches it. A step is claimed
 * (`claim`, for CLAIM_LEASE_MS of wall time) by the instance whose work made it due at once, and by
 * the one sending a delivery outside any lock: the others wait for it, keeping the account's time
 * order, and take it over only once the claim has lapsed (that instance died). Instances tell each
 * other of new steps (the store's `tell`) so that a `real` clock's timer is set on each of them.
 */
import type { StepKind, StepRow } from '../domain/rows.js';
import { StorageUnavailable, type UnitOfWork } from '../store/store.js';
import type { Clock } from './clock.js';
import { NextTooFar, type Fired, type SchedulerOptions } from './schedule.js';
import { makeWork, type Work, type WorkOptions } from './work.js';
import { cleanupFailed } from '../domain/side_paths.js';

const MAX_TIMER_MS = 2 ** 31 - 1;
/** After the store refused a write, the timer tries again this much later. */
const STORAGE_RETRY_MS = 1_000;
/** How long (wall time) a claim holds: past a delivery's timeout twice (a duplicate fault sends twice). */
export const CLAIM_LEASE_MS = 30_000;
/** The most lifecycle steps due at one instant that run in one unit of work. */
const STEPS_TOGETHER = 200;
/** How often an instance looks again at a step another one is running. */
const CLAIM_WAIT_MS = 20;

export class Scheduler {
  private readonly queues = new Map<string, Promise<unknown>>();
  private readonly kicked = new Set<string>();
  private timer: { cancel(): void } | undefined;
  private timerDue = Infinity;
  private stopped = false;

  constructor(private readonly opts: SchedulerOptions) {}

  start(): void {
    this.stopped = false;
    this.opts.store.peers?.hear('steps', (accountId) =>
      accountId === '*' ? void this.rearmHere() : this.wake(accountId),
    );
    void this.rearmHere();
  }

  stop(): void {
    this.stopped = true;
    this.timer?.cancel();
    this.timer = undefined;
    this.timerDue = Infinity;
  }

  /**
   * Moves the account's clock to `target` (ms), or to its next step (no further than `within` ms ahead:
   * NextTooFar otherwise), running every step due on the way. Answers where the clock was and is.
   */
  advance(
    accountId: string,
    target: number | { next: true; within?: number },
  ): Promise<{ from: string; now: string; fired: Fired[] }> {
    return this.exclusive(accountId, async () => {
      const before = await this.read((w) => this.opts.clocks.of(w, accountId));
      const from = before.ms();
      let to: number | undefined = typeof target === 'number' ? target : undefined;
      if (typeof target !== 'number') {
        const next = await this.read((w) => w.steps.earliest(accountId));
        to = next ? Date.parse(next.data.at) : undefined;
        if (to !== undefined && target.within !== undefined && to - from > target.within)
          throw new NextTooFar(next?.data.at ?? '', to - from);
      }
      const fired = await this.runUntil(accountId, to ?? -Infinity);
      const clock = await this.opts.store.run({ account: accountId }, (w) =>
        this.opts.clocks.advanceTo(w, accountId, to ?? -Infinity),
      );
      this.opts.store.peers?.tell('steps', accountId);
      void this.rearmHere();
      return { from: new Date(from).toISOString(), now: clock.iso(), fired };
    });
  }

  /** A work of the account scheduled a step: runs what is due now, and makes sure the timer wakes for the rest. */
  notify(accountId: string): void {
    if (this.stopped) return;
    // one look at the account's due steps waiting in its queue covers every write before it
    if (this.kicked.has(accountId)) return;
    this.kicked.add(accountId);
    void this.exclusive(accountId, async () => {
      this.kicked.delete(accountId);
      const clock = await this.read((w) => this.opts.clocks.of(w, accountId));
      await this.runUntil(accountId, clock.ms());
      const next = await this.read((w) => w.steps.earliest(accountId));
      if (next && clock.mode === 'real') this.wakeIn(Date.parse(next.data.at) - clock.ms());
    }).catch((e) => this.failed(e));
  }

  /** Resolves once the account's queued scheduler work (due steps, deliveries) is done. */
  async idle(accountId: string): Promise<void> {
    // its failures are said where they happen (failed()); this only waits for it to settle
    await this.queues.get(accountId)?.catch(cleanupFailed);
  }

  /** Runs the account's due steps now and waits for them (a simulated call that sets off deliveries). */
  runDue(accountId: string): Promise<Fired[]> {
    return this.exclusive(accountId, async () => {
      const clock = await this.read((w) => this.opts.clocks.of(w, accountId));
      return this.runUntil(accountId, clock.ms());
    });
  }

  /**
   * Runs the account's due steps one at a time, earliest first, each with the clock at its time;
   * one another instance is running is waited for. Answers the steps this instance ran.
   */
  private async runUntil(accountId: string, upTo: number): Promise<Fired[]> {
    const fired: Fired[] = [];
    for (;;) {
      const due = await this.read((w) => this.dueTogether(w, accountId, upTo));
      const [step] = due;
      if (!step) break;
      if (this.heldElsewhere(step)) {
        await new Promise<void>((resolve) => this.opts.setTimer(resolve, CLAIM_WAIT_MS));
        continue;
      }
      const done = due.length > 1 ? await this.runTogether(accountId, due) : [{ step, what: await this.runStep(step) }];
      for (const { step: s, what } of done) {
        if (what === null) continue;
        const ran = { at: s.data.at, kind: s.data.kind, ref: s.data.ref, what };
        fired.push(ran);
        await this.opts.ran?.(accountId, ran);
      }
    }
    return fired;
  }

  /**
   * The account's earliest step due by `upTo`, and the lifecycle steps due at the same instant right
   * after it (none held by another instance, at most STEPS_TOGETHER): these run in one unit of work.
   */
  private async dueTogether(w: UnitOfWork, accountId: string, upTo: number): Promise<StepRow[]> {
    const steps = await w.steps.list(accountId);
    const [first] = steps;
    if (!first || Date.parse(first.data.at) > upTo) return [];
    const together = (s: StepRow) =>
      s.data.at === first.data.at && s.data.kind !== 'delivery' && !this.heldElsewhere(s);
    if (!together(first)) return [first];
    const end = steps.findIndex((s, i) => i >= STEPS_TOGETHER || !together(s));
    return steps.slice(0, end === -1 ? steps.length : end);
  }

  /**
   * Lifecycle steps due at one instant, run in one unit of work (one durable write for all of them),
   * in their order, each as runStep runs it alone. When one throws, none is kept and each runs alone,
   * so the one that failed is dropped by itself.
   */
  private async runTogether(accountId: string, steps: StepRow[]): Promise<{ step: StepRow; what: string | null }[]> {
    const { store, clocks } = this.opts;
    let done: { step: StepRow; what: string | null }[];
    try {
      done = await store.run({ account: accountId }, async (w) => {
        const out: { step: StepRow; what: string | null }[] = [];
        const clock = await clocks.advanceTo(w, accountId, Date.parse(steps[0]?.data.at ?? ''));
        for (const step of steps)
          out.push({ step, what: (await this.take(w, step)) ? await this.runLifecycle(w, clock, step) : null });
        return out;
      });
    } catch (e) {
      if (e instanceof StorageUnavailable) throw e;
      done = [];
      for (const step of steps) done.push({ step, what: await this.runStep(step) });
      return done;
    }
    for (const { step, what } of done) this.said(step, what);
    return done;
  }

  /** Removes a due step in `w` if it is this instance's to run: false when it is gone or another runs it. */
  private async take(w: UnitOfWork, step: StepRow): Promise<boolean> {
    const stored = await w.steps.getAnyAccount(step.data.id);
    if (!stored || this.heldElsewhere(stored)) return false;
    await w.steps.remove(stored);
    return true;
  }

  /** Runs a lifecycle step's runner in `w` with the clock at its time; answers what it did. */
  private async runLifecycle(w: UnitOfWork, clock: Clock, step: StepRow): Promise<string> {
    const run = this.opts.runners[step.data.kind as Exclude<StepKind, 'delivery'>];
    return (await this.within(w, step.account_id, clock, (work) => run(step, work))).out;
  }

  private said(step: StepRow, what: string | null): void {
    if (what !== null)
      this.opts.logger.info(`step ${step.data.kind}: ${what}`, {
        kind: 'step',
        account: step.account_id,
        at: step.data.at,
      });
  }

  /** Whether another instance is running the step now (its claim has not lapsed). */
  private heldElsewhere(step: StepRow): boolean {
    return !!step.claim && step.claim.by !== this.opts.instance && step.claim.until > this.opts.wall();
  }

  private claim(): { by: string; until: number } {
    return { by: this.opts.instance, until: this.opts.wall() + CLAIM_LEASE_MS };
  }

  /**
   * Over a shared store, in the work that made them: the account's steps due by `nowMs` are this
   * instance's to run, right after the commit, so another instance's `advance` waits for them
   * rather than running (and reporting) them itself, as one instance would.
   */
  async claimDue(w: UnitOfWork, accountId: string, nowMs: number): Promise<void> {
    if (!this.opts.store.peers) return;
    for (const step of await w.steps.list(accountId)) {
      if (Date.parse(step.data.at) > nowMs) break;
      if (this.heldElsewhere(step)) continue;
      await w.steps.update(step, (s) => {
        s.claim = this.claim();
      });
    }
  }

  /**
   * A unit of work of one account for a handler or a control call (Runtime.work): once committed, the
   * timer here wakes for any step it scheduled.
   */
  async work<T>(accountId: string, fn: (work: Work) => Promise<T>, opts: WorkOptions = {}): Promise<T> {
    let earliest: number | null = null;
    const ahead = opts.read ? opts.readAhead : undefined;
    const scope = opts.read ? { read: true as const, ahead: ahead?.ahead, page: ahead?.page } : { account: accountId };
    const body = async (w: UnitOfWork) => {
      const clock = ahead ? this.opts.clocks.from(accountId, ahead.clock) : await this.opts.clocks.of(w, accountId);
      const done = await this.within(w, accountId, clock, fn);
      earliest = done.earliest;
      return done.out;
    };
    const result = opts.held ? await opts.held.finish(body) : await this.opts.store.run(scope, body);
    if (earliest !== null) this.notify(accountId);
    return result;
  }

  /**
   * Runs `fn` on the account's Work inside `w`: the one way steps enter the schedule. The steps it
   * scheduled are told to the other instances with this commit, and those already due are claimed here.
   */
  private async within<T>(
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
      if (earliest <= clock.ms()) await this.claimDue(w, accountId, clock.ms());
    }
    return { out, earliest };
  }

  /** Runs one step; null when it was not this instance's to run (another ran it, or is running it). */
  private async runStep(step: StepRow): Promise<string | null> {
    const { store, clocks, logger } = this.opts;
    const accountId = step.account_id;
    if (step.data.kind === 'delivery') {
      // sent outside any lock: claimed first, so no other instance sends it meanwhile
      const mine = await store.run({ account: accountId }, async (w) => {
        const stored = await w.steps.getAnyAccount(step.data.id);
        if (!stored || this.heldElsewhere(stored)) return null;
        await clocks.advanceTo(w, accountId, Date.parse(step.data.at));
        if (!store.peers) return stored;
        return w.steps.update(stored, (s) => {
          s.claim = this.claim();
        });
      });
      if (!mine) return null;
      const said = await this.opts.deliveries.run(mine);
      logger.info(said, { kind: 'delivery', account: accountId, at: step.data.at });
      return said;
    }
    try {
      const said = await store.run({ account: accountId }, async (w) => {
        if (!(await this.take(w, step))) return null;
        return this.runLifecycle(w, await clocks.advanceTo(w, accountId, Date.parse(step.data.at)), step);
      });
      this.said(step, said);
      return said;
    } catch (e) {
      if (e instanceof StorageUnavailable) throw e;
      // a step that throws is a dipswitch bug: it is dropped, said, and the others go on
      logger.warn(`step ${step.data.kind} ${step.data.ref} failed: ${(e as Error).stack ?? String(e)}`);
      await store.run({ account: accountId }, async (w) => {
        const stored = await w.steps.getAnyAccount(step.data.id);
        if (stored) await w.steps.remove(stored);
      });
      return `failed: ${(e as Error).message}`;
    }
  }

  private read<T>(fn: (w: UnitOfWork) => Promise<T>): Promise<T> {
    return this.opts.store.run({ read: true }, fn);
  }

  /** The state changed (a clock, reset, restore): the timers here and on the other instances are set again. */
  async rearm(): Promise<void> {
    this.opts.store.peers?.tell('steps', '*');
    await this.rearmHere();
  }

  /** Another instance scheduled a step of the account: the timer is set for it if its clock is real. */
  private wake(accountId: string): void {
    if (this.stopped) return;
    this.read(async (w) => [await w.steps.earliest(accountId), await this.opts.clocks.of(w, accountId)] as const)
      .then(([next, clock]) => {
        if (next && clock.mode === 'real') this.wakeIn(Date.parse(next.data.at) - clock.ms());
      })
      .catch((e) => this.failed(e));
  }

  /** Sets the one timer again from the stored steps. */
  private async rearmHere(): Promise<void> {
    if (this.stopped) return;
    try {
      const steps = await this.read((w) => w.steps.all());
      const firstOf = new Map<string, StepRow>();
      for (const s of steps) if (!firstOf.has(s.account_id)) firstOf.set(s.account_id, s);
      let soonest = Infinity;
      for (const [accountId, step] of firstOf) {
        const clock = await this.read((w) => this.opts.clocks.of(w, accountId));
        if (clock.mode === 'real') soonest = Math.min(soonest, Date.parse(step.data.at) - clock.ms());
      }
      this.timer?.cancel();
      this.timer = undefined;
      this.timerDue = Infinity;
      if (soonest !== Infinity) this.wakeIn(soonest);
    } catch (e) {
      this.failed(e);
    }
  }

  private wakeIn(ms: number): void {
    if (this.stopped) return;
    const delay = Math.min(Math.max(0, ms), MAX_TIMER_MS);
    const due = this.opts.wall() + delay;
    if (this.timer && due >= this.timerDue) return;
    this.timer?.cancel();
    this.timerDue = due;
    this.timer = this.opts.setTimer(() => void this.runRealClocks(), delay);
  }

  private async runRealClocks(): Promise<void> {
    this.timer = undefined;
    this.timerDue = Infinity;
    try {
      const steps = await this.read((w) => w.steps.all());
      const accounts = new Set(steps.map((s) => s.account_id));
      for (const accountId of accounts) {
        await this.exclusive(accountId, async () => {
          const clock = await this.read((w) => this.opts.clocks.of(w, accountId));
          if (clock.mode === 'real') await this.runUntil(accountId, clock.ms());
        });
      }
      await this.rearmHere();
    } catch (e) {
      this.failed(e);
    }
  }

  /** Nothing the scheduler meets may end the process: a refused write is tried again shortly. */
  private failed(e: unknown): void {
    if (e instanceof StorageUnavailable) {
      this.opts.logger.warn(`scheduler: ${e.message}; trying again in ${STORAGE_RETRY_MS} ms`);
      this.timer?.cancel();
      this.timerDue = Infinity;
      this.timer = this.opts.setTimer(() => void this.runRealClocks(), STORAGE_RETRY_MS);
      return;
    }
    this.opts.logger.warn(`scheduler: ${(e as Error).stack ?? String(e)}`);
  }

  /** Runs `fn` when the account's previous scheduler work is done, so steps never interleave. */
  private exclusive<T>(accountId: string, fn: () => Promise<T>): Promise<T> {
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
}
