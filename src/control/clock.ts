/** Control API (contract/sim.yaml): an account's clock: read, frozen, resumed, moved forward. */
import { invalidField } from '../domain/errors.js';
import { MAX_TIME_MS } from '../engine/clock.js';
import { addDuration, durationText } from '../engine/duration.js';
import { NextTooFar } from '../engine/schedule.js';
import type { Work } from '../engine/work.js';
import type { SimHandlerMap, Read } from '../handling/handler.js';
import type { ControlPort } from '../handling/control_port.js';

/** How far `{ "next": true }` may move the clock unless `within` says otherwise. */
const DAY_MS = 86_400_000;

/** The account's clock and the steps waiting on it. */
async function clockOf(port: ControlPort, read: Read, accountId: string) {
  return read(async (w) => {
    const clock = await port.clocks.of(w, accountId);
    const steps = await w.view(accountId).steps.soonest(100);
    return {
      now: clock.iso(),
      mode: clock.mode,
      account_id: accountId,
      pending: steps.map((s) => ({ id: s.data.id, at: s.data.at, kind: s.data.kind, ref: s.data.ref })),
    };
  });
}

/** Freezes or resumes the account's clock in the call's unit of work; the scheduler retimes it once it is durable. */
async function setFrozen(port: ControlPort, w: Work, frozen: boolean): Promise<void> {
  await (frozen ? port.clocks.freeze(w, w.accountId) : port.clocks.resume(w, w.accountId));
  w.afterCommit(() => port.scheduler.retime(w.accountId));
}

export const clockHandlers = {
  simClock: async ({ port, read, accountId }) => ({ status: 200, body: await clockOf(port, read, accountId) }),

  simFreeze: async ({ port, read, work, accountId }) => {
    await setFrozen(port, await work(), true);
    return { status: 200, body: await clockOf(port, read, accountId) };
  },

  simResume: async ({ port, read, work, accountId }) => {
    await setFrozen(port, await work(), false);
    return { status: 200, body: await clockOf(port, read, accountId) };
  },

  simAdvance: async ({ port, read, accountId, body }) => {
    const now = (await read((w) => port.clocks.of(w, accountId))).ms();
    let target: number | { next: true; within: number } = { next: true, within: DAY_MS };
    if (body.within !== undefined) {
      const bound = addDuration(now, body.within);
      if (typeof bound === 'string') throw invalidField('/within', bound);
      target = { next: true, within: bound - now };
    }
    if (body.by !== undefined) {
      const to = addDuration(now, body.by);
      if (typeof to === 'string') throw invalidField('/by', to);
      if (to > MAX_TIME_MS) throw invalidField('/by', `${body.by} takes the clock past the year 9999.`);
      target = to;
    } else if (body.to !== undefined) {
      target = Date.parse(body.to);
      if (target < now) throw invalidField('/to', 'Time never goes backwards: `to` is before the clock.');
      if (target > MAX_TIME_MS) throw invalidField('/to', '`to` is past the year 9999.');
    }
    try {
      const moved = await port.scheduler.advance(accountId, target);
      // measured from the reading the target was set from: on a real clock the clock has run on a little
      // since, and `by: PT10M` moved it ten minutes from when it was asked, not 9 min 59.999 s
      const from = new Date(now).toISOString();
      const by = typeof target === 'number' ? target - now : Date.parse(moved.now) - now;
      return { status: 200, body: { ...moved, from, moved: durationText(by) } };
    } catch (e) {
      if (!(e instanceof NextTooFar)) throw e;
      throw invalidField(
        '/next',
        `The next step is at ${e.at}, ${durationText(e.ms)} ahead: further than ${body.within ?? 'P1D'}. ` +
          `Send {"next": true, "within": "${durationText(e.ms)}"} to go that far, or advance by a duration.`,
      );
    }
  },
} satisfies Partial<SimHandlerMap>;
