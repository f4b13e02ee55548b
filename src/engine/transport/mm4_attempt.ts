/** The MM4 transport of the delivery worker: the media fetched, the message composed and relayed; an SMTP refusal fails it. */
import type { OutboundOf } from '../../domain/rows.js';
import { DELIVERY_TIMEOUT_MS, outcomeOf, refusedOutcome, type Sent, type Transport } from './attempt.js';
import { fetchMedia } from './mime.js';
import { mm4Envelope, mm4Raw, mm4Send } from './mm4.js';
import { OutboundRefused } from './outbound.js';

export const mm4Attempt: Transport<OutboundOf<'mm4'>> = async (_row, spec, attempt, ctx) => {
  const message = spec.mm4;
  let sent: Sent | undefined;
  try {
    const media = await fetchMedia(message.media_urls, DELIVERY_TIMEOUT_MS, ctx.policy);
    const raw = mm4Raw(message, media);
    sent = { headers: mm4Envelope(message), body: raw };
    const reply = await mm4Send(message, raw, DELIVERY_TIMEOUT_MS, ctx.policy);
    const code = Number(/^\d{3}/.exec(reply)?.[0] ?? 250);
    return { ...outcomeOf({ ...attempt, status: code }, { status: code, headers: {}, body: reply }), sent };
  } catch (e) {
    const err = e as Error & { responseCode?: number };
    if (e instanceof OutboundRefused) return refusedOutcome(attempt, err.message);
    return { ...outcomeOf({ ...attempt, status: err.responseCode ?? null, error: err.message }, null), sent };
  }
};
