/**
 * How a text travels as SMS (3GPP TS 23.038 and 23.040): in the GSM 7-bit default alphabet when
 * every character is in it (its extension table's characters count twice), else in UCS-2; one
 * message up to 160 septets or 70 UCS-2 characters, else concatenated parts of 153 or 67 under a
 * user data header.
 */

/** The GSM 7-bit default alphabet (TS 23.038 6.2.1). */
const GSM_BASIC = new Set(
  '@£$¥èéùìòÇ\nØø\rÅåΔ_ΦΓΛΩΠΨΣΘΞÆæßÉ !"#¤%&\'()*+,-./0123456789:;<=>?¡ABCDEFGHIJKLMNOPQRSTUVWXYZÄÖÑÜ§¿abcdefghijklmnopqrstuvwxyzäöñüà',
);
/** Its extension table: each is sent as an escape and the character, two septets. */
const GSM_EXTENDED = new Set('^{}\\[~]|€\f');

export type Coding = 'GSM7' | 'UCS2';

/** SMPP's data_coding for each: 0 (the SMSC default alphabet, GSM 7-bit) and 8 (UCS-2). */
export const DATA_CODING: Record<Coding, number> = { GSM7: 0, UCS2: 8 };

/** At most this many parts to one message: the header's part count is one octet. */
export const MAX_PARTS = 255;

/** Whether a character has a septet of the GSM 7-bit alphabet (its extension table included). */
export const inGsmAlphabet = (c: string): boolean => GSM_BASIC.has(c) || GSM_EXTENDED.has(c);

export function codingOf(text: string): Coding {
  for (const c of text) if (!GSM_BASIC.has(c) && !GSM_EXTENDED.has(c)) return 'UCS2';
  return 'GSM7';
}

/** A character's size in its coding: septets for GSM 7-bit, UTF-16 code units for UCS-2. */
const sizeOf = (c: string, coding: Coding): number => (coding === 'UCS2' ? c.length : GSM_EXTENDED.has(c) ? 2 : 1);

/**
 * The text as the parts it is sent in: one part when it fits a single message, else parts that fit
 * a concatenated one (a character is never split, an escape never parted from its character).
 */
export function segments(text: string): { coding: Coding; parts: string[] } {
  const coding = codingOf(text);
  const [single, each] = coding === 'GSM7' ? [160, 153] : [70, 67];
  const chars = [...text];
  const total = chars.reduce((n, c) => n + sizeOf(c, coding), 0);
  if (total <= single) return { coding, parts: [text] };
  const parts: string[] = [];
  let part = '';
  let size = 0;
  for (const c of chars) {
    const n = sizeOf(c, coding);
    if (size + n > each) {
      parts.push(part);
      part = '';
      size = 0;
    }
    part += c;
    size += n;
  }
  if (part) parts.push(part);
  return { coding, parts: parts.slice(0, MAX_PARTS) };
}

/** The user data header of part `index` (from 1) of `total`: IEI 0 (8-bit reference), length 3. */
export const concatenationHeader = (reference: number, total: number, index: number): Buffer =>
  Buffer.from([0x05, 0x00, 0x03, reference & 0xff, total, index]);
