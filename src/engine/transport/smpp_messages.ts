/**
 * The deliver_sm PDUs of a message for an SMPP bind (docs/protocols.md, "SMPP"): GSM 7-bit (data_coding 0) or
 * UCS-2 (8) chosen by the text, a long text in concatenated parts under a user data header, and a
 * delivery receipt with the receipt esm_class and the usual `id:… stat:…` text.
 */
import { concatenationHeader, DATA_CODING, inGsmAlphabet, segments } from '../../domain/sms_text.js';
import type { SmppMessage } from '../../domain/rows.js';

/** esm_class: a delivery receipt (SMPP 3.4 5.2.12). */
const ESM_RECEIPT = 0x04;
/** message_state of a delivered message (SMPP 3.4 5.2.28). */
const DELIVERED = 2;

/** An address as SMPP carries it: an E.164 number without its `+`, international (TON 1, NPI 1); a short code national. */
export function smppAddress(address: string): { addr: string; ton: number; npi: number } {
  if (address.startsWith('+')) return { addr: address.slice(1), ton: 1, npi: 1 };
  return { addr: address, ton: /^\d{3,8}$/.test(address) ? 3 : 0, npi: 0 };
}

/** A time in a receipt's `YYMMDDhhmm` form. */
const receiptTime = (iso: string): string => iso.slice(2, 16).replace(/[-T:]/g, '');

/** A receipt's state: its `stat:` word and message_state (SMPP 3.4 Appendix B, 5.2.28). */
export const RECEIPT_STATES = {
  DELIVRD: { stat: 'DELIVRD', state: 2, dlvrd: '001' },
  ENROUTE: { stat: 'ENROUTE', state: 1, dlvrd: '000' },
} as const;

/**
 * The text of a receipt for message `id`, submitted at `submitted` and in its state at `done` (ISO):
 * the first 20 characters of the message, each outside the GSM alphabet written `?` (a receipt goes in
 * data_coding 0, and a character that has no septet must not become a NUL that cuts a C string).
 */
export function receiptText(
  id: string,
  submitted: string,
  done: string,
  text: string,
  state: keyof typeof RECEIPT_STATES = 'DELIVRD',
): string {
  const { stat, dlvrd } = RECEIPT_STATES[state];
  const shown = [...text.slice(0, 20)].map((c) => (inGsmAlphabet(c) ? c : '?')).join('');
  return `id:${id} sub:001 dlvrd:${dlvrd} submit date:${receiptTime(submitted)} done date:${receiptTime(done)} stat:${stat} err:000 text:${shown}`;
}

/** The PDUs' fields for `message`; `reference` tells the parts of one message apart from another's. */
export function deliverPdus(message: SmppMessage, reference: number): Record<string, unknown>[] {
  const source = smppAddress(message.source_addr);
  const destination = smppAddress(message.destination_addr);
  const common = {
    service_type: '',
    source_addr_ton: source.ton,
    source_addr_npi: source.npi,
    source_addr: source.addr,
    dest_addr_ton: destination.ton,
    dest_addr_npi: destination.npi,
    destination_addr: destination.addr,
  };
  if (message.receipt_for) {
    return [
      {
        ...common,
        esm_class: ESM_RECEIPT,
        data_coding: 0,
        short_message: message.text,
        receipted_message_id: message.receipt_for,
        message_state: message.receipt_state ?? DELIVERED,
      },
    ];
  }
  const { coding, parts } = segments(message.text);
  const data_coding = DATA_CODING[coding];
  if (parts.length === 1) return [{ ...common, esm_class: 0, data_coding, short_message: message.text }];
  return parts.map((part, i) => ({
    ...common,
    esm_class: 0,
    data_coding,
    short_message: { udh: concatenationHeader(reference, parts.length, i + 1), message: part },
  }));
}

/** A deliver_sm's fields as the delivery log shows them: a part's user data header in hex beside its text. */
export function pduShown(fields: Record<string, unknown>): Record<string, unknown> {
  const message = fields.short_message;
  if (message && typeof message === 'object' && 'udh' in message) {
    const { udh, message: text } = message as { udh: Buffer; message: string };
    return { ...fields, short_message: text, udh: udh.toString('hex') };
  }
  return fields;
}
