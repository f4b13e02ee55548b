/**
 * The one scheduler: lifecycle steps and delivery attempts wait in the store on their account's
 * clock, and run in time order when `advance` moves the clock past them, right after the work that
 * scheduled them commits when they are due at once, or, for a clock in `real` mode, when one timer
 * set for the earliest due step fires (alarm.ts). A step runs in a unit of work with the account's
 * clock set to its time, so a crash loses nothing and a restart resumes; lifecycle steps due at the
 * same instant share one unit (one durable write for a thousand bulk dips started together). An
 * account's steps run one at a time, in its queue (AccountQueues).
 *
 * Over a shared store several instances run one schedule. A step runs in the work that removes it,
 * under its account's lock, so it runs once whoever reaches it; one another instance has claimed
 * (claims.ts) is looked at again every CLAIM_WAIT_MS until it is gone or the claim lapsed, the one
 * poll here. Instances tell each other of new steps (the store's `tell`) so that a `real` clock's
 * timer is set on each of them.
 *
 * What it reads is bounded by what it is asked: an account's earliest steps (never its whole list),
 * and for the timer one entry per account on a real clock with steps (`dueAt`), kept as each account's
 * steps and clock change. Only the start and a whole state replaced (a reset of every account, a
 * snapshot restored) read each account's earliest step at once.
 */
import type { StepKind, StepRow } from '../domain/rows.js';
import { StorageUnavailable, type UnitOfWork } from '../store/store.js';
import { AccountQueues } from './account_queues.js';
import type { Clock } from './clock.js';
import { DueTimes } from './alarm.js';
import type { Work } from './work.js';
import { NextTooFar, stepSpan, type Fired, type SchedulerOptions } from './schedule.js';
import { FOLLOWS_AFTER_MS, firedOf, Lanes, type Dispatched, type Run } from './lanes.js';

/** After the store refused a write, the timer tries again this much later. */
const STORAGE_RETRY_MS = 1_000;
/** The most lifecycle steps due at one instant that run in one unit of work. */
const STEPS_TOGETHER = 200;
/** How often an instance looks again at a step another one is running. */
const CLAIM_WAIT_MS = 20;

export class Scheduler {
  private readonly queues = new AccountQueues();
  /** The deliveries under way, side by side: a lane a target (lanes.ts). */
  private readonly lanes = new Lanes();
  private readonly queued = new Set<string>();
  /** Each account on a real clock that has steps: the wall time its earliest step falls due, and the one timer. */
  private readonly dueAt: DueTimes;
  private stopped = false;

  constructor(private readonly opts: SchedulerOptions) {
    this.dueAt = new DueTimes(opts, () => void this.runRealClocks());
    opts.runner.notifies(this);
  }

  /** Hears the other instances' steps and sets the timer from the stored steps; resolves once it is set. */
  start(): Promise<void> {
    this.stopped = false;
    this.opts.store.peers?.hear('steps', (accountId) =>
      accountId === '*' ? void this.rearmHere() : this.wake(accountId),
    );
    return this.rearmHere();
  }

  stop(): void {
    this.stopped = true;
    this.dueAt.stop();
  }

  /**
   * Moves the account's clock to `target` (ms), or to its next step (no further than `within` ms ahead:
   * NextTooFar otherwise), running every step due on the way. Answers where the clock was and is.
   */
  advance(
    accountId: string,
    target: number | { next: true; within?: number },
  ): Promise<{ from: string; now: string; fired: Fired[] }> {
    return this.queues.run(accountId, async () => {
      const before = await this.read((w) => this.opts.clocks.of(w, accountId));
      const from = before.ms();
      let to: number | undefined = typeof target === 'number' ? target : undefined;
      if (typeof target !== 'number') {
        const next = await this.read((w) => w.view(accountId).steps.earliest());
        to = next ? Date.parse(next.data.at) : undefined;
        if (to !== undefined && target.within !== undefined && to - from > target.within)
          throw new NextTooFar(next?.data.at ?? '', to - from);
      }
      // every step due on the way runs, the deliveries among them (and the retries they make due) waited for
      const fired = await firedOf(await this.runUntil(accountId, to ?? -Infinity, true));
      const clock = await this.opts.runner.run({ account: accountId }, (w) =>
        this.opts.clocks.advanceTo(w, accountId, to ?? -Infinity),
      );
      this.opts.store.peers?.tell('steps', accountId);
      this.wake(accountId);
      return { from: new Date(from).toISOString(), now: clock.iso(), fired };
    });
  }

  /** A work of the account scheduled a step: runs what is due now, and makes sure the timer wakes for the rest. */
  notify(accountId: string): void {
    if (this.stopped) return;
    // one look at the account's due steps waiting in its queue covers every write before it
    if (this.queued.has(accountId)) return;
    this.queued.add(accountId);
    void this.queues
      .run(accountId, async () => {
        this.queued.delete(accountId);
        const clock = await this.read((w) => this.opts.clocks.of(w, accountId));
        // the deliveries go on in their lanes: the account's queue is free for its next work meanwhile
        const run = await this.runUntil(accountId, clock.ms(), false);
        for (const dispatched of run.dispatched) dispatched.catch((e) => this.failed(e));
        await this.track(accountId, clock);
      })
      .catch((e) => this.failed(e));
  }

  /** Resolves once the account's queued scheduler work (due steps, deliveries) is done. */
  async idle(accountId: string): Promise<void> {
    // its failures are said where they happen (failed())
    await this.queues.idle(accountId);
    await this.lanes.idle(accountId);
  }

  /**
   * Runs the account's due steps now and waits for them and for every delivery of the account under way
   * (a simulated call that sets off deliveries, its caller bounding the wait): they are waited for outside
   * the account's queue, so another call's deliveries go meanwhile.
   */
  async runDue(accountId: string): Promise<Fired[]> {
    const run = await this.queues.run(accountId, async () => {
      const clock = await this.read((w) => this.opts.clocks.of(w, accountId));
      return this.runUntil(accountId, clock.ms(), false);
    });
    const fired = await firedOf(run);
    // the work's own commit may have dispatched its deliveries over first (notify): those are waited for too
    await this.lanes.idle(accountId);
    return fired;
  }

  /**
   * Runs the account's due steps, earliest first, each with the clock at its time: a lifecycle step here
   * (those due together in one unit), a delivery dispatched to its target's lane, claimed first (so the same
   * target's attempts keep their order while other targets' go side by side); one another instance is
   * running is waited for. `wait`: the deliveries are waited for too, and the steps they made due run in
   * turn (an `advance`); else they go on in their lanes. Answers what it ran and what it dispatched over.
   */
  private async runUntil(accountId: string, upTo: number, wait: boolean): Promise<Run> {
    const run: Run = { fired: [], dispatched: [] };
    let underWay: Dispatched[] = [];
    let place = 0;
    for (;;) {
      const due = await this.read((w) => this.dueTogether(w, accountId, upTo));
      const [step] = due;
      if (!step) {
        if (!wait || !this.lanes.busy(accountId)) break;
        await this.lanes.idle(accountId);
        continue;
      }
      if (this.opts.claims.heldElsewhere(step)) {
        await new Promise<void>((resolve) => this.opts.setTimer(resolve, CLAIM_WAIT_MS));
        continue;
      }
      // an advance keeps the order of time: a delivery that could still make a step due before this one
      // (its retry) is waited for first, so the same advance gives the same log whatever the receivers' speed
      const before = underWay.filter((h) => h.atMs + FOLLOWS_AFTER_MS <= Date.parse(step.data.at));
      if (wait && before.length) {
        await Promise.allSettled(before.map((h) => h.done));
        underWay = underWay.filter((h) => !before.includes(h));
        continue;
      }
      if (step.data.kind === 'delivery') {
        const dispatched = await this.handOver(step, place++);
        if (dispatched) {
          run.dispatched.push(dispatched.done);
          underWay.push(dispatched);
        }
        continue;
      }
      const done = due.length > 1 ? await this.runTogether(accountId, due) : [{ step, what: await this.runStep(step) }];
      for (const { step: s, what } of done) {
        if (what === null) continue;
        const ran = { at: s.data.at, kind: s.data.kind, ref: s.data.ref, what };
        run.fired.push({ place: place++, ran });
        await this.opts.ran?.(accountId, ran);
      }
    }
    return run;
  }

  /**
   * Claims a due delivery step (so no other instance sends it meanwhile) with the clock at its time, and
   * hands it to its target's lane: answers its end (`done`, boxed: awaiting this does not wait for it), or
   * null when it was not this instance's to send.
   */
  private async handOver(step: StepRow, place: number): Promise<Dispatched | null> {
    const { runner, clocks, claims, deliveries, logger } = this.opts;
    const accountId = step.account_id;
    const claimed = await runner.run({ account: accountId }, async (w) => {
      const stored = await w.steps.get(step.data.id);
      if (!stored || claims.heldElsewhere(stored)) return null;
      const clock = await clocks.advanceTo(w, accountId, Date.parse(step.data.at));
      const row = await w.deliveries.get(stored.data.ref);
      const mine = claims.shared ? await w.steps.update(stored, (s) => void (s.claim = claims.claim())) : stored;
      return { mine, target: row?.data.target ?? stored.data.ref, atMs: clock.ms() };
    });
    if (!claimed) return null;
    const done = this.lanes.run(accountId, step.data.id, claimed.target, async () => {
      const summary = await deliveries.run(claimed.mine, claimed.atMs);
      logger.info(summary, { kind: 'delivery', account: accountId, at: step.data.at });
      const ran = { at: step.data.at, kind: step.data.kind, ref: step.data.ref, what: summary };
      await this.opts.ran?.(accountId, ran);
      // a retry it made is timed, on a real clock, as a step the account's work made is
      this.wake(accountId);
      return { place, ran };
    });
    return { atMs: claimed.atMs, done };
  }

  /**
   * The account's earliest step due by `upTo`, and the lifecycle steps due at the same instant right
   * after it (none held by another instance, at most STEPS_TOGETHER): these run in one unit of work.
   */
  private async dueTogether(w: UnitOfWork, accountId: string, upTo: number): Promise<StepRow[]> {
    // a delivery under way in its lane is not due again: the earliest steps past those it holds are read
    const soonest = await w.view(accountId).steps.soonest(STEPS_TOGETHER + this.lanes.holding(accountId));
    const steps = soonest.filter((s) => !this.lanes.holds(accountId, s.data.id));
    const [first] = steps;
    if (!first || Date.parse(first.data.at) > upTo) return [];
    const together = (s: StepRow) =>
      s.data.at === first.data.at && s.data.kind !== 'delivery' && !this.opts.claims.heldElsewhere(s);
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
    const { runner } = this.opts;
    let done: { step: StepRow; what: string | null }[];
    try {
      const at = Date.parse(steps[0]?.data.at ?? '');
      done = await runner.work(
        accountId,
        async (work, w) => {
          const out: { step: StepRow; what: string | null }[] = [];
          for (const step of steps)
            out.push({ step, what: (await this.take(w, step)) ? await this.runLifecycle(work, step) : null });
          return out;
        },
        { at },
      );
    } catch (e) {
      if (e instanceof StorageUnavailable) throw e;
      done = [];
      for (const step of steps) done.push({ step, what: await this.runStep(step) });
      return done;
    }
    for (const { step, what } of done) this.logStep(step, what);
    return done;
  }

  /** Removes a due step in `w` if it is this instance's to run: false when it is gone or another runs it. */
  private async take(w: UnitOfWork, step: StepRow): Promise<boolean> {
    const stored = await w.steps.get(step.data.id);
    if (!stored || this.opts.claims.heldElsewhere(stored)) return false;
    await w.steps.remove(stored);
    return true;
  }

  /** Runs a lifecycle step's runner in the account's Work, its clock at the step's time; answers what it did. */
  private runLifecycle(work: Work, step: StepRow): Promise<string> {
    return this.opts.tracing.within(stepSpan(step), async (traced) => {
      const what = await this.opts.runners[step.data.kind as Exclude<StepKind, 'delivery'>](step, work);
      traced.set({ 'dipswitch.step.did': what });
      return what;
    });
  }

  private logStep(step: StepRow, what: string | null): void {
    if (what !== null)
      this.opts.logger.info(`step ${step.data.kind}: ${what}`, {
        kind: 'step',
        account: step.account_id,
        at: step.data.at,
      });
  }

  /** Runs one lifecycle step; null when it was not this instance's to run (another ran it, or is running it). */
  private async runStep(step: StepRow): Promise<string | null> {
    const { runner, logger } = this.opts;
    const accountId = step.account_id;
    try {
      const summary = await runner.work(
        accountId,
        async (work, w) => ((await this.take(w, step)) ? this.runLifecycle(work, step) : null),
        { at: Date.parse(step.data.at) },
      );
      this.logStep(step, summary);
      return summary;
    } catch (e) {
      if (e instanceof StorageUnavailable) throw e;
      // a step that throws is a dipswitch bug: it is dropped, said, and the others go on
      logger.warn(`step ${step.data.kind} ${step.data.ref} failed: ${(e as Error).stack ?? String(e)}`);
      await runner.run({ account: accountId }, async (w) => {
        const stored = await w.steps.get(step.data.id);
        if (stored) await w.steps.remove(stored);
      });
      return `failed: ${(e as Error).message}`;
    }
  }

  private read<T>(fn: (w: UnitOfWork) => Promise<T>): Promise<T> {
    return this.opts.runner.run({ read: true }, fn);
  }

  /** A whole state replaced (a reset of every account, a restore): the timers here and on the other instances are set again. */
  async rearm(): Promise<void> {
    this.opts.store.peers?.tell('steps', '*');
    await this.rearmHere();
  }

  /** One account's clock or steps changed outside a step (its clock frozen or resumed, the account reset). */
  async retime(accountId: string): Promise<void> {
    this.opts.store.peers?.tell('steps', accountId);
    await this.track(accountId).catch((e) => this.failed(e));
  }

  /** The account's steps or clock changed (here, or on another instance): its entry of the timer is set again. */
  private wake(accountId: string): void {
    if (this.stopped) return;
    this.track(accountId).catch((e) => this.failed(e));
  }

  /**
   * Reads the account's earliest step, and its clock unless the caller read it already (a clock's time is
   * read live): the timer wakes for it when its clock is real.
   */
  private async track(accountId: string, known?: Clock): Promise<void> {
    const [next, clock] = await this.read(
      async (w) =>
        [await w.view(accountId).steps.earliest(), known ?? (await this.opts.clocks.of(w, accountId))] as const,
    );
    if (this.stopped) return;
    this.dueAt.set(accountId, next && clock.mode === 'real' ? Date.parse(next.data.at) - clock.ms() : undefined);
  }

  /** The accounts on a real clock whose earliest step's time has come and that have not run it yet. */
  dueNow(): number {
    return this.dueAt.dueNow().length;
  }

  /** Sets the timer again from each account's earliest step and clock: the start, a whole state replaced. */
  private async rearmHere(): Promise<void> {
    if (this.stopped) return;
    try {
      const firsts = await this.read(async (w) => {
        const out: [string, number][] = [];
        for (const step of await w.steps.earliestOfEach()) {
          const clock = await this.opts.clocks.of(w, step.account_id);
          if (clock.mode === 'real') out.push([step.account_id, Date.parse(step.data.at) - clock.ms()]);
        }
        return out;
      });
      if (!this.stopped) this.dueAt.replace(firsts);
    } catch (e) {
      this.failed(e);
    }
  }

  /** The timer rang: the accounts whose earliest step has come run what is due, each in its queue. */
  private async runRealClocks(): Promise<void> {
    try {
      for (const accountId of this.dueAt.dueNow()) {
        await this.queues.run(accountId, async () => {
          const clock = await this.read((w) => this.opts.clocks.of(w, accountId));
          if (clock.mode === 'real') {
            const run = await this.runUntil(accountId, clock.ms(), false);
            for (const dispatched of run.dispatched) dispatched.catch((e: unknown) => this.failed(e));
          }
          await this.track(accountId, clock);
        });
      }
      // a timer may ring a moment early, with no account due yet: it is set again for the soonest
      if (!this.stopped) this.dueAt.arm();
    } catch (e) {
      this.failed(e);
    }
  }

  /** Nothing the scheduler meets may end the process: a refused write is tried again shortly. */
  private failed(e: unknown): void {
    if (e instanceof StorageUnavailable) {
      this.opts.logger.warn(`scheduler: ${e.message}; trying again in ${STORAGE_RETRY_MS} ms`);
      if (!this.stopped) this.dueAt.retryIn(STORAGE_RETRY_MS);
      return;
    }
    this.opts.logger.warn(`scheduler: ${(e as Error).stack ?? String(e)}`);
  }
}
