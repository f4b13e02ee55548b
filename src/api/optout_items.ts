/**
 * Opt-out items (spec: Resources > Opt-out item): a remote number that must not be messaged from
 * one of the account's numbers. Items made here are manual: no `keyword`, `associations.sms` null.
 */
import { toE164 } from '../domain/addresses.js';
import { invalidField } from '../domain/errors.js';
import type { HandlerMap } from '../handling/handler.js';
import { pageOf, storePageOf } from '../handling/pagination.js';
import type { OptoutItemRow } from '../domain/rows.js';
import type { AccountView } from '../store/store.js';
import { findNumber } from './numbers.js';

export async function presentOptout(store: AccountView, row: OptoutItemRow) {
  const number = await store.numbers.get(row.number_id);
  return {
    data: row.data,
    type: 'number_optout_item' as const,
    associations: {
      host_did: { id: row.number_id, number: number?.data.number ?? row.data.host_number },
      sms: row.sms_id ? { id: row.sms_id } : null,
    },
  };
}

export const optoutItemHandlers = {
  createOptoutItem: async ({ store, clock, ids, params, body }) => {
    const number = await findNumber(store, params.number_id);
    const { host_number, remote_number } = body.data;
    if (host_number !== undefined && toE164(host_number) !== number.data.number) {
      throw invalidField('/data/host_number', `host_number must be the number of the path, ${number.data.number}.`);
    }
    const remote = toE164(remote_number);
    if (await store.optoutItems.byPair(number.data.id, remote)) {
      throw invalidField('/data/remote_number', `${remote} has already opted out of ${number.data.number}.`);
    }
    const now = clock.iso();
    const row = await store.optoutItems.insert({
      number_id: number.data.id,
      sms_id: null,
      data: {
        id: ids.uuid(),
        host_number: number.data.number,
        remote_number: remote,
        keyword: null,
        inserted_at: now,
        updated_at: now,
      },
    });
    return { status: 201, body: await presentOptout(store, row) };
  },

  listNumberOptoutItems: async ({ store, principal, params, query, meta }) => {
    const number = await findNumber(store, params.number_id);
    return pageOf(
      { query, meta, principal },
      await store.optoutItems.ofNumber(number.data.id),
      (row) => presentOptout(store, row),
      { scope: number.data.id },
    );
  },

  listOptoutItems: async (ctx) =>
    storePageOf(
      ctx,
      (w) => ctx.store.optoutItems.page(w),
      (row) => presentOptout(ctx.store, row),
    ),

  getOptoutItem: async ({ store, params }) => ({
    status: 200,
    body: await presentOptout(store, await store.optoutItems.found(params.id, 'number_optout_item')),
  }),

  deleteOptoutItem: async ({ store, params }) => {
    const row = await store.optoutItems.found(params.id, 'number_optout_item');
    await store.optoutItems.remove(row);
    return { status: 200, body: await presentOptout(store, row) };
  },
} satisfies HandlerMap;
