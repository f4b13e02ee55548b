/**
 * Event subscriptions (spec: Resources > Event subscription; Events). SMTP and EMAIL are planned
 * and unavailable, so they are refused; `auth_secret` is never returned.
 */
import { targetViolations } from '../domain/deliveries.js';
import type { Violation } from '../domain/switches.js';
import { assertNoViolations } from '../domain/errors.js';
import type { HandlerMap } from '../handling/handler.js';
import { storePageOf } from '../handling/pagination.js';
import type { Draft, EventSubscriptionRow } from '../domain/rows.js';

type Subscription = EventSubscriptionRow['data'];

const present = (row: EventSubscriptionRow) => ({ data: row.data, type: 'event_subscription' as const });

function subscriptionViolations(s: Subscription): Violation[] {
  if (s.protocol === 'SMTP' || s.protocol === 'EMAIL') {
    return [
      {
        pointer: '/data/protocol',
        detail: `protocol ${s.protocol} is planned and currently unavailable; use HTTP, SFTP or NONE.`,
      },
    ];
  }
  const out: Violation[] = [];
  if (s.recipient) out.push({ pointer: '/data/recipient', detail: 'recipient is only for protocol SMTP.' });
  return [...out, ...targetViolations('/data', s)];
}

export const eventSubscriptionHandlers = {
  createEventSubscription: async ({ store, clock, ids, body }) => {
    const { auth_secret, ...fields } = body.data;
    const now = clock.iso();
    const data: Draft<Subscription> = {
      id: ids.uuid(),
      name: null,
      protocol: 'NONE',
      notes: null,
      enabled: true,
      data: null,
      recipient: null,
      auth_method: 'NONE',
      auth_identity: null,
      auth_name: null,
      custom_headers: [],
      custom_query_params: [],
      started_at: now,
      expired_at: null,
      ...(structuredClone(fields) as Draft<typeof fields>),
      inserted_at: now,
      updated_at: now,
    };
    assertNoViolations(subscriptionViolations(data));
    const row = await store.eventSubscriptions.insert({
      auth_secret: auth_secret ?? null,
      data,
    });
    return { status: 201, body: present(row) };
  },

  listEventSubscriptions: async (ctx) => storePageOf(ctx, (w) => ctx.store.eventSubscriptions.page(w), present),

  getEventSubscription: async ({ store, params }) => ({
    status: 200,
    body: present(await store.eventSubscriptions.found(params.id, 'event_subscription')),
  }),

  updateEventSubscription: async ({ store, clock, params, body }) => {
    const row = await store.eventSubscriptions.found(params.id, 'event_subscription');
    const { auth_secret, ...fields } = body.data;
    const updated = await store.eventSubscriptions.update(row, (d) => {
      Object.assign(d.data, structuredClone(fields), { updated_at: clock.iso() });
      if (auth_secret !== undefined) d.auth_secret = auth_secret;
      assertNoViolations(subscriptionViolations(d.data));
    });
    return { status: 200, body: present(updated) };
  },

  deleteEventSubscription: async ({ store, params }) => {
    const row = await store.eventSubscriptions.found(params.id, 'event_subscription');
    await store.eventSubscriptions.remove(row);
    return { status: 200, body: present(row) };
  },
} satisfies HandlerMap;
