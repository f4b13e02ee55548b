/**
 * What the provider sends out and how (spec: Events, Call data webhook; interface.md section 8): an
 * event to every enabled subscription of the account with its topic, a billed CDR to the account's
 * call data webhook, each as an HTTP POST of its JSON with the destination's auth, headers and query
 * parameters, or an SFTP upload; and the auth methods' credentials. The outbox (src/engine/outbox.ts)
 * keeps and sends what these make.
 */
import type { OutboundSpec } from '../domain/rows.js';
import type { EffectsOf } from '../engine/outbox.js';

interface Destination {
  protocol: string;
  data?: string | null;
  auth_method?: string;
  auth_identity?: string | null;
  custom_headers?: readonly { key: string; value: string }[];
  custom_query_params?: readonly { key: string; value: string }[];
}

/** The SFTP login for an auth method (spec: BASIC logs in with identity and secret; BEARER with a placeholder user). */
export function sftpLogin(
  method: string | undefined,
  identity: string | null | undefined,
  secret: string | null | undefined,
): { username: string; password: string } {
  if (method === 'BASIC') return { username: identity ?? '', password: secret ?? '' };
  return { username: 'dipswitch', password: method === 'BEARER' ? (secret ?? '') : '' };
}

/**
 * What an auth method lacks to be sent: BASIC an identity or a secret, BEARER and HMAC_SHA256 a
 * secret. The record was accepted without them (the spec requires neither); the delivery goes out
 * without credentials, the receiver answers as it will, and the delivery log says why.
 */
export function authGap(
  method: string | undefined,
  identity: string | null | undefined,
  secret: string | null | undefined,
): string | null {
  const lacks = [
    method === 'BASIC' && !identity ? 'identity' : null,
    method && method !== 'NONE' && !secret ? 'secret' : null,
  ].filter(Boolean);
  return lacks.length ? `auth method ${method} has no ${lacks.join(' and no ')}: sent without credentials` : null;
}

/** The Authorization header for NONE, BASIC or BEARER auth (spec: Call data webhook, Event subscription); none when incomplete. */
export function authHeader(
  method: string | undefined,
  identity: string | null | undefined,
  secret: string | null | undefined,
): Record<string, string> {
  if (authGap(method, identity, secret)) return {};
  if (method === 'BASIC')
    return { authorization: `Basic ${Buffer.from(`${identity ?? ''}:${secret ?? ''}`).toString('base64')}` };
  if (method === 'BEARER') return { authorization: `Bearer ${secret ?? ''}` };
  return {};
}

/** The URL with the custom query parameters added. */
export function withQuery(url: string, params: readonly { key: string; value: string }[] = []): string {
  const u = new URL(url);
  for (const p of params) u.searchParams.append(p.key, p.value);
  return u.toString();
}

/** An HTTP POST of the JSON with the destination's auth, headers and query parameters; or its SFTP upload as `filename`. */
function target(d: Destination, secret: string | null, filename: string, body: string): OutboundSpec {
  if (d.protocol === 'SFTP') {
    return {
      method: 'SFTP',
      url: d.data ?? '',
      headers: {},
      body,
      sftp: { ...sftpLogin(d.auth_method, d.auth_identity, secret), filename },
    };
  }
  let url = d.data ?? '';
  try {
    url = withQuery(url, d.custom_query_params);
  } catch {
    // not a URL: the attempt fails and says so
  }
  return {
    method: 'POST',
    url,
    headers: {
      'content-type': 'application/json',
      ...Object.fromEntries((d.custom_headers ?? []).map((h) => [h.key.toLowerCase(), h.value])),
      ...authHeader(d.auth_method, d.auth_identity, secret),
    },
    body,
    note: authGap(d.auth_method, d.auth_identity, secret),
  };
}

/** The provider's events and CDRs over an account's outbox (given to the runner by the composition root). */
export const providerEffects: EffectsOf = ({ store, clock, ids, deliver }) => ({
  async publish(topic, kind, resource) {
    const subs = (await store.eventSubscriptions.list()).filter(
      (s) =>
        s.data.enabled &&
        (s.data.topics ?? []).includes(topic) &&
        !!s.data.data &&
        (s.data.protocol === 'HTTP' || s.data.protocol === 'SFTP'),
    );
    if (!subs.length) return;
    const event = { type: 'event', data: { id: ids.ulid(), topic, kind, occurred_at: clock.iso(), resource } };
    const body = JSON.stringify(event);
    for (const s of subs)
      await deliver('event', target(s.data, s.auth_secret, `event-${event.data.id}.json`, body), { retry: true });
  },
  async cdr(kind, fields) {
    // an account has at most one (call_data_webhooks.ts)
    const hook = (await store.callDataWebhooks.list())[0];
    if (!hook || (hook.data.protocol !== 'HTTP' && hook.data.protocol !== 'SFTP') || !hook.data.data) return false;
    const cdr = { type: 'cdr', data: { id: ids.ulid(), kind, billed_at: clock.iso(), ...fields } };
    await deliver('cdr', target(hook.data, hook.auth_secret, `cdr-${cdr.data.id}.json`, JSON.stringify(cdr)), {
      retry: true,
    });
    return true;
  },
});
