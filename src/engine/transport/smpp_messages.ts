/**
 * The deliver_sm PDUs of a message for an SMPP bind (docs/protocols.md, "SMPP"): GSM 7-bit (data_coding 0) or
 * UCS-2 (8) chosen by the text, a long text in concatenated parts under a user data header, and a
 * delivery receipt with the receipt esm_class and the usual `id:… stat:…` text.
 */
import { concatenationHeader, DATA_CODING, segments } from '../../domain/sms_text.js';
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

/** The text of a receipt for message `id`, delivered at `at` (ISO). */
export function receiptText(id: string, at: string, text: string): string {
  const when = receiptTime(at);
  return `id:${id} sub:001 dlvrd:001 submit date:${when} done date:${when} stat:DELIVRD err:000 text:${text.slice(0, 20)}`;
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
        message_state: DELIVERED,
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
