/**
 * MM4 (3GPP TS 23.140 section 8, over SMTP): an inbound MMS forwarded to an MMS relay as an
 * `MM4_forward.REQ` message: its `X-Mms-*` headers, `From` and `To` as `+number/TYPE=PLMN`, the text
 * and the media as the parts of a multipart/related body. Sent with nodemailer to the host and port
 * of `mms_data`: `mm4://` plain, `mm4+s://` STARTTLS when offered, `mm4s://` implicit TLS; SMTP AUTH
 * with `mms_identity` and `mms_secret` when both are set. As with SFTP's host keys, a relay's
 * certificate is not verified: the relays a simulator reaches are a client team's test servers.
 */
import type { Mm4Message } from '../../domain/rows.js';
import { CRLF, multipart, relatedParts, type Medium } from './mime.js';
import type { OutboundPolicy } from './outbound.js';

/** An address as MM4 writes it (TS 23.140 8.1.4.1): the number and its type. */
export const plmn = (number: string): string => `${number}/TYPE=PLMN`;

/** The relay a URL names: host, port (25, or 465 for implicit TLS) and how TLS is used. */
export function mm4Relay(url: string): { host: string; port: number; tls: 'none' | 'starttls' | 'implicit' } {
  const u = new URL(url);
  const scheme = u.protocol.replace(/:$/, '');
  const tls = scheme === 'mm4s' ? 'implicit' : scheme === 'mm4+s' ? 'starttls' : scheme === 'mm4' ? 'none' : null;
  if (!tls || !u.hostname) throw new Error(`${url} is not an MM4 URL (mm4://, mm4+s:// or mm4s:// with a host)`);
  return { host: u.hostname, port: Number(u.port || (tls === 'implicit' ? 465 : 25)), tls };
}

/** The whole message, as sent: headers, then the text and each medium as parts. */
export function mm4Raw(m: Mm4Message, media: Medium[]): Buffer {
  const boundary = `=_dipswitch_${m.message_id}`;
  const domain = mm4Relay(m.url).host;
  const headers = [
    'X-Mms-3GPP-MMS-Version: 6.10.0',
    'X-Mms-Message-Type: MM4_forward.REQ',
    `X-Mms-Transaction-ID: ${m.message_id}`,
    `X-Mms-Message-ID: <${m.message_id}@dipswitch>`,
    'X-Mms-Ack-Request: No',
    `X-Mms-Originator-System: system-user@${domain}`,
    `Message-ID: <${m.message_id}@dipswitch>`,
    `Date: ${new Date(m.date).toUTCString()}`,
    `From: ${plmn(m.from)}`,
    `To: ${plmn(m.to)}`,
    `Sender: ${plmn(m.from)}`,
    'MIME-Version: 1.0',
    `Content-Type: multipart/related; boundary="${boundary}"; type="text/plain"`,
  ];
  const body = multipart(boundary, relatedParts(m.text, media));
  return Buffer.from(headers.join(CRLF) + CRLF + CRLF + body, 'utf8');
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
    name: 'dipswitch',
    connectionTimeout: timeoutMs,
    greetingTimeout: timeoutMs,
    socketTimeout: timeoutMs,
    tls: { rejectUnauthorized: false, servername: relay.host },
  });
  try {
    const info = await transport.sendMail({
      envelope: { from: `${plmn(m.from)}@${relay.host}`, to: [`${plmn(m.to)}@${relay.host}`] },
      raw,
    });
    return String(info.response ?? '');
  } finally {
    transport.close();
  }
}
