/**
 * What a switch's endpoint receives for an inbound message, in the switch's message format
 * (interface.md section 8; docs/webhooks.md, "Message formats"). The formats without content are
 * rendered here; those that carry the media (multipart, RFC 822) are composed at each attempt,
 * once the media are fetched (src/engine/transport/mime.ts). HMAC_SHA256 signs the exact bytes sent.
 */
import { createHmac } from 'node:crypto';
import type { ComposedMessage, OutboundOf, SwitchRow } from '../../domain/rows.js';
import { authGap, authHeader } from '../outbound.js';

/** The fields of one inbound message, as every format carries them. */
type Message = Record<string, unknown>;

/**
 * Text as XML 1.0 carries it: markup characters escaped; CR written `&#13;`, so a parser's line-end
 * normalization (XML 1.0 2.11) keeps it; every character XML 1.0 cannot hold at all (2.2: the C0
 * controls but tab, LF and CR, U+FFFE, U+FFFF, a lone surrogate; the GSM page break U+000C among
 * them) written as U+FFFD, the replacement character.
 */
const escapeXml = (v: string): string =>
  v
    .replace(
      /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g,
      '\uFFFD',
    )
    .replace(
      /[<>&'"\r]/g,
      (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', "'": '&apos;', '"': '&quot;', '\r': '&#13;' })[c] ?? c,
    );

/** Form fields: lists repeat their key. */
const formOf = (fields: [string, unknown][]): string =>
  new URLSearchParams(
    fields.flatMap(([k, v]) => (Array.isArray(v) ? v.map((x) => [k, String(x)]) : [[k, String(v)]])),
  ).toString();

/** The body and content type of each format without content of its own. */
type Render = (kind: 'sms' | 'mms', m: Message) => { type: string; body: string };
const asJson: Render = (kind, m) => ({ type: 'application/json', body: JSON.stringify({ type: kind, data: m }) });
const RENDER: Record<string, Render> = {
  SMSFMT_JSON_1_0: asJson,
  MMSFMT_JSON_1_0: asJson,
  // the fields as they are
  SMSFMT_POST_1_0: (_kind, m) => ({ type: 'application/x-www-form-urlencoded', body: formOf(Object.entries(m)) }),
  // the JSON delivery's shape in form fields: type, then data[field]
  SMSFMT_POST_2_0: (kind, m) => ({
    type: 'application/x-www-form-urlencoded',
    body: formOf([['type', kind], ...Object.entries(m).map(([k, v]): [string, unknown] => [`data[${k}]`, v])]),
  }),
  MMSFMT_JSONAPI_1_0: (kind, m) => {
    const { id, ...attributes } = m;
    return { type: 'application/vnd.api+json', body: JSON.stringify({ data: { type: kind, id, attributes } }) };
  },
  MMSFMT_XML_1_0: (kind, m) => {
    const { id, media_urls, ...fields } = m;
    const inner = Object.entries(fields).map(([k, v]) => `<${k}>${escapeXml(String(v))}</${k}>`);
    const media = Array.isArray(media_urls) ? media_urls.map((u) => `<url>${escapeXml(String(u))}</url>`) : [];
    const body = `<?xml version="1.0" encoding="UTF-8"?>\n<message type="${kind}" id="${escapeXml(String(id))}">${inner.join('')}<media>${media.join('')}</media></message>\n`;
    return { type: 'application/xml', body };
  },
};

const COMPOSED = ['MMSFMT_MULTIPART_1_0', 'MMSFMT_MULTIPART_2_0', 'MMSFMT_RFC822_1_0'];

/** The HTTP request a switch's endpoint receives for an inbound message. */
export function switchRequest(sw: SwitchRow, kind: 'sms' | 'mms', message: Message): OutboundOf<'http'> {
  const s = sw.data;
  const given = kind === 'sms' ? s.sms_message_format : s.mms_message_format;
  const format = given ?? (kind === 'sms' ? 'SMSFMT_JSON_1_0' : 'MMSFMT_JSON_1_0');
  const url = (kind === 'sms' ? s.sms_data : s.mms_data) ?? '';
  const method = kind === 'sms' ? s.sms_auth_method : s.mms_auth_method;
  const identity = kind === 'sms' ? s.sms_identity : s.mms_identity;
  const secret = kind === 'sms' ? sw.secrets.sms_secret : sw.secrets.mms_secret;
  const hmac = method === 'HMAC_SHA256' && secret ? secret : null;
  const note = authGap(method, identity, secret)?.replace('auth method', `${kind}_auth_method`) ?? null;
  const auth = hmac ? {} : authHeader(method, identity, secret);
  if (COMPOSED.includes(format)) {
    const compose = { format, message, hmac_secret: hmac } as ComposedMessage;
    return {
      method: 'POST',
      url,
      headers: auth,
      body: `(${format}, composed with its media when sent)`,
      compose,
      format,
      note,
    };
  }
  const render = RENDER[format] ?? asJson;
  const { type, body } = render(kind, message);
  const signed = hmac
    ? { authorization: `SERVICE0-HMAC-SHA256 ${createHmac('sha256', hmac).update(body).digest('hex')}` }
    : auth;
  return { method: 'POST', url, headers: { 'content-type': type, ...signed }, body, format, note };
}

/** The file name's extension of a message uploaded in `format` (SFTP). */
export function extensionOf(format: string | undefined): string {
  if (format === 'MMSFMT_XML_1_0') return 'xml';
  if (format === 'MMSFMT_RFC822_1_0') return 'eml';
  if (format?.startsWith('MMSFMT_MULTIPART')) return 'multipart';
  return 'json';
}
