/**
 * A delivery through a listener (src/engine/listeners.ts): the HTTP request as it would go out, sent
 * over the stream of every listener of the account that takes its target. Answered when a listener's
 * local receiver answered 2xx; failed otherwise (retried as for any target), and when none is connected.
 */
import type { DeliveryRow, OutboundOf } from '../../domain/rows.js';
import type { Frozen } from '../../domain/frozen.js';
import { listenName, type Heard, type ListenedRequest } from '../listeners.js';
import { outcomeOf, tracedHeaders, type AttemptContext, type Transport } from './attempt.js';
import { madeBody } from './body.js';

const taken = (h: Heard) => h.status !== null && h.status >= 200 && h.status <= 299;

/** A delivery's request as a listener receives it, its body made now (composed, or read from a file). */
export async function listenedRequest(
  row: DeliveryRow,
  spec: Frozen<OutboundOf<'http'>>,
  ctx: AttemptContext,
): Promise<ListenedRequest> {
  const sent = await madeBody(spec, ctx);
  const body = typeof sent.body === 'string' ? Buffer.from(sent.body, 'utf8') : sent.body;
  return {
    delivery_id: row.data.id,
    kind: row.data.kind,
    target: spec.url,
    method: spec.method,
    headers: tracedHeaders(sent.headers, ctx),
    body,
  };
}

export const listenAttempt: Transport<OutboundOf<'http'>> = async (row, spec, attempt, ctx) => {
  let request: ListenedRequest;
  try {
    request = await listenedRequest(row, spec, ctx);
  } catch (e) {
    return outcomeOf({ ...attempt, error: (e as Error).message }, null);
  }
  const sent = { headers: request.headers, body: request.body };
  const heard = await ctx.listeners.send(row.account_id, request);
  if (!heard.length) {
    const name = listenName(spec.url);
    const error = name === null ? 'no listener is connected' : `no listener named ${name} is connected`;
    return outcomeOf({ ...attempt, error }, null);
  }
  const answer = heard.find(taken);
  if (answer) {
    const response = { status: answer.status ?? 200, headers: answer.headers, body: answer.body };
    return { ...outcomeOf({ ...attempt, status: response.status }, response), sent };
  }
  const error = heard.map((h) => `listener ${h.listener}: ${h.error ?? `answered ${h.status}`}`).join('; ');
  const status = heard.find((h) => h.status !== null)?.status ?? null;
  return { ...outcomeOf({ ...attempt, status, error }, null), sent };
};
