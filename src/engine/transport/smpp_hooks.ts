/**
 * What the SMPP server (src/smpp/server.ts, a front door beside HTTP) asks of the simulator, and the
 * SMPP 3.4 statuses both speak: the simulation answers a bind and a submit_sm through these hooks
 * (src/simulation/smpp.ts).
 */
import type { PDU } from 'smpp';
import type { FaultEffect, SmppFaultPoint } from '../faults.js';
import type { Bound, Exchange } from './smpp_binds.js';

/** SMPP 3.4 command_status values (section 5.1.3). */
export const SMPP_STATUS = {
  ESME_ROK: 0x00,
  ESME_RINVCMDLEN: 0x02,
  ESME_RINVCMDID: 0x03,
  ESME_RINVBNDSTS: 0x04,
  ESME_RALYBND: 0x05,
  ESME_RSYSERR: 0x08,
  ESME_RINVSRCADR: 0x0a,
  ESME_RBINDFAIL: 0x0d,
  ESME_RINVPASWD: 0x0e,
  ESME_RINVSYSID: 0x0f,
  ESME_RTHROTTLED: 0x58,
} as const;

export interface SmppHooks {
  /** The key a bind's credentials name, or the command_status refusing it. */
  /**
   * The key a bind's credentials name, or the status it is refused with (and the account whose
   * system id it named, when the id is known: the refusal is journaled as that account's).
   */
  authenticate(
    systemId: string,
    password: string,
  ): Promise<{ keyId: string; accountId: string } | { status: number; accountId?: string }>;
  /** A `submit_sm` of a bound client: its command_status, and its message id when accepted. */
  submit(bind: Bound, pdu: PDU): Promise<{ status: number; message_id?: string }>;
  /** A bind that may receive is up: messages waiting for its key go out. */
  bound(bind: Bound): void;
  /** The effect of an SMPP fault rule, if one fires. */
  fault(point: SmppFaultPoint, systemId: string, accountId: string | undefined): Promise<FaultEffect | undefined>;
  journal(exchange: Exchange): void;
}
