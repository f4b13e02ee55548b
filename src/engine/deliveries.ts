/**
 * The delivery worker (interface.md section 8): runs a due delivery from the outbox as a real
 * request to the client's endpoint, outside any lock, then records the attempt in the delivery
 * log. A failure (no answer, or not 2xx) is retried on the account's clock after 1 min, 5 min,
 * 30 min, 2 h and 6 h; the sixth failure is final.
 */
import { elapsedMs, stopwatch, type Logger } from '../deps.js';
import {
  transportOf,
  type Attempt,
  type DeliveryRow,
  type OutboundOf,
  type StepRow,
  type TransportName,
} from '../domain/rows.js';
import type { UnitOfWork } from '../store/store.js';
import type { Units } from './work.js';
import type { Clocks } from './clock.js';
import type { FaultEffect, Faults } from './faults.js';
import type { Metrics } from '../observability/metrics.js';
import type { OutboundResponse } from './transport/http_client.js';
import type { OutboundPolicy } from './transport/outbound.js';
import { putStep } from './steps.js';
import type { SmppBinds } from './transport/smpp_binds.js';
import { redactHeaders } from './redact.js';
import { LAST_BACKOFF_MS, RETRY_BACKOFF_MS } from '../domain/deliveries.js';
import { outcomeOf, refusedOutcome, type Outcome, type Sent, type Transport } from './transport/attempt.js';
import { httpAttempt } from './transport/http_attempt.js';
import { mm4Attempt } from './transport/mm4_attempt.js';
import { smppAttempt } from './transport/smpp_attempt.js';
import { sftpAttempt } from './transport/sftp_attempt.js';
import { chatAttempt } from './transport/chat_attempt.js';
import { listenAttempt, listenedRequest } from './transport/listen_attempt.js';
import type { ListenedRequest, Listeners } from './listeners.js';
import type { AttemptContext } from './transport/attempt.js';
import type { Span, Tracing } from '../observability/tracing.js';

export { DELIVERY_TIMEOUT_MS } from './transport/attempt.js';

/** A message for an SMPP bind waits this long on the account's clock for one, then fails as expired. */
export const SMPP_WAIT_MS = 24 * 3600_000;

/**
 * What a settled delivery does besides its log entry, in the unit of work that settles it: the
 * simulation's rule for what the delivery was for (a bulk dip's on-done action learns its outcome).
 */
export type Settled = (w: UnitOfWork, row: DeliveryRow, delivered: boolean) => Promise<void>;

export interface DeliveryWorkerOptions {
  /** The one runner of units of work. */
  units: Units;
  /** Registered by the simulation (src/simulation/bulk_dips.ts settleDelivery); nothing by default. */
  settled?: Settled;
  /** Counts each attempt by protocol, kind and outcome. */
  metrics?: Pick<Metrics, 'attempt'>;
  clocks: Clocks;
  faults: Faults;
  policy: OutboundPolicy;
  logger: Logger;
  /** The SMPP binds of this process. */
  smpp: SmppBinds;
  /** The listeners (`dipswitch listen`): an HTTP delivery they take goes to them rather than to its target. */
  listeners: Pick<Listeners, 'send' | 'routes'>;
  /** A span for every attempt (NO_TRACES: none). */
  tracing: Pick<Tracing, 'within'>;
}

/** What an attempt's log says of its span: its trace (nothing while traces are off). */
const traceOf = (span: Span): { trace_id?: string } => (span.traceId ? { trace_id: span.traceId } : {});

/** The most of a body sent that the log keeps (the body sent is whole). */
const SENT_BODY_LIMIT = 64 * 1024;

/** A body as the log shows it: text when it is UTF-8, else base64; cut at SENT_BODY_LIMIT. */
function shownSent(body: string | Buffer): string {
  const bytes = typeof body === 'string' ? Buffer.from(body, 'utf8') : body;
  const cut = bytes.length > SENT_BODY_LIMIT;
  const kept = bytes.subarray(0, SENT_BODY_LIMIT);
  const text = kept.toString('utf8');
  const shown = Buffer.from(text, 'utf8').equals(kept) ? text : `(base64) ${kept.toString('base64')}`;
  return cut ? `${shown}… (cut at 64 KB of ${bytes.length} bytes)` : shown;
}

/**
 * The transports by the method a delivery's request names: SMPP and MM4 have their own; every other
 * (the HTTP methods, SFTP) goes through the HTTP one. Each answers its attempt's outcome.
 */
/** Every transport by its name, each taking its own variant of OutboundSpec. */
export type Transports = { [T in TransportName]: Transport<OutboundOf<T>> };

/** The transports: a variant of OutboundSpec without one does not compile. */
const TRANSPORTS: Transports = {
  http: httpAttempt,
  sftp: sftpAttempt,
  smpp: smppAttempt,
  mm4: mm4Attempt,
  chat: chatAttempt,
};

export class DeliveryWorker {
  /** The keys whose waiting messages are being sent, and whether to look again after. */
  private readonly waking = new Map<string, { again: boolean }>();

  constructor(private readonly opts: DeliveryWorkerOptions) {}

  /**
   * Runs a due delivery step; answers what happened, for `advance`'s report. `atMs`: the time on the
   * account's clock the step was claimed at, which its attempt is stamped with and its retry counted from
   * (deliveries run side by side, so the clock may have moved on meanwhile).
   */
  async run(step: StepRow, atMs?: number): Promise<string> {
    const row = await this.opts.units.run({ read: true }, (w) => w.deliveries.get(step.data.ref));
    const runnable = ['pending', 'retrying', 'waiting'];
    if (!row || !runnable.includes(row.data.outcome)) {
      await this.record(step, row, []);
      return `delivery ${step.data.ref} is no longer pending`;
    }
    const said = await this.attemptAndRecord(step, row, atMs);
    await this.releaseHeld(row);
    return said;
  }

  /**
   * Control API: sends a delivery of the account again now, whatever its outcome; a retry waiting
   * for it is dropped first. Answers the delivery with the new attempt, or null when the account has none of that id.
   */
  async redeliver(accountId: string, id: string): Promise<DeliveryRow | null> {
    const row = await this.opts.units.run({ account: accountId }, async (w) => {
      const own = w.view(accountId);
      const current = await own.deliveries.get(id);
      if (!current) return null;
      for (const step of await own.steps.ofRef(id)) if (step.data.kind === 'delivery') await own.steps.remove(step);
      return own.deliveries.update(current, (d) => {
        d.data.outcome = 'pending';
        d.data.next_attempt_at = null;
      });
    });
    if (!row) return null;
    await this.attemptAndRecord(undefined, row);
    return (await this.opts.units.run({ read: true }, (w) => w.view(accountId).deliveries.get(id))) ?? null;
  }

  /** Sends one delivery now and logs it (an HTTP route callback: answered now or never). */
  async sendNow(row: DeliveryRow): Promise<OutboundResponse | null> {
    const { attempt, response } = await this.attempt(row, undefined);
    await this.opts.units.run({ account: row.account_id }, async (w) => {
      const current = await w.deliveries.get(row.data.id);
      if (current)
        await w.deliveries.update(current, (d) => {
          d.data.attempts.push(attempt);
          d.data.outcome = response ? 'delivered' : 'failed';
          d.data.next_attempt_at = null;
        });
    });
    return response;
  }

  private async attemptAndRecord(step: StepRow | undefined, row: DeliveryRow, atMs?: number): Promise<string> {
    const fault = await this.opts.faults.outbound(row.request.url, row.account_id);
    if (fault?.reorder) {
      await this.record(step, row, [], 'held', undefined, atMs);
      return `delivery ${row.data.kind} to ${row.data.target}: held back until the next one to it`;
    }
    const first = await this.attempt(row, fault, atMs);
    if (first.kind === 'waiting') return this.wait(step, row, first.attempt, atMs);
    const attempts = [first.attempt];
    if (first.response && fault?.duplicate) attempts.push((await this.attempt(row, undefined, atMs)).attempt);
    const n = row.data.attempts.length + 1;
    const response = first.response;
    const refused = first.kind === 'refused';
    const final = response !== null || refused || !row.retry || n > RETRY_BACKOFF_MS.length;
    const outcome = response ? 'delivered' : refused ? 'refused' : final ? 'failed' : 'retrying';
    this.opts.metrics?.attempt(transportOf(row.request), row.data.kind, outcome);
    await this.record(step, row, attempts, outcome, first.sent, atMs);
    const what = `delivery ${row.data.kind} to ${row.data.target}: attempt ${n}`;
    if (response) return `${what} answered ${response.status}`;
    return final
      ? `${what} failed (${first.attempt.error}); no more attempts`
      : `${what} failed (${first.attempt.error}), retrying`;
  }

  /**
   * An SMPP message with no bind to go to: it waits (a peer holding a bind of the key hears of it),
   * until SMPP_WAIT_MS have passed on the account's clock since it first waited: then it expired.
   */
  private async wait(step: StepRow | undefined, row: DeliveryRow, attempt: Attempt, atMs?: number): Promise<string> {
    const systemId = row.request.method === 'SMPP' ? row.request.smpp.system_id : '';
    if (row.data.outcome !== 'waiting') {
      await this.record(step, row, [], 'waiting', undefined, atMs);
      return `delivery ${row.data.kind} to ${row.data.target}: waiting for an SMPP bind of system id ${systemId}`;
    }
    const error = `no SMPP bind of system id ${systemId} came within ${SMPP_WAIT_MS / 3600_000} h: expired`;
    await this.record(step, row, [{ ...attempt, error }], 'failed', undefined, atMs);
    return `delivery ${row.data.kind} to ${row.data.target}: ${error}`;
  }

  /**
   * A bind of the key is up here: the messages waiting for it go out, oldest first, each claimed in
   * its account's work (so one instance sends it). A wake while one runs for the key runs again after.
   */
  async wake(keyId: string): Promise<void> {
    const running = this.waking.get(keyId);
    if (running) {
      running.again = true;
      return;
    }
    const state = { again: true };
    this.waking.set(keyId, state);
    try {
      while (state.again) {
        state.again = false;
        const waiting = await this.opts.units.run({ read: true }, (w) => w.deliveries.waitingFor(keyId));
        for (const row of waiting) {
          const claimed = await this.opts.units.run({ account: row.account_id }, async (w) => {
            const current = await w.deliveries.get(row.data.id);
            if (current?.data.outcome !== 'waiting') return undefined;
            return w.deliveries.update(current, (d) => {
              d.data.outcome = 'pending';
            });
          });
          if (claimed) await this.attemptAndRecord(undefined, claimed);
        }
      }
    } finally {
      this.waking.delete(keyId);
    }
  }

  /** Sends what an out-of-order fault held back for this target, after the delivery that just went. */
  private async releaseHeld(after: DeliveryRow): Promise<void> {
    const held = await this.opts.units.run({ read: true }, (w) => w.deliveries.heldFor(after.data.target));
    for (const row of held) {
      if (row.data.id === after.data.id) continue;
      await this.attemptAndRecord(undefined, {
        ...row,
        data: { ...row.data, outcome: 'pending' },
      });
    }
  }

  /**
   * One attempt: refused by policy, failed by an injected fault, or really sent by its transport (an
   * HTTP request a listener takes by its listener, outside the policy: it does not go to its target).
   */
  private async attempt(row: DeliveryRow, fault: FaultEffect | undefined, atMs?: number): Promise<Outcome> {
    const { units, clocks, listeners, tracing } = this.opts;
    const clock = await units.run({ read: true }, (w) => clocks.of(w, row.account_id));
    const at = atMs ?? clock.ms();
    const attempt: Attempt = { at: new Date(at).toISOString(), status: null, error: null, duration_ms: 0 };
    const listened = transportOf(row.request) === 'http' && listeners.routes(row.account_id, row.request.url);
    // every attempt a span, tied to the call that made the delivery (docs/observability.md)
    const span = {
      name: `deliver ${row.data.kind}`,
      kind: 'client' as const,
      cause: row.cause ?? null,
      attributes: {
        'dipswitch.delivery.id': row.data.id,
        'dipswitch.delivery.kind': row.data.kind,
        'dipswitch.delivery.attempt': row.data.attempts.length + 1,
        'dipswitch.delivery.transport': listened ? 'listener' : transportOf(row.request),
        'dipswitch.account_id': row.account_id,
        'dipswitch.clock.at': attempt.at,
        'url.full': row.data.target,
        ...(transportOf(row.request) === 'http' ? { 'http.request.method': row.request.method } : {}),
      },
    };
    return tracing.within(span, async (traced) => {
      const outcome = await this.made(row, fault, { ...attempt, ...traceOf(traced) }, at, listened, traced);
      const { status, error } = outcome.attempt;
      traced.set({ 'http.response.status_code': status ?? undefined, 'dipswitch.delivery.outcome': outcome.kind });
      if (!outcome.response && error) traced.fail(error);
      return outcome;
    });
  }

  /** The attempt itself, in its span (whose context an HTTP request carries as `traceparent`). */
  private async made(
    row: DeliveryRow,
    fault: FaultEffect | undefined,
    attempt: Attempt,
    at: number,
    listened: boolean,
    span: Span,
  ): Promise<Outcome> {
    const denial = listened ? null : this.opts.policy.denial(row.request.url);
    if (denial) return refusedOutcome(attempt, denial);
    if (fault?.fail) return outcomeOf({ ...attempt, error: 'injected fault' }, null);
    const started = stopwatch();
    // cast: transportOf names the transport of the request's own variant, which TypeScript cannot follow
    const transport = (listened ? listenAttempt : TRANSPORTS[transportOf(row.request)]) as Transport;
    const outcome = await transport(row, row.request, attempt, this.context(at, span.traceparent));
    return { ...outcome, attempt: { ...outcome.attempt, duration_ms: elapsedMs(started) } };
  }

  private context(nowMs: number, traceparent: string | null = null): AttemptContext {
    const { units, policy, faults, smpp, listeners } = this.opts;
    const file = (id: string) => units.run({ read: true }, (w) => w.files.get(id));
    return { policy, faults, smpp, listeners, file, nowMs, traceparent };
  }

  /** A delivery's HTTP request as a listener receives it, made now (an attempt another instance handed over). */
  async listened(accountId: string, deliveryId: string): Promise<ListenedRequest | undefined> {
    const { units, clocks } = this.opts;
    const [row, clock] = await units.run({ read: true }, async (w) => [
      await w.view(accountId).deliveries.get(deliveryId),
      await clocks.of(w, accountId),
    ]);
    const spec = row?.request;
    if (!row || !spec || (spec.method !== 'GET' && spec.method !== 'POST' && spec.method !== 'PUT')) return undefined;
    return listenedRequest(row, spec, this.context(clock.ms()));
  }

  /** Logs the attempts, removes the step, and schedules the retry or settles the delivery, in one work. */
  private async record(
    step: StepRow | undefined,
    row: DeliveryRow | undefined,
    attempts: Attempt[],
    outcome?: DeliveryRow['data']['outcome'],
    sent?: Sent,
    atMs?: number,
  ): Promise<void> {
    const accountId = row?.account_id ?? step?.account_id;
    if (!accountId) return;
    await this.opts.units.run({ account: accountId }, async (w) => {
      if (step) {
        const stored = await w.steps.get(step.data.id);
        if (stored) await w.steps.remove(stored);
      }
      const current = row && (await w.deliveries.get(row.data.id));
      if (!current || !outcome) return;
      const clock = await this.opts.clocks.of(w, accountId);
      // counted from the attempt's own time: the clock may have moved on while it ran
      const from = atMs ?? clock.ms();
      const n = current.data.attempts.length + attempts.length;
      const retryAt =
        outcome === 'retrying'
          ? from + (RETRY_BACKOFF_MS[n - 1] ?? LAST_BACKOFF_MS)
          : outcome === 'waiting'
            ? from + SMPP_WAIT_MS
            : null;
      await w.deliveries.update(current, (d) => {
        d.data.attempts.push(...attempts);
        d.data.outcome = outcome;
        // what the latest attempt put on the wire, as the journal keeps a call: redacted and bounded
        if (sent) {
          d.data.headers = redactHeaders(sent.headers);
          d.data.body = shownSent(sent.body);
        }
        d.data.next_attempt_at = retryAt === null ? null : new Date(retryAt).toISOString();
      });
      if (outcome === 'waiting' && current.request.method === 'SMPP') await w.tell('smpp', current.request.smpp.key_id);
      if (retryAt !== null) {
        const id = outcome === 'waiting' ? `${current.data.id}-wait` : `${current.data.id}-${n}`;
        const step = { id, kind: 'delivery' as const, ref: current.data.id };
        await putStep(w, accountId, { ...step, atMs: retryAt, now: new Date(from).toISOString() });
        await w.tell('steps', accountId);
      }
      if (outcome === 'delivered' || outcome === 'failed' || outcome === 'refused')
        await this.opts.settled?.(w, current, outcome === 'delivered');
    });
  }
}
