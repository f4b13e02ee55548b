/**
 * The call data webhook (spec: Resources > Call data webhook): one per account, where billed CDRs
 * are delivered. `auth_secret` is shown in the create answer only.
 */
import { targetViolations } from '../domain/deliveries.js';
import { ApiError, assertFound, assertNoViolations } from '../http/errors.js';
import type { HandlerMap } from '../http/handler.js';
import { pageOf } from '../http/pagination.js';
import type { CallDataWebhookRow } from '../store/rows.js';

const present = (row: CallDataWebhookRow) => ({ data: row.data, type: 'call_data_webhook' as const });

export const callDataWebhookHandlers = {
  createCallDataWebhook: async ({ deps, principal, body }) => {
    const { store, clock, ids } = deps;
    if (store.callDataWebhooks.list(principal.accountId).length > 0) {
      throw new ApiError('limit_reached', [{ detail: 'An account has at most one call data webhook; update or delete the existing one.' }]);
    }
    const { auth_secret, ...fields } = body.data;
    const now = clock.iso();
    const data: CallDataWebhookRow['data'] = {
      id: ids.ulid(), notes: null, data: null, auth_method: 'NONE', auth_identity: null, auth_name: null,
      custom_headers: [], custom_query_params: [], ...fields, inserted_at: now, updated_at: now,
    };
    assertNoViolations(targetViolations('/data', data, auth_secret, true));
    const row = store.callDataWebhooks.insert({ account_id: principal.accountId, auth_secret: auth_secret ?? null, data });
    await store.commit();
    return { status: 201, body: { ...present(row), data: { ...row.data, auth_secret: row.auth_secret } } };
  },

  listCallDataWebhooks: (ctx) =>
    pageOf(ctx, ctx.deps.store.callDataWebhooks.list(ctx.principal.accountId), present),

  getCallDataWebhook: ({ deps, principal, params }) => ({
    status: 200,
    body: present(assertFound(deps.store.callDataWebhooks.get(principal.accountId, params.id), 'call_data_webhook', params.id)),
  }),

  updateCallDataWebhook: async ({ deps, principal, params, body }) => {
    const { store, clock } = deps;
    const row = assertFound(store.callDataWebhooks.get(principal.accountId, params.id), 'call_data_webhook', params.id);
    const { auth_secret, ...fields } = body.data;
    const data = { ...row.data, ...fields };
    const secret = auth_secret === undefined ? row.auth_secret : auth_secret;
    assertNoViolations(targetViolations('/data', data, secret, true));
    Object.assign(row, { data: { ...data, updated_at: clock.iso() }, auth_secret: secret });
    store.callDataWebhooks.touch(row);
    await store.commit();
    return { status: 200, body: present(row) };
  },

  deleteCallDataWebhook: async ({ deps, principal, params }) => {
    const { store } = deps;
    const row = assertFound(store.callDataWebhooks.get(principal.accountId, params.id), 'call_data_webhook', params.id);
    store.callDataWebhooks.remove(row);
    await store.commit();
    return { status: 200, body: present(row) };
  },
} satisfies HandlerMap;
