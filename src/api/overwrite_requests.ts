/**
 * OSR overwrite requests (spec: Resources > OSR overwrite request): listed newest first, reviewed
 * once. A review that takes effect answers 200 with the record; reviewing again is a no-op, 204.
 */
import { assertFound } from '../domain/errors.js';
import type { HandlerMap } from '../handling/handler.js';
import { storePageOf } from '../handling/pagination.js';
import type { OverwriteRequestRow } from '../domain/rows.js';
import type { AccountView } from '../store/store.js';

type Review = 'APPROVED' | 'REJECTED' | 'FORCE_DELETED';

/** The status a review leaves the request in. */
const STATUS_AFTER: Record<Review, OverwriteRequestRow['data']['status']> = {
  APPROVED: 'APPROVED',
  REJECTED: 'REJECTED',
  FORCE_DELETED: 'DELETED',
};

export async function presentOverwrite(store: AccountView, row: OverwriteRequestRow) {
  const number = await store.numbers.get(row.number_id);
  const user = row.reviewed_user_id ? await store.users.get(row.reviewed_user_id) : undefined;
  return {
    data: row.data,
    type: 'osr_overwrite_request' as const,
    associations: {
      did: { id: row.number_id, number: number?.data.number ?? row.data.tn },
      new_nnid_entry: { service_provider: row.service_provider },
      reviewed_user: user
        ? { id: user.data.id, first_name: user.data.first_name, last_name: user.data.last_name }
        : null,
    },
  };
}

export const overwriteRequestHandlers = {
  listOverwriteRequests: async (ctx) =>
    storePageOf(
      ctx,
      (w) => ctx.store.overwriteRequests.page(w),
      (row) => presentOverwrite(ctx.store, row),
      { newestFirst: true },
    ),

  getOverwriteRequest: async ({ store, params }) => ({
    status: 200,
    body: await presentOverwrite(store, await store.overwriteRequests.found(params.id, 'osr_overwrite_request')),
  }),

  reviewOverwriteRequest: async ({ store, clock, outbox, principal, params, body }) => {
    const row = assertFound(
      await store.overwriteRequests.get(params.overwrite_request_id),
      'osr_overwrite_request',
      params.overwrite_request_id,
    );
    if (row.data.review_status !== 'NONE' || row.data.status !== 'NEW') return { status: 204, body: undefined };
    const review = body.data.review_status;
    const updated = await store.overwriteRequests.update(row, (d) => {
      Object.assign(d.data, { review_status: review, status: STATUS_AFTER[review], updated_at: clock.iso() });
      d.reviewed_user_id = principal.user?.data.id ?? null;
    });
    await outbox.publish('OSR', 'osr.reviewed', { type: 'osr_overwrite_request', data: updated.data });
    return { status: 200, body: await presentOverwrite(store, updated) };
  },
} satisfies HandlerMap;
