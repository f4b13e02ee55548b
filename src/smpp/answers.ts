/**
 * The SMPP server's answers (server.ts): a response with a status, its fields written empty when it
 * refuses, as SMSCs send them; a fault's effect on a PDU.
 */
import smpp, { type PDU } from 'smpp';
import type { FaultEffect } from '../engine/faults.js';

const wait = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * The response to `pdu` with a status; a command without a response of its own gets a generic_nack.
 * A refused response whose command has a body (a bind's system_id, a submit's message_id) carries
 * it empty, as SMSCs send it: SMPP 3.4 4.1.2 allows none, but a peer such as Kannel warns on every one.
 */
export function answerOf(pdu: PDU, status: number): PDU {
  let response: PDU;
  try {
    response = pdu.response({ command_status: 0 });
  } catch {
    // a command with no response PDU (a nack or a response itself): generic_nack
    return new smpp.PDU('generic_nack', { sequence_number: pdu.sequence_number, command_status: status });
  }
  if (status === 0) return response;
  // the smpp package writes no body for a status; its body is written with 0 and the status put in
  const encode = response.toBuffer.bind(response);
  response.command_status = status;
  response.toBuffer = () => {
    response.command_status = 0;
    try {
      const bytes = encode();
      bytes.writeUInt32BE(status >>> 0, 8);
      return bytes;
    } finally {
      response.command_status = status;
    }
  };
  return response;
}

/** A fault's effect on a PDU: a delay, then a status answered instead, or the connection dropped (null). */
export async function applied(effect: FaultEffect | undefined, pdu: PDU): Promise<PDU | null | undefined> {
  if (!effect) return undefined;
  if (effect.delay_ms) await wait(effect.delay_ms);
  if (effect.drop) return null;
  if (effect.smpp_status) return answerOf(pdu, effect.smpp_status);
  return undefined;
}
