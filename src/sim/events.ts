/**
 * Platform events (spec: Events; interface.md section 8): published to every enabled subscription
 * of the account whose topics include the event's, and CDRs to the account's call data webhook.
 */
import type { Deps } from '../deps.js';
import type { components } from '../generated/api.js';
import { authHeader, sftpLogin, withQuery } from './deliveries.js';
import type { OutboundRequest } from './http_client.js';

export type Topic = components['schemas']['event_topic'];

export interface ResourceRef {
  type: string;
  data: unknown;
}

/** Delivers `kind` (e.g. `order.completed`) of `topic` about `resource`; answers how many subscriptions got it. */
export async function publish(deps: Deps, accountId: string, topic: Topic, kind: string, resource: ResourceRef): Promise<number> {
  const subs = deps.store.eventSubscriptions.list(accountId, (s) => s.data.enabled && (s.data.topics ?? []).includes(topic) && !!s.data.data
    && (s.data.protocol === 'HTTP' || s.data.protocol === 'SFTP'));
  const event = { type: 'event', data: { id: deps.ids.ulid(), topic, kind, occurred_at: deps.clock.iso(), resource } };
  const body = JSON.stringify(event);
  await Promise.all(subs.map((s) => deps.deliveries.deliver(deps, accountId, 'event',
    target(s.data, s.auth_secret, `event-${event.data.id}.json`, body), { retry: true })));
  return subs.length;
}

interface Destination {
  protocol: string;
  data?: string | null;
  auth_method?: string;
  auth_identity?: string | null;
  custom_headers?: { key: string; value: string }[];
  custom_query_params?: { key: string; value: string }[];
}

/** An HTTP POST of the JSON with the destination's auth, headers and query parameters; or its SFTP upload as `filename`. */
function target(d: Destination, secret: string | null, filename: string, body: string): OutboundRequest {
  if (d.protocol === 'SFTP') {
    return { method: 'SFTP', url: d.data ?? '', headers: {}, body, sftp: { ...sftpLogin(d.auth_method, d.auth_identity, secret), filename } };
  }
  return {
    method: 'POST',
    url: withQuery(d.data ?? '', d.custom_query_params),
    headers: {
      'content-type': 'application/json',
      ...Object.fromEntries((d.custom_headers ?? []).map((h) => [h.key.toLowerCase(), h.value])),
      ...authHeader(d.auth_method, d.auth_identity, secret),
    },
    body,
  };
}

export type CdrKind = 'SMS' | 'MMS' | 'LRN' | 'CNAM' | 'MCL';

/** Sends one billed CDR to the account's call data webhook, over HTTP or SFTP; false when it has none. */
export async function sendCdr(deps: Deps, accountId: string, kind: CdrKind, fields: { from: string; to: string } & Record<string, unknown>): Promise<boolean> {
  const hook = deps.store.callDataWebhooks.list(accountId)[0];
  if (!hook || (hook.data.protocol !== 'HTTP' && hook.data.protocol !== 'SFTP') || !hook.data.data) return false;
  const cdr = { type: 'cdr', data: { id: deps.ids.ulid(), kind, billed_at: deps.clock.iso(), ...fields } };
  await deps.deliveries.deliver(deps, accountId, 'cdr', target(hook.data, hook.auth_secret, `cdr-${cdr.data.id}.json`, JSON.stringify(cdr)), { retry: true });
  return true;
}
