/**
 * What the SMPP server does with the account behind a bind (docs/protocols.md, "SMPP"): a bind authenticated
 * by an API key's SMPP system id and secret, a `submit_sm` answered with a message id (sending SMS
 * is outside the spec: only from the account's own numbers, no billing, no routing) and, when
 * `registered_delivery` asks, a delivery receipt on the account's clock; every PDU journaled.
 */
import { secretMatches } from '../domain/secrets.js';
import type { Clocks } from '../engine/clock.js';
import type { Faults } from '../engine/faults.js';
import type { Journal } from '../harness/journal.js';
import type { Units, Work } from '../engine/work.js';
import { SMPP_STATUS, type SmppHooks } from '../engine/transport/smpp_hooks.js';
import type { Bound, Exchange } from '../engine/transport/smpp_binds.js';
import { RECEIPT_STATES, receiptText } from '../engine/transport/smpp_messages.js';
import type { PDU } from 'smpp';
import { lostWith } from '../domain/side_paths.js';
import type { Logger } from '../deps.js';
import { messageId, numberOfAddress, type MessageIdForm } from '../domain/smpp_addresses.js';

/** A receipt follows an accepted submit_sm this much later on the account's clock. */
export const RECEIPT_DELAY_MS = 2_000;

export interface SmppDeps {
  /** The one runner of units of work. */
  units: Units;
  clocks: Clocks;
  faults: Faults;
  journal: Journal;
  /** Runs `fn` in the account's work, its effects after the commit (Runtime.work). */
  work<T>(accountId: string, fn: (w: Work) => Promise<T>): Promise<T>;
  /** Messages waiting for the key go out (DeliveryWorker.wake). */
  wake(keyId: string): Promise<void>;
  logger: Pick<Logger, 'warn'>;
  /** The form of the message ids submit_sm is answered with (`--smpp-message-ids`). */
  messageIds?: MessageIdForm;
}

/** A short_message or message_payload as text (the smpp package decodes it by data_coding). */
function textOf(pdu: PDU): string {
  const body = pdu.message_payload ?? pdu.short_message;
  if (typeof body === 'string') return body;
  if (body && typeof body === 'object' && 'message' in body) return String((body as { message: unknown }).message);
  return '';
}

export function smppHooks(deps: SmppDeps): SmppHooks {
  return {
    async authenticate(systemId, password) {
      const keys = await deps.units.run({ read: true }, (w) => w.apiKeys.bySmppSystemId(systemId));
      if (!keys.length) return { status: SMPP_STATUS.ESME_RINVSYSID };
      const key = keys.find((k) => secretMatches(password, k.smpp_secret_hash));
      // a known system id: the refusal is its account's to see
      if (!key) return { status: SMPP_STATUS.ESME_RINVPASWD, accountId: keys[0]?.account_id };
      if (!key.data.active) return { status: SMPP_STATUS.ESME_RBINDFAIL, accountId: key.account_id };
      return { keyId: key.data.id, accountId: key.account_id };
    },
    submit: (bind, pdu) => submit(deps, bind, pdu),
    bound: (bind) => {
      if (bind.kind !== 'transmitter')
        void deps
          .wake(bind.keyId)
          .catch(
            lostWith(
              (m) => deps.logger.warn(m),
              `sending the messages waiting for system id ${bind.systemId} at its bind`,
            ),
          );
    },
    fault: (point, systemId, accountId) => deps.faults.smpp(point, systemId, accountId),
    journal: (exchange) =>
      void journal(deps, exchange).catch(
        lostWith(
          (m) => deps.logger.warn(m),
          `the journal entry of an SMPP ${exchange.request.command} of ${exchange.systemId}`,
        ),
      ),
  };
}

async function submit(deps: SmppDeps, bind: Bound, pdu: PDU): Promise<{ status: number; message_id?: string }> {
  const source = numberOfAddress(pdu.source_addr, pdu.source_addr_ton);
  const destination = numberOfAddress(pdu.destination_addr, pdu.dest_addr_ton);
  return deps.work(bind.accountId, async (w) => {
    const number = await w.numbers.byNumber(source);
    if (!number) return { status: SMPP_STATUS.ESME_RINVSRCADR };
    const id = messageId(w.ids.ulid(), deps.messageIds);
    const requested = Number(pdu.registered_delivery ?? 0);
    const submitted = w.clock.iso();
    const receipt = async (state: 'DELIVRD' | 'ENROUTE', atMs: number) => {
      const text = receiptText(id, submitted, new Date(atMs).toISOString(), textOf(pdu), state);
      await w.outbox.deliver(
        'dlr',
        {
          method: 'SMPP',
          url: `smpp://${bind.systemId}`,
          headers: {},
          body: text,
          smpp: {
            key_id: bind.keyId,
            system_id: bind.systemId,
            source_addr: destination,
            destination_addr: source,
            text,
            receipt_for: id,
            receipt_state: RECEIPT_STATES[state].state,
          },
        },
        { retry: true, atMs },
      );
    };
    // registered_delivery (SMPP 3.4 5.2.17): bit 4 an intermediate notification, now; bits 0-1 01
    // (or 11) a receipt on the final outcome, which here is DELIVRD, RECEIPT_DELAY_MS later; 10 asks
    // for one on failure only, and a simulated message does not fail
    if (requested & 0x10) await receipt('ENROUTE', w.clock.ms());
    if ((requested & 0x03) === 0x01 || (requested & 0x03) === 0x03)
      await receipt('DELIVRD', w.clock.ms() + RECEIPT_DELAY_MS);
    return { status: 0, message_id: id };
  });
}

/** A PDU's fields as the journal shows them: no password, bytes as hex. */
function fieldsOf(pdu: PDU | null): Record<string, unknown> | null {
  if (!pdu) return null;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(pdu)) {
    if (typeof v === 'function' || k === 'command_length') continue;
    if (k === 'password') out[k] = '***';
    else if (Buffer.isBuffer(v)) out[k] = v.toString('hex');
    else if (v && typeof v === 'object' && 'message' in v) {
      const m = v as { message: unknown; udh?: Buffer[] };
      out[k] = { message: m.message, ...(m.udh ? { udh: m.udh.map((b) => b.toString('hex')) } : {}) };
    } else out[k] = v;
  }
  return out;
}

async function journal(deps: SmppDeps, e: Exchange): Promise<void> {
  const accountId = e.accountId;
  const clock = accountId
    ? await deps.units.run({ read: true }, (w) => deps.clocks.of(w, accountId))
    : deps.clocks.server();
  await deps.journal.record({
    api: 'smpp',
    at: clock.iso(),
    method: e.request.command.toUpperCase(),
    path: `smpp://${e.systemId}`,
    account_id: e.accountId ?? null,
    status: e.response?.command_status ?? -1,
    latency_ms: e.latencyMs,
    requestBody: JSON.stringify(fieldsOf(e.request)),
    responseText: JSON.stringify(fieldsOf(e.response)),
  });
}
