/**
 * Deliveries side by side (docs/webhooks.md, "Side by side"): an account's due deliveries run in lanes,
 * one lane a target (its scheme, host and port), each lane's attempts one after the other in the order
 * they were dispatched over, and at most DELIVERIES_AT_ONCE of the account's lanes at once. A receiver that
 * is slow, or paused on a breakpoint, holds up its own lane alone.
 */
import { cleanupFailed } from '../domain/side_paths.js';
import { RETRY_BACKOFF_MS } from '../domain/deliveries.js';
import type { Fired } from './schedule.js';

/** The most deliveries of one account under way at once (each to a target of its own). */
export const DELIVERIES_AT_ONCE = 8;

/** The lane of a target: its scheme, host and port (a receiver's paths share one), else the target itself. */
export function laneOf(target: string): string {
  try {
    const url = new URL(target);
    return `${url.protocol}//${url.host}`;
  } catch {
    // not a URL (an SMPP system id, say): the target is its own lane
    return target;
  }
}

interface Account {
  running: number;
  waiting: (() => void)[];
  /** Each lane's last job, which the next one dispatched to it waits for. */
  lanes: Map<string, Promise<unknown>>;
  /** Every job not yet done, by the step it runs. */
  jobs: Map<string, Promise<unknown>>;
}

export class Lanes {
  private readonly accounts = new Map<string, Account>();

  private account(accountId: string): Account {
    let a = this.accounts.get(accountId);
    if (!a) this.accounts.set(accountId, (a = { running: 0, waiting: [], lanes: new Map(), jobs: new Map() }));
    return a;
  }

  /** Runs `job` in its target's lane of the account, once the lane's earlier jobs are done and a place is free. */
  run<T>(accountId: string, stepId: string, target: string, job: () => Promise<T>): Promise<T> {
    const a = this.account(accountId);
    const lane = laneOf(target);
    const before = a.lanes.get(lane) ?? Promise.resolve();
    const done = before.then(async () => {
      if (a.running >= DELIVERIES_AT_ONCE) await new Promise<void>((resolve) => a.waiting.push(resolve));
      a.running++;
      try {
        return await job();
      } finally {
        a.running--;
        a.waiting.shift()?.();
      }
    });
    // the lane goes on after a failure, which the caller of `done` hears
    const settled = done.catch(cleanupFailed);
    a.lanes.set(lane, settled);
    a.jobs.set(stepId, settled);
    void settled.then(() => {
      a.jobs.delete(stepId);
      if (a.lanes.get(lane) === settled) a.lanes.delete(lane);
      if (!a.jobs.size && !a.running) this.accounts.delete(accountId);
    });
    return done;
  }

  /** Whether the step is dispatched over and not done yet. */
  /** How many of the account's delivery steps are under way or waiting for their lane. */
  holding(accountId: string): number {
    return this.accounts.get(accountId)?.jobs.size ?? 0;
  }

  holds(accountId: string, stepId: string): boolean {
    return this.accounts.get(accountId)?.jobs.has(stepId) ?? false;
  }

  /** Whether any of the account's deliveries is under way or waiting for its lane. */
  busy(accountId: string): boolean {
    return (this.accounts.get(accountId)?.jobs.size ?? 0) > 0;
  }

  /** Resolves once every job of the account dispatched over so far is done. */
  async idle(accountId: string): Promise<void> {
    // their failures are said by whoever dispatched them over; this only waits for them to settle
    await Promise.all([...(this.accounts.get(accountId)?.jobs.values() ?? [])]);
  }
}

/** A step run, and its place among those one run of due steps met (deliveries end out of their order). */
export interface Placed {
  place: number;
  ran: Fired;
}

/** What one run of an account's due steps did: the steps run in it, and the deliveries it dispatched to their lanes. */
export interface Run {
  fired: Placed[];
  dispatched: Promise<Placed>[];
}

/** A delivery dispatched to its lane: its time on the account's clock, and its end. */
export interface Dispatched {
  atMs: number;
  done: Promise<Placed>;
}

/**
 * The least time after a delivery's own that a step it makes due can fall (its first retry): an
 * advance runs a later step only once the deliveries that could still make one before it are done.
 */
export const FOLLOWS_AFTER_MS = Math.min(...RETRY_BACKOFF_MS);

/** The steps of a run, in the order it met them, once its deliveries are done. */
export async function firedOf(run: Run): Promise<Fired[]> {
  const all = [...run.fired, ...(await Promise.all(run.dispatched))];
  return all.sort((a, b) => a.place - b.place).map((p) => p.ran);
}
