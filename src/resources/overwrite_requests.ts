/**
 * OSR overwrite requests (spec: Resources > OSR overwrite request): listed newest first, reviewed
 * once. A review that takes effect answers 200 with the record; reviewing again is a no-op, 204.
 */
import { assertFound } from '../http/errors.js';
import type { HandlerMap } from '../http/handler.js';
import { pageOf } from '../http/pagination.js';
import { publish } from '../sim/events.js';
import type { OverwriteRequestRow } from '../store/rows.js';
import type { Store } from '../store/store.js';

type Review = 'APPROVED' | 'REJECTED' | 'FORCE_DELETED';

/** The status a review leaves the request in. */
const STATUS_AFTER: Record<Review, OverwriteRequestRow['data']['status']> = {
  APPROVED: 'APPROVED',
  REJECTED: 'REJECTED',
  FORCE_DELETED: 'DELETED',
};

export function presentOverwrite(store: Store, row: OverwriteRequestRow) {
  const number = store.numbers.getAnyAccount(row.number_id);
  const user = row.reviewed_user_id ? store.users.getAnyAccount(row.reviewed_user_id) : undefined;
  return {
    data: row.data,
    type: 'osr_overwrite_request' as const,
    associations: {
      did: { id: row.number_id, number: number?.data.number ?? row.data.tn },
      new_nnid_entry: { service_provider: row.service_provider },
      reviewed_user: user ? { id: user.data.id, first_name: user.data.first_name, last_name: user.data.last_name } : null,
    },
  };
}

export const overwriteRequestHandlers = {
  listOverwriteRequests: (ctx) =>
    pageOf(ctx, ctx.deps.store.overwriteRequests.list(ctx.principal.accountId), (row) => presentOverwrite(ctx.deps.store, row), { newestFirst: true }),

  getOverwriteRequest: ({ deps, principal, params }) => ({
    status: 200,
    body: presentOverwrite(deps.store, assertFound(deps.store.overwriteRequests.get(principal.accountId, params.id), 'osr_overwrite_request', params.id)),
  }),

  reviewOverwriteRequest: async ({ deps, principal, params, body }) => {
    const { store, clock } = deps;
    const row = assertFound(store.overwriteRequests.get(principal.accountId, params.overwrite_request_id), 'osr_overwrite_request', params.overwrite_request_id);
    if (row.data.review_status !== 'NONE' || row.data.status !== 'NEW') return { status: 204, body: undefined };
    const review = body.data.review_status;
    Object.assign(row.data, { review_status: review, status: STATUS_AFTER[review], updated_at: clock.iso() });
    row.reviewed_user_id = principal.user?.data.id ?? null;
    store.overwriteRequests.touch(row);
    await store.commit();
    await publish(deps, principal.accountId, 'OSR', 'osr.reviewed', { type: 'osr_overwrite_request', data: row.data });
    return { status: 200, body: presentOverwrite(store, row) };
  },
} satisfies HandlerMap;
