/**
 * The HTTP transport of the delivery worker: the request as it goes out (a message composed with its
 * media, or a stored result file, archived when asked: body.ts) sent once; answered by a 2xx, failed
 * otherwise.
 */
import type { OutboundOf } from '../../domain/rows.js';
import { DELIVERY_TIMEOUT_MS, outcomeOf, refusedOutcome, tracedHeaders, type Transport } from './attempt.js';
import { madeBody } from './body.js';
import { send } from './http_client.js';
import { OutboundRefused } from './outbound.js';

export const httpAttempt: Transport<OutboundOf<'http'>> = async (_row, spec, attempt, ctx) => {
  try {
    const made = await madeBody(spec, ctx);
    const sent = { ...made, headers: tracedHeaders(made.headers, ctx) };
    const response = await send({ method: spec.method, url: spec.url, ...sent }, DELIVERY_TIMEOUT_MS, ctx.policy);
    const done = { ...attempt, status: response.status };
    if (response.status < 200 || response.status > 299)
      return { ...outcomeOf({ ...done, error: `answered ${response.status}` }, null), sent };
    return { ...outcomeOf(done, response), sent };
  } catch (e) {
    if (e instanceof OutboundRefused) return refusedOutcome(attempt, e.message);
    return outcomeOf({ ...attempt, error: (e as Error).message }, null);
  }
};
