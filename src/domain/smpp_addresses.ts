/**
 * SMPP addresses as an SMSC reads them (SMPP 3.4 section 5.2.5, the type of number; 5.2.6, the
 * numbering plan): an ESME's default TON and NPI vary (most client libraries send TON 0, NPI 0 or
 * 1; Kannel's sendsms TON 2, NPI 1), and a real SMSC takes the account's own number however it is
 * written. dipswitch is a NANP provider, so a national number is a NANP one.
 *
 * | TON                    | address                              | read as                           |
 * | ---------------------- | ------------------------------------ | --------------------------------- |
 * | 1 international        | digits, a `+` allowed                | `+` and the digits (E.164)        |
 * | 2 national             | 10 digits, or 11 starting with 1     | `+1` and the 10 digits            |
 * | 0 unknown              | `+` and digits                       | E.164                             |
 * | 0 unknown              | 10 NANP digits, or 11 starting with 1 | `+1` and the 10 digits           |
 * | 0 unknown, 3 network   | 3 to 8 digits                        | a short code, as it is            |
 * | 5 alphanumeric         | any text                             | as it is                          |
 * | anything else          | digits                               | `+` and the digits                |
 */

/** SMPP 3.4's types of number. */
export const TON = { UNKNOWN: 0, INTERNATIONAL: 1, NATIONAL: 2, NETWORK: 3, ALPHANUMERIC: 5 } as const;

/** A NANP number of ten digits: an NPA and an exchange that start 2 to 9. */
const NANP_TEN = /^[2-9]\d{2}[2-9]\d{6}$/;

/** The address an ESME sent, as dipswitch writes numbers (E.164 with its `+`), or as it is when it is no number. */
export function numberOfAddress(address: unknown, ton: unknown): string {
  const text = String(address ?? '').trim();
  const type = Number(ton ?? 0);
  if (type === TON.ALPHANUMERIC) return text;
  const digits = text.replace(/^\+/, '');
  if (!/^\d+$/.test(digits)) return text;
  if (text.startsWith('+') || type === TON.INTERNATIONAL) return `+${digits}`;
  if (type === TON.NATIONAL || type === TON.UNKNOWN) {
    if (NANP_TEN.test(digits)) return `+1${digits}`;
    if (digits.length === 11 && digits.startsWith('1') && NANP_TEN.test(digits.slice(1))) return `+${digits}`;
  }
  if ((type === TON.UNKNOWN || type === TON.NETWORK) && digits.length >= 3 && digits.length <= 8) return digits;
  return `+${digits}`;
}

/**
 * The forms a message id can take in submit_sm_resp and receipts: a ULID (26 characters, the
 * default), or for an ESME configured for numeric ids (Kannel's `msg-id-type`) 16 hex digits or a
 * decimal number, each the ULID's random low 63 bits, so they fit a signed 64-bit integer.
 */
export type MessageIdForm = 'ulid' | 'hex' | 'decimal';

export const MESSAGE_ID_FORMS: readonly MessageIdForm[] = ['ulid', 'hex', 'decimal'];

const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

/** The message id of the form asked for, made from a fresh ULID. */
export function messageId(ulid: string, form: MessageIdForm = 'ulid'): string {
  if (form === 'ulid') return ulid;
  let value = 0n;
  for (const c of ulid.toUpperCase()) value = value * 32n + BigInt(Math.max(0, CROCKFORD.indexOf(c)));
  const low = value & ((1n << 63n) - 1n);
  return form === 'hex' ? low.toString(16).padStart(16, '0') : low.toString(10);
}
