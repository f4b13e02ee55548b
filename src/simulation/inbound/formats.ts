/**
 * What a switch's endpoint receives for an inbound message, in the switch's message format
 * (interface.md section 8; the README's "Message formats").
 */
import { createHmac } from 'node:crypto';
import type { OutboundSpec, SwitchRow } from '../../store/rows.js';
import { authGap, authHeader } from '../../engine/outbox.js';

/** The HTTP request a switch's endpoint receives for an inbound message (interface.md section 8). */
export function switchRequest(sw: SwitchRow, kind: 'sms' | 'mms', message: Record<string, unknown>): OutboundSpec {
  const s = sw.data;
  const format = kind === 'sms' ? s.sms_message_format : s.mms_message_format;
  const url = (kind === 'sms' ? s.sms_data : s.mms_data) ?? '';
  const form = format === 'SMSFMT_POST_1_0' || format === 'SMSFMT_POST_2_0';
  const body = form
    ? new URLSearchParams(
        Object.entries(message).flatMap(([k, v]) =>
          Array.isArray(v) ? v.map((x) => [k, String(x)]) : [[k, String(v)]],
        ),
      ).toString()
    : JSON.stringify({ type: kind, data: message });
  const method = kind === 'sms' ? s.sms_auth_method : s.mms_auth_method;
  const identity = kind === 'sms' ? s.sms_identity : s.mms_identity;
  const secret = kind === 'sms' ? sw.secrets.sms_secret : sw.secrets.mms_secret;
  const auth =
    method === 'HMAC_SHA256' && secret
      ? {
          authorization: `SERVICE0-HMAC-SHA256 ${createHmac('sha256', secret ?? '')
            .update(body)
            .digest('hex')}`,
        }
      : authHeader(method, identity, secret);
  return {
    method: 'POST',
    url,
    headers: { 'content-type': form ? 'application/x-www-form-urlencoded' : 'application/json', ...auth },
    body,
    note: authGap(method, identity, secret)?.replace('auth method', `${kind}_auth_method`) ?? null,
  };
}
