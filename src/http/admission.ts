/**
 * Fair admission of calls by account (docs/hosted.md, "A neighbour's flood"): once a call's account is known (its
 * key, before any work), it runs at once while its account has fewer than `perAccount` calls in the works and was
 * let in fewer than `perAccount` times in this turn of the event loop, and the server has fewer than `total` in the
 * works; else it waits in its account's queue. Once a turn (the loop's check phase, after the sockets were read), the
 * waiting accounts are let in, in turn, each up to its bound. A call that answers without I/O (a GET on the embedded
 * store) ends before the next socket is read, so the bound a turn is what keeps one account's calls from filling the
 * loop's whole turn, and a quiet account's call, let in at its arrival, from waiting behind them. An account's queue
 * holds at most `backlog` calls: one more is refused at once (503 backlog_full with Retry-After). Calls of no account
 * (health, readiness, the dashboard's files, the control API's own authority) are never queued.
 * An operator may also set a rate (`rate`, off by default: the real service's limits are not shown): calls a second
 * of one account, a token bucket of that size refilled as time goes, past it 429 `rate_limited` with Retry-After.
 */
import { DomainError } from '../domain/errors.js';

export interface AdmissionLimits {
  /** Calls of one account in the works at once. */
  perAccount: number;
  /** Calls of every account in the works at once. */
  total: number;
  /** Calls of one account waiting for their turn; one more is refused. */
  backlog: number;
  /** Calls a second of one account (undefined: no rate). */
  rate?: number;
}

/** The seconds a refused call is told to wait (Retry-After). */
export const RETRY_AFTER_S = 1;

/** One account's calls: those in the works, and those waiting, oldest first. */
interface Lane {
  running: number;
  /** Calls let in during this turn of the event loop. */
  thisTurn: number;
  waiting: (() => void)[];
  /** Calls refused past the backlog, since the start. */
  refused: number;
  /** Milliseconds its admitted calls waited, in all, and how many waited. */
  waitedMs: number;
  waited: number;
  /** With a rate: the calls it may still make now, and when that was counted (ms). */
  tokens: number;
  countedAt: number;
  /** When its last call was let in, as a count of calls let in (-1: never): among equals, the longest unserved goes first. */
  servedAt: number;
}

export class Admission {
  private readonly lanes = new Map<string, Lane>();
  /** The accounts with calls waiting, in the order they are next let in. */
  private readonly turn: string[] = [];
  private running = 0;
  /** Calls let in since the start. */
  private served = 0;
  /** The next turn is scheduled. */
  private turning = false;
  /** The accounts let in during this turn: their counts start again at the next. */
  private readonly touched = new Set<string>();

  constructor(
    readonly limits: AdmissionLimits,
    private readonly now: () => number,
  ) {}

  /**
   * Resolves with the call's release once the account's call may run (at once, or at its turn); throws
   * DomainError `backlog_full` when the account's queue is full.
   */
  async admit(accountId: string): Promise<() => void> {
    const lane = this.lane(accountId);
    this.spend(lane);
    if (!lane.waiting.length && this.hasRoom(lane)) return this.start(accountId, lane);
    if (lane.waiting.length >= this.limits.backlog) {
      lane.refused++;
      throw new DomainError('backlog_full', [
        {
          detail: `This account has ${this.limits.backlog} calls waiting for their turn on this server; try again in ${RETRY_AFTER_S} s.`,
        },
      ]);
    }
    const since = this.now();
    await new Promise<void>((resolve) => {
      lane.waiting.push(resolve);
      if (lane.waiting.length === 1) this.turn.push(accountId);
      this.nextTurn();
    });
    lane.waitedMs += this.now() - since;
    lane.waited++;
    return this.release(accountId, lane);
  }

  /** Each account's calls waiting now, in the works, refused since the start, and the mean wait of those let in. */
  depths(): { account: string; waiting: number; running: number; refused: number; meanWaitMs: number }[] {
    return [...this.lanes].map(([account, l]) => ({
      account,
      waiting: l.waiting.length,
      running: l.running,
      refused: l.refused,
      meanWaitMs: l.waited ? l.waitedMs / l.waited : 0,
    }));
  }

  private lane(accountId: string): Lane {
    let lane = this.lanes.get(accountId);
    if (!lane) {
      const tokens = this.limits.rate ?? 0;
      lane = {
        running: 0,
        thisTurn: 0,
        waiting: [],
        refused: 0,
        waitedMs: 0,
        waited: 0,
        tokens,
        countedAt: this.now(),
        servedAt: -1,
      };
      this.lanes.set(accountId, lane);
    }
    return lane;
  }

  /** With a rate, one of the account's calls a second: refused (429 rate_limited) when none is left. */
  private spend(lane: Lane): void {
    const rate = this.limits.rate;
    if (rate === undefined) return;
    const now = this.now();
    lane.tokens = Math.min(rate, lane.tokens + ((now - lane.countedAt) / 1000) * rate);
    lane.countedAt = now;
    if (lane.tokens >= 1) {
      lane.tokens -= 1;
      return;
    }
    lane.refused++;
    throw new DomainError('rate_limited', [
      {
        detail: `This account may make ${rate} calls a second on this server (its operator's --account-rate); try again in ${RETRY_AFTER_S} s.`,
      },
    ]);
  }

  /** The account may have one more call in the works now, and the server too. */
  private hasRoom(lane: Lane): boolean {
    const { perAccount, total } = this.limits;
    return lane.running < perAccount && lane.thisTurn < perAccount && this.running < total;
  }

  private start(accountId: string, lane: Lane): () => void {
    this.take(accountId, lane);
    return this.release(accountId, lane);
  }

  /** A slot of the account's and of the server's, taken by a call let in now. */
  private take(accountId: string, lane: Lane): void {
    lane.running++;
    lane.thisTurn++;
    this.running++;
    lane.servedAt = this.served++;
    this.touched.add(accountId);
    this.nextTurn();
  }

  /** The call's release (once): its slot freed; the accounts waiting are let in at the next turn. */
  private release(accountId: string, lane: Lane): () => void {
    let done = false;
    return () => {
      if (done) return;
      done = true;
      lane.running--;
      this.running--;
      this.forget(accountId, lane);
      if (this.turn.length) this.nextTurn();
    };
  }

  /** An account with nothing running, waiting or let in this turn keeps its counts only while they say something. */
  private forget(accountId: string, lane: Lane): void {
    if (lane.running || lane.waiting.length || lane.thisTurn || lane.refused || this.limits.rate !== undefined) return;
    this.lanes.delete(accountId);
  }

  /**
   * Schedules the next turn (once): on the event loop's check phase, after the sockets were read, every account may
   * be let in its bound again, and the waiting accounts are let in.
   */
  private nextTurn(): void {
    if (this.turning) return;
    this.turning = true;
    setImmediate(() => {
      this.turning = false;
      for (const accountId of this.touched) {
        const lane = this.lanes.get(accountId);
        if (!lane) continue;
        lane.thisTurn = 0;
        this.forget(accountId, lane);
      }
      this.touched.clear();
      this.letIn();
    });
  }

  /**
   * Lets waiting calls in while there is room: each time the waiting account with the fewest calls in the works,
   * and among equals the one served longest ago, so a quiet account goes ahead of a busy one; none past its bounds.
   * Each call let in runs once this turn's callback returns, in the order let in.
   */
  private letIn(): void {
    while (this.running < this.limits.total) {
      let pick = -1;
      let fewest = Infinity;
      let longest = Infinity;
      this.turn.forEach((accountId, i) => {
        const lane = this.lanes.get(accountId);
        if (!lane || !this.hasRoom(lane)) return;
        if (lane.running < fewest || (lane.running === fewest && lane.servedAt < longest))
          [pick, fewest, longest] = [i, lane.running, lane.servedAt];
      });
      if (pick < 0) return;
      const [accountId = ''] = this.turn.splice(pick, 1);
      const lane = this.lane(accountId);
      this.take(accountId, lane);
      lane.waiting.shift()?.();
      if (lane.waiting.length) this.turn.push(accountId);
    }
  }
}
