/**
 * The outbox: every effect of the simulation is first a row written in the same unit of work as
 * the change that causes it, and runs only after that work is committed: each delivery is a step on
 * the account's clock, so a restart resumes every pending attempt. What the provider sends (events,
 * CDRs, switch messages) and to whom is the simulation's (src/simulation/outbound.ts).
 */
import type { Ids } from '../deps.js';
import type { components } from '../generated/api.js';
import type { DeliveryKind, DeliveryRow, OutboundSpec, Settle, StepKind } from '../domain/rows.js';
import type { AccountView } from '../store/store.js';
import type { Clock } from './clock.js';
import { redactHeaders, redactUrl } from './redact.js';

export type Topic = components['schemas']['event_topic'];
export type EventKind = components['schemas']['event_kind'];
export type CdrKind = 'SMS' | 'MMS' | 'LRN' | 'CNAM' | 'MCL';

export interface ResourceRef {
  type: string;
  data: unknown;
}

/** What the provider sends of its own accord, made by the simulation (src/simulation/outbound.ts). */
export interface ProviderEffects {
  /** An event to every enabled subscription of the account with the topic. */
  publish(topic: Topic, kind: EventKind, resource: ResourceRef): Promise<void>;
  /** A billed CDR to the account's call data webhook; false when it has none. */
  cdr(kind: CdrKind, fields: { from: string; to: string } & Record<string, unknown>): Promise<boolean>;
}

/** How the provider's effects are made over an account's outbox (the composition root gives the simulation's). */
export type EffectsOf = (port: {
  store: AccountView;
  clock: Clock;
  ids: Ids;
  deliver: Outbox['deliver'];
}) => ProviderEffects;

export interface Outbox extends ProviderEffects {
  /** A lifecycle step of `kind` for `ref`, due at `atMs` on the account's clock. */
  schedule(kind: StepKind, ref: string, atMs: number): Promise<void>;
  /**
   * A delivery, logged now and attempted after the commit; a failure is retried on the clock if
   * asked. `now: true` logs it without a step: the caller sends it at once (an HTTP route callback);
   * `atMs` sends it first at that time on the account's clock rather than now.
   */
  deliver(
    kind: DeliveryKind,
    request: OutboundSpec,
    opts: { retry: boolean; settle?: Settle; now?: boolean; atMs?: number },
  ): Promise<DeliveryRow>;
  /** The earliest time (ms) of a step scheduled by this work, so the scheduler can wake for it. */
  readonly earliest: number | null;
}

/** The account's settled deliveries kept in the log beyond which the oldest are dropped. */
export const DELIVERY_LOG_PER_ACCOUNT = 2_000;
/** Shown bodies of the delivery log are cut here (the body sent is whole). */
const SHOWN_BODY_LIMIT = 64 * 1024;

/**
 * The outbox of a unit of work. `causeNow`: the `traceparent` of the call or step whose work runs now
 * (null while traces are off), kept with each delivery and step it makes (docs/observability.md).
 */
export function openOutbox(
  store: AccountView,
  clock: Clock,
  ids: Ids,
  effects: EffectsOf,
  causeNow: () => string | null,
): Outbox {
  const caused = () => {
    const cause = causeNow();
    return cause ? { cause } : {};
  };
  // the trace of a traceparent: its second field
  const traced = (c: { cause?: string }) => (c.cause ? { trace_id: c.cause.split('-')[1] ?? '' } : {});
  const { accountId } = store;
  let earliest: number | null = null;

  const schedule = async (kind: StepKind, ref: string, atMs: number): Promise<void> => {
    const at = new Date(atMs).toISOString();
    const seq = await store.nextSeq();
    await store.steps.insert({ seq, ...caused(), data: { id: ids.uuid(), inserted_at: clock.iso(), at, kind, ref } });
    earliest = earliest === null ? atMs : Math.min(earliest, atMs);
  };

  const deliver: Outbox['deliver'] = async (kind, request, opts) => {
    const now = clock.iso();
    const shown =
      request.body.length > SHOWN_BODY_LIMIT
        ? `${request.body.slice(0, SHOWN_BODY_LIMIT)}… (cut at 64 KB)`
        : request.body;
    const cause = caused();
    const row = await store.deliveries.insert({
      request,
      retry: opts.retry,
      settle: opts.settle ?? null,
      ...cause,
      data: {
        id: ids.ulid(),
        inserted_at: now,
        account_id: accountId,
        kind,
        method: request.method,
        target: redactUrl(request.url),
        headers: redactHeaders(request.headers),
        body:
          'body_file' in request && request.body_file ? `(file ${request.body_file.archive_name ?? 'result'})` : shown,
        attempts: [],
        outcome: 'pending',
        next_attempt_at: opts.atMs === undefined ? now : new Date(opts.atMs).toISOString(),
        note: request.note ?? null,
        ...traced(cause),
      },
    });
    if (!opts.now) await schedule('delivery', row.data.id, opts.atMs ?? clock.ms());
    await trimLog(store);
    return row;
  };

  return {
    get earliest() {
      return earliest;
    },
    schedule,
    deliver,
    ...effects({ store, clock, ids, deliver }),
  };
}

/** Keeps the account's delivery log bounded: the oldest settled deliveries go first. */
async function trimLog(store: AccountView): Promise<void> {
  const excess = (await store.deliveries.count()) - DELIVERY_LOG_PER_ACCOUNT;
  if (excess <= 0) return;
  // a look at the oldest few is enough: the log shrinks one delivery at a time as it grows
  const oldest = await store.deliveries.oldest(100);
  const settled = oldest.filter((d) => !['pending', 'retrying', 'held', 'waiting'].includes(d.data.outcome));
  for (const d of settled.slice(0, excess)) await store.deliveries.remove(d);
}
