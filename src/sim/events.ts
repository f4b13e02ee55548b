/**
 * Platform events (spec: Events; interface.md section 8): published to every enabled subscription
 * of the account whose topics include the event's, and CDRs to the account's call data webhook.
 */
import type { Deps } from '../deps.js';
import type { components } from '../generated/api.js';
import { authHeader, withQuery } from './deliveries.js';

export type Topic = components['schemas']['event_topic'];

export interface ResourceRef {
  type: string;
  data: unknown;
}

/** Delivers `kind` (e.g. `order.completed`) of `topic` about `resource`; answers how many subscriptions got it. */
export async function publish(deps: Deps, accountId: string, topic: Topic, kind: string, resource: ResourceRef): Promise<number> {
  const subs = deps.store.eventSubscriptions.list(accountId, (s) => s.data.enabled && (s.data.topics ?? []).includes(topic) && s.data.protocol === 'HTTP' && !!s.data.data);
  const event = { type: 'event', data: { id: deps.ids.ulid(), topic, kind, occurred_at: deps.clock.iso(), resource } };
  const body = JSON.stringify(event);
  await Promise.all(subs.map((s) => deps.deliveries.deliver(deps, accountId, 'event', {
    method: 'POST',
    url: withQuery(s.data.data as string, s.data.custom_query_params),
    headers: {
      'content-type': 'application/json',
      ...Object.fromEntries((s.data.custom_headers ?? []).map((h) => [h.key.toLowerCase(), h.value])),
      ...authHeader(s.data.auth_method, s.data.auth_identity, s.auth_secret),
    },
    body,
  }, { retry: true })));
  return subs.length;
}

export type CdrKind = 'SMS' | 'MMS' | 'LRN' | 'CNAM' | 'MCL';

/** Sends one billed CDR to the account's call data webhook, if it has an HTTP one. */
export async function sendCdr(deps: Deps, accountId: string, kind: CdrKind, fields: { from: string; to: string } & Record<string, unknown>): Promise<boolean> {
  const hook = deps.store.callDataWebhooks.list(accountId)[0];
  if (!hook || hook.data.protocol !== 'HTTP' || !hook.data.data) return false;
  const cdr = { type: 'cdr', data: { id: deps.ids.ulid(), kind, billed_at: deps.clock.iso(), ...fields } };
  await deps.deliveries.deliver(deps, accountId, 'cdr', {
    method: 'POST',
    url: withQuery(hook.data.data, hook.data.custom_query_params),
    headers: {
      'content-type': 'application/json',
      ...Object.fromEntries((hook.data.custom_headers ?? []).map((h) => [h.key.toLowerCase(), h.value])),
      ...authHeader(hook.data.auth_method, hook.data.auth_identity, hook.auth_secret),
    },
    body: JSON.stringify(cdr),
  }, { retry: true });
  return true;
}
