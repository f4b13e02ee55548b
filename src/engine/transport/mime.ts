/**
 * MIME bodies for messages that carry their media (docs/webhooks.md, "Message formats"): multipart/form-data
 * (MMSFMT_MULTIPART_1_0 and _2_0), an RFC 822 message (MMSFMT_RFC822_1_0) and MM4's
 * multipart/related. Parts are base64 in lines of 76; lines end CRLF.
 */
import type { ComposedMessage } from '../../domain/rows.js';
import { fetchBytes } from './http_client.js';
import type { OutboundPolicy } from './outbound.js';

export const CRLF = '\r\n';

export interface Medium {
  contentType: string;
  bytes: Buffer;
  name: string;
}

/**
 * The domain of the provider's side in every message address and id dipswitch writes (MM4's From,
 * envelope sender, originator system, Message-ID and Content-IDs; an RFC 822 body's): a `.test`
 * name, reserved by RFC 2606 and never a real host.
 */
export const MMS_DOMAIN = 'mms.dipswitch.test';

/** A header value without line breaks or quotes (a file name from a URL, say). */
const safe = (v: string): string => v.replace(/[\r\n"]/g, '');

/** An RFC 5322 date-time (section 3.3), in UTC as `+0000`: not the obsolete `GMT` zone. */
export function rfc5322Date(iso: string): string {
  return new Date(iso).toUTCString().replace(/ GMT$/, ' +0000');
}

/** A media type (RFC 2045 5.1) fit for a header, or application/octet-stream when a server gave none that is. */
export function mediaType(given: string): string {
  const token = '[A-Za-z0-9!#$&^_.+-]+';
  const valid = new RegExp(`^${token}/${token}(\\s*;\\s*${token}=(${token}|"[^"\\r\\n\\\\]*"))*$`);
  const trimmed = given.trim();
  return valid.test(trimmed) ? trimmed : 'application/octet-stream';
}

/** One part: its headers, a blank line, its body in base64. */
export function part(headers: string[], bytes: Buffer): string {
  const body = bytes.toString('base64').replace(/.{1,76}/g, (l) => l + CRLF);
  return [...headers, 'Content-Transfer-Encoding: base64', '', body].join(CRLF);
}

/** The parts between boundaries, and the closing one. */
export const multipart = (boundary: string, parts: string[]): string =>
  parts.map((p) => `--${boundary}${CRLF}${p}`).join('') + `--${boundary}--${CRLF}`;

/** The text and each medium as the parts of a multipart/related body. */
export function relatedParts(id: string, text: string, media: Medium[]): string[] {
  // a Content-ID is a msg-id (RFC 2045 7): a left part and a domain
  return [
    part(
      ['Content-Type: text/plain; charset=utf-8', `Content-ID: <text.${id}@${MMS_DOMAIN}>`],
      Buffer.from(text, 'utf8'),
    ),
    ...media.map((m, i) =>
      part(
        [
          `Content-Type: ${mediaType(m.contentType)}`,
          `Content-ID: <media${i}.${id}@${MMS_DOMAIN}>`,
          `Content-Location: ${safe(m.name)}`,
        ],
        m.bytes,
      ),
    ),
  ];
}

/** A form-data part, its body as it is (RFC 7578: no transfer encoding). */
const formPart = (disposition: string, contentType: string | null, bytes: Buffer): Buffer =>
  Buffer.concat([
    Buffer.from(`Content-Disposition: form-data; ${disposition}${CRLF}`),
    Buffer.from(contentType ? `Content-Type: ${contentType}${CRLF}` : ''),
    Buffer.from(CRLF),
    bytes,
    Buffer.from(CRLF),
  ]);

/** A multipart/form-data body of the parts. */
const formData = (boundary: string, parts: Buffer[]): Buffer =>
  Buffer.concat([
    ...parts.flatMap((p) => [Buffer.from(`--${boundary}${CRLF}`), p]),
    Buffer.from(`--${boundary}--${CRLF}`),
  ]);

/**
 * A composed message's body and content type, its media given: MULTIPART_1_0 is form-data with one
 * field per message field and a `media` file part per medium; MULTIPART_2_0 a `message` part (the
 * JSON delivery) and `media[]` file parts; RFC822_1_0 a whole e-mail message.
 */
export function composeBody(c: ComposedMessage, media: Medium[]): { contentType: string; body: Buffer } {
  const boundary = `dipswitch-${c.message.id}`;
  const m = c.message;
  if (c.format === 'MMSFMT_RFC822_1_0') {
    // addresses as MM4 writes them (mm4.ts), each with the provider's domain
    const headers = [
      `Message-ID: <${m.id}@${MMS_DOMAIN}>`,
      `Date: ${rfc5322Date(m.received_at)}`,
      `From: ${m.from}/TYPE=PLMN@${MMS_DOMAIN}`,
      `To: ${m.to}/TYPE=PLMN@${MMS_DOMAIN}`,
      'MIME-Version: 1.0',
      `Content-Type: multipart/related; boundary="${boundary}"; type="text/plain"`,
    ];
    const body = headers.join(CRLF) + CRLF + CRLF + multipart(boundary, relatedParts(m.id, m.text, media));
    return { contentType: 'message/rfc822', body: Buffer.from(body, 'utf8') };
  }
  const files = (name: string) =>
    media.map((x) => formPart(`name="${name}"; filename="${safe(x.name)}"`, mediaType(x.contentType), x.bytes));
  const parts =
    c.format === 'MMSFMT_MULTIPART_2_0'
      ? [
          formPart('name="message"', 'application/json', Buffer.from(JSON.stringify({ type: 'mms', data: m }))),
          ...files('media[]'),
        ]
      : [
          ...Object.entries(m).flatMap(([k, v]) =>
            (Array.isArray(v) ? v : [v]).map((x) => formPart(`name="${k}"`, null, Buffer.from(String(x)))),
          ),
          ...files('media'),
        ];
  return { contentType: `multipart/form-data; boundary=${boundary}`, body: formData(boundary, parts) };
}

/** The media of a message, fetched under the outbound policy (each at most MEDIA_BYTES). */
export async function fetchMedia(urls: readonly string[], timeoutMs: number, policy: OutboundPolicy) {
  const media: Medium[] = [];
  for (const url of urls) {
    const { contentType, bytes } = await fetchBytes(url, timeoutMs, policy);
    media.push({ contentType, bytes, name: new URL(url).pathname.split('/').pop() || 'medium' });
  }
  return media;
}
