/** The SMPP transport of the delivery worker: a message's deliver_sm PDUs to a receiving bind of its key. */
import type { OutboundOf } from '../../domain/rows.js';
import { DELIVERY_TIMEOUT_MS, outcomeOf, type Transport } from './attempt.js';
import { deliverPdus, pduShown } from './smpp_messages.js';

export const smppAttempt: Transport<OutboundOf<'smpp'>> = async (row, spec, attempt, ctx) => {
  const message = spec.smpp;
  const fault = await ctx.faults.smpp('deliver_sm', message.system_id, row.account_id);
  if (fault?.delay_ms) await new Promise((r) => setTimeout(r, fault.delay_ms));
  if (fault?.smpp_status)
    return outcomeOf({ ...attempt, status: fault.smpp_status, error: statusError(fault.smpp_status) }, null);
  if (fault?.drop) return outcomeOf({ ...attempt, error: 'injected fault: the bind dropped' }, null);
  // the parts of one message share a reference: a number from its id
  const reference = [...row.data.id].reduce((n, c) => (n * 31 + c.charCodeAt(0)) & 0xff, 0);
  const pdus = deliverPdus(message, reference);
  const result = await ctx.smpp.deliver(message.key_id, pdus, DELIVERY_TIMEOUT_MS, ctx.traceparent);
  if (result === null) return { kind: 'waiting', attempt, response: null };
  const sent = { headers: { command: 'deliver_sm' }, body: JSON.stringify(pdus.map(pduShown), null, 1) };
  if ('error' in result) return { ...outcomeOf({ ...attempt, error: result.error }, null), sent };
  if (result.status)
    return { ...outcomeOf({ ...attempt, status: result.status, error: statusError(result.status) }, null), sent };
  return { ...outcomeOf({ ...attempt, status: 0 }, { status: 0, headers: {}, body: '' }), sent };
};

/** A deliver_sm answered with an error status, as the delivery log says it. */
const statusError = (status: number): string =>
  `deliver_sm answered command_status 0x${status.toString(16).padStart(8, '0')}`;
