/**
 * One attempt of a delivery, as every transport answers it (the delivery worker, src/engine/deliveries.ts,
 * calls each through `Transport`): what came of it, and what it put on the wire.
 */
import type { Attempt, DeliveryRow, OutboundSpec } from '../../domain/rows.js';
import type { Frozen } from '../../domain/frozen.js';
import type { Faults } from '../faults.js';
import type { OutboundResponse } from './http_client.js';
import type { OutboundPolicy } from './outbound.js';
import type { SmppBinds } from './smpp_binds.js';
import type { Listeners } from '../listeners.js';

/** How long an attempt waits for its answer. */
export const DELIVERY_TIMEOUT_MS = 5_000;

/**
 * What an attempt came to: `answered` (a response that takes it), `failed` (retried while retries
 * last), `refused` (by the outbound policy: never retried), or `waiting` (an SMPP message whose key
 * has no receiving bind here: not an attempt).
 */
export type OutcomeKind = 'answered' | 'failed' | 'refused' | 'waiting';

export interface Outcome {
  kind: OutcomeKind;
  attempt: Attempt;
  response: OutboundResponse | null;
  /** What went out on the wire, for the delivery log (absent when nothing did). */
  sent?: Sent;
}

/** What an attempt put on the wire: its headers (or envelope) and its body, as the log shows them. */
export interface Sent {
  headers: Record<string, string>;
  body: string | Buffer;
}

/** An outcome from its attempt and response: answered when there is a response, else failed. */
export const outcomeOf = (attempt: Attempt, response: OutboundResponse | null): Outcome => ({
  kind: response ? 'answered' : 'failed',
  attempt,
  response,
});

/** An attempt the outbound policy refused. */
export const refusedOutcome = (attempt: Attempt, why: string): Outcome => ({
  kind: 'refused',
  attempt: { ...attempt, error: `refused: ${why}` },
  response: null,
});

/** What a transport may use: the outbound policy, the fault rules, this process's SMPP binds and listeners, the stored files. */
export interface AttemptContext {
  policy: OutboundPolicy;
  faults: Faults;
  smpp: SmppBinds;
  listeners: Pick<Listeners, 'send'>;
  /** A stored file (a result file a delivery sends), read in a unit of work of its own. */
  file(id: string): Promise<Buffer | undefined>;
  /** The account's clock now, in ms (an archive's time). */
  nowMs: number;
  /** The attempt's span as a W3C `traceparent`, which an HTTP request carries (null while traces are off). */
  traceparent: string | null;
}

/** An HTTP request's headers with the attempt's `traceparent`, so the receiver's trace joins (docs/observability.md). */
export const tracedHeaders = (headers: Record<string, string>, ctx: AttemptContext): Record<string, string> =>
  ctx.traceparent ? { ...headers, traceparent: ctx.traceparent } : headers;

/**
 * One attempt of a delivery by one transport, begun as `attempt` (its time), given the row and its
 * request as the transport's own variant (`spec`); answers what came of it.
 */
export type Transport<S extends OutboundSpec = OutboundSpec> = (
  row: DeliveryRow,
  spec: Frozen<S>,
  attempt: Attempt,
  ctx: AttemptContext,
) => Promise<Outcome>;
