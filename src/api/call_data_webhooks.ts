/**
 * The call data webhook (spec: Resources > Call data webhook): one per account, where billed CDRs
 * are delivered. `auth_secret` is shown in the create answer only.
 */
import { targetViolations } from '../domain/deliveries.js';
import { DomainError, assertNoViolations } from '../domain/errors.js';
import type { HandlerMap } from '../handling/handler.js';
import { storePageOf } from '../handling/pagination.js';
import type { CallDataWebhookRow, Draft } from '../domain/rows.js';

const present = (row: CallDataWebhookRow) => ({ data: row.data, type: 'call_data_webhook' as const });

export const callDataWebhookHandlers = {
  createCallDataWebhook: async ({ store, clock, ids, body }) => {
    if ((await store.callDataWebhooks.count()) > 0) {
      throw new DomainError('limit_reached', [
        { detail: 'An account has at most one call data webhook; update or delete the existing one.' },
      ]);
    }
    const { auth_secret, ...fields } = body.data;
    const now = clock.iso();
    const data: Draft<CallDataWebhookRow['data']> = {
      id: ids.ulid(),
      name: null,
      protocol: 'NONE',
      notes: null,
      data: null,
      auth_method: 'NONE',
      auth_identity: null,
      auth_name: null,
      custom_headers: [],
      custom_query_params: [],
      ...(structuredClone(fields) as Draft<typeof fields>),
      inserted_at: now,
      updated_at: now,
    };
    assertNoViolations(targetViolations('/data', data, true));
    const row = await store.callDataWebhooks.insert({
      auth_secret: auth_secret ?? null,
      data,
    });
    return { status: 201, body: { ...present(row), data: { ...row.data, auth_secret: row.auth_secret } } };
  },

  listCallDataWebhooks: async (ctx) => storePageOf(ctx, (w) => ctx.store.callDataWebhooks.page(w), present),

  getCallDataWebhook: async ({ store, params }) => ({
    status: 200,
    body: present(await store.callDataWebhooks.found(params.id, 'call_data_webhook')),
  }),

  updateCallDataWebhook: async ({ store, clock, params, body }) => {
    const row = await store.callDataWebhooks.found(params.id, 'call_data_webhook');
    const { auth_secret, ...fields } = body.data;
    const updated = await store.callDataWebhooks.update(row, (d) => {
      Object.assign(d.data, structuredClone(fields), { updated_at: clock.iso() });
      if (auth_secret !== undefined) d.auth_secret = auth_secret;
      assertNoViolations(targetViolations('/data', d.data, true));
    });
    return { status: 200, body: present(updated) };
  },

  deleteCallDataWebhook: async ({ store, params }) => {
    const row = await store.callDataWebhooks.found(params.id, 'call_data_webhook');
    await store.callDataWebhooks.remove(row);
    return { status: 200, body: present(row) };
  },
} satisfies HandlerMap;
