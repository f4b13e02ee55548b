/**
 * Event subscriptions (spec: Resources > Event subscription; Events). SMTP and EMAIL are planned
 * and unavailable, so they are refused; `auth_secret` is never returned.
 */
import { targetViolations } from '../domain/deliveries.js';
import type { Violation } from '../domain/switches.js';
import { assertFound, assertNoViolations } from '../http/errors.js';
import type { HandlerMap } from '../http/handler.js';
import { pageOf } from '../http/pagination.js';
import type { EventSubscriptionRow } from '../store/rows.js';

type Subscription = EventSubscriptionRow['data'];

const present = (row: EventSubscriptionRow) => ({ data: row.data, type: 'event_subscription' as const });

function subscriptionViolations(s: Subscription, secret: string | null | undefined): Violation[] {
  if (s.protocol === 'SMTP' || s.protocol === 'EMAIL') {
    return [{ pointer: '/data/protocol', detail: `protocol ${s.protocol} is planned and currently unavailable; use HTTP, SFTP or NONE.` }];
  }
  const out: Violation[] = [];
  if (s.recipient) out.push({ pointer: '/data/recipient', detail: 'recipient is only for protocol SMTP.' });
  return [...out, ...targetViolations('/data', s, secret)];
}

export const eventSubscriptionHandlers = {
  createEventSubscription: async ({ deps, principal, body }) => {
    const { store, clock, ids } = deps;
    const { auth_secret, ...fields } = body.data;
    const now = clock.iso();
    const data: Subscription = {
      id: ids.uuid(), name: '', notes: null, enabled: true, data: null, recipient: null,
      auth_method: 'NONE', auth_identity: null, auth_name: null, custom_headers: [], custom_query_params: [],
      started_at: now, expired_at: null, ...fields, inserted_at: now, updated_at: now,
    };
    assertNoViolations(subscriptionViolations(data, auth_secret));
    const row = store.eventSubscriptions.insert({ account_id: principal.accountId, auth_secret: auth_secret ?? null, data });
    await store.commit();
    return { status: 201, body: present(row) };
  },

  listEventSubscriptions: (ctx) =>
    pageOf(ctx, ctx.deps.store.eventSubscriptions.list(ctx.principal.accountId), present),

  getEventSubscription: ({ deps, principal, params }) => ({
    status: 200,
    body: present(assertFound(deps.store.eventSubscriptions.get(principal.accountId, params.id), 'event_subscription', params.id)),
  }),

  updateEventSubscription: async ({ deps, principal, params, body }) => {
    const { store, clock } = deps;
    const row = assertFound(store.eventSubscriptions.get(principal.accountId, params.id), 'event_subscription', params.id);
    const { auth_secret, ...fields } = body.data;
    const data = { ...row.data, ...fields };
    const secret = auth_secret === undefined ? row.auth_secret : auth_secret;
    assertNoViolations(subscriptionViolations(data, secret));
    Object.assign(row, { data: { ...data, updated_at: clock.iso() }, auth_secret: secret });
    store.eventSubscriptions.touch(row);
    await store.commit();
    return { status: 200, body: present(row) };
  },

  deleteEventSubscription: async ({ deps, principal, params }) => {
    const { store } = deps;
    const row = assertFound(store.eventSubscriptions.get(principal.accountId, params.id), 'event_subscription', params.id);
    store.eventSubscriptions.remove(row);
    await store.commit();
    return { status: 200, body: present(row) };
  },
} satisfies HandlerMap;
