/**
 * MM4 (3GPP TS 23.140 section 8, over SMTP): an inbound MMS forwarded to an MMS relay as an
 * `MM4_forward.REQ` message: its `X-Mms-*` headers, `From` and `To` as `+number/TYPE=PLMN`, the text
 * and the media as the parts of a multipart/related body. Sent with nodemailer to the host and port
 * of `mms_data`: `mm4://` plain, `mm4+s://` STARTTLS when offered, `mm4s://` implicit TLS; SMTP AUTH
 * with `mms_identity` and `mms_secret` when both are set. As with SFTP's host keys, a relay's
 * certificate is not verified: the relays a simulator reaches are a client team's test servers.
 */
import type { Mm4Message } from '../../domain/rows.js';
import { isIP } from 'node:net';
import { CRLF, MMS_DOMAIN, multipart, relatedParts, rfc5322Date, type Medium } from './mime.js';
import type { OutboundPolicy } from './outbound.js';

/** An address as MM4 writes it (TS 23.140 8.1.4.1): the number and its type. */
export const plmn = (number: string): string => `${number}/TYPE=PLMN`;

/** A host as an address's domain: a name as it is, an IP address as an address literal (RFC 5321 4.1.3). */
export const domainOf = (host: string): string =>
  isIP(host) === 4 ? `[${host}]` : isIP(host) === 6 ? `[IPv6:${host}]` : host;

/** The relay a URL names: host, port (25, or 465 for implicit TLS) and how TLS is used. */
export function mm4Relay(url: string): { host: string; port: number; tls: 'none' | 'starttls' | 'implicit' } {
  const u = new URL(url);
  const scheme = u.protocol.replace(/:$/, '');
  const tls = scheme === 'mm4s' ? 'implicit' : scheme === 'mm4+s' ? 'starttls' : scheme === 'mm4' ? 'none' : null;
  if (!tls || !u.hostname) throw new Error(`${url} is not an MM4 URL (mm4://, mm4+s:// or mm4s:// with a host)`);
  return { host: u.hostname, port: Number(u.port || (tls === 'implicit' ? 465 : 25)), tls };
}

/**
 * The whole message, as sent: headers, then the text and each medium as parts. The sender's side is
 * the provider's (MMS_DOMAIN: originator system, From, Message-ID); the recipient's the relay's
 * (`To` at its host). `Sender` is left out, as it would only repeat `From`; `mms_name` is From's
 * display name.
 */
export function mm4Raw(m: Mm4Message, media: Medium[]): Buffer {
  const boundary = `=_dipswitch_${m.message_id}`;
  const relay = domainOf(mm4Relay(m.url).host);
  const from = `${plmn(m.from)}@${MMS_DOMAIN}`;
  const name = m.display_name?.replace(/[\\"\r\n]/g, '');
  const headers = [
    'X-Mms-3GPP-MMS-Version: 6.10.0',
    'X-Mms-Message-Type: MM4_forward.REQ',
    `X-Mms-Transaction-ID: ${m.message_id}`,
    `X-Mms-Message-ID: <${m.message_id}@${MMS_DOMAIN}>`,
    'X-Mms-Ack-Request: No',
    `X-Mms-Originator-System: system-user@${MMS_DOMAIN}`,
    `Message-ID: <${m.message_id}@${MMS_DOMAIN}>`,
    `Date: ${rfc5322Date(m.date)}`,
    `From: ${name ? `"${name}" <${from}>` : from}`,
    `To: ${plmn(m.to)}@${relay}`,
    'MIME-Version: 1.0',
    `Content-Type: multipart/related; boundary="${boundary}"; type="text/plain"`,
  ];
  const body = multipart(boundary, relatedParts(m.message_id, m.text, media));
  return Buffer.from(headers.join(CRLF) + CRLF + CRLF + body, 'utf8');
}

/** The SMTP envelope and greeting a message is sent with, as the delivery log shows them. */
export function mm4Envelope(m: Mm4Message): Record<string, string> {
  const host = mm4Relay(m.url).host;
  return {
    ehlo: MMS_DOMAIN,
    'mail from': `${plmn(m.from)}@${MMS_DOMAIN}`,
    'rcpt to': `${plmn(m.to)}@${domainOf(host)}`,
  };
}

/** Sends the message to its relay; answers the relay's last reply. An SMTP refusal throws. */
export async function mm4Send(m: Mm4Message, raw: Buffer, timeoutMs: number, policy: OutboundPolicy): Promise<string> {
  const relay = mm4Relay(m.url);
  const address = await policy.resolve(relay.host);
  // loaded at the first MM4 delivery, as ssh2 at the first SFTP one: most servers never send one
  const { createTransport } = await import('nodemailer');
  const transport = createTransport({
    host: address,
    port: relay.port,
    secure: relay.tls === 'implicit',
    ignoreTLS: relay.tls === 'none',
    auth: m.username && m.password ? { user: m.username, pass: m.password } : undefined,
    // EHLO with the provider's domain; no server name for an IP address (TLS's SNI takes names only)
    name: MMS_DOMAIN,
    connectionTimeout: timeoutMs,
    greetingTimeout: timeoutMs,
    socketTimeout: timeoutMs,
    tls: { rejectUnauthorized: false, ...(isIP(relay.host) ? {} : { servername: relay.host }) },
  });
  try {
    const info = await transport.sendMail({
      envelope: { from: mm4Envelope(m)['mail from'] ?? '', to: [mm4Envelope(m)['rcpt to'] ?? ''] },
      raw,
    });
    return String(info.response ?? '');
  } finally {
    transport.close();
  }
}
