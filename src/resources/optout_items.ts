/**
 * Opt-out items (spec: Resources > Opt-out item): a remote number that must not be messaged from
 * one of the account's numbers. Items made here are manual: no `keyword`, `associations.sms` null.
 */
import { toE164 } from '../domain/addresses.js';
import { assertFound, invalidField } from '../http/errors.js';
import type { HandlerMap } from '../http/handler.js';
import { pageOf } from '../http/pagination.js';
import type { OptoutItemRow } from '../store/rows.js';
import type { Store } from '../store/store.js';
import { findNumber } from './numbers.js';

export function presentOptout(store: Store, row: OptoutItemRow) {
  const number = store.numbers.getAnyAccount(row.number_id);
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
  createOptoutItem: async ({ deps, principal, params, body }) => {
    const { store, clock, ids } = deps;
    const number = findNumber(store, principal, params.number_id);
    const { host_number, remote_number } = body.data;
    if (host_number !== undefined && toE164(host_number) !== number.data.number) {
      throw invalidField('/data/host_number', `host_number must be the number of the path, ${number.data.number}.`);
    }
    const remote = toE164(remote_number);
    if (store.optoutItems.byPair(principal.accountId, number.data.id, remote)) {
      throw invalidField('/data/remote_number', `${remote} has already opted out of ${number.data.number}.`);
    }
    const now = clock.iso();
    const row = store.optoutItems.insert({
      account_id: principal.accountId,
      number_id: number.data.id,
      sms_id: null,
      data: { id: ids.uuid(), host_number: number.data.number, remote_number: remote, keyword: null, inserted_at: now, updated_at: now },
    });
    await store.commit();
    return { status: 201, body: presentOptout(store, row) };
  },

  listNumberOptoutItems: ({ deps, principal, params, query, meta }) => {
    const number = findNumber(deps.store, principal, params.number_id);
    return pageOf({ query, meta, principal },
      deps.store.optoutItems.ofNumber(principal.accountId, number.data.id), (row) => presentOptout(deps.store, row), { scope: number.data.id });
  },

  listOptoutItems: (ctx) =>
    pageOf(ctx, ctx.deps.store.optoutItems.list(ctx.principal.accountId), (row) => presentOptout(ctx.deps.store, row)),

  getOptoutItem: ({ deps, principal, params }) => ({
    status: 200,
    body: presentOptout(deps.store, assertFound(deps.store.optoutItems.get(principal.accountId, params.id), 'number_optout_item', params.id)),
  }),

  deleteOptoutItem: async ({ deps, principal, params }) => {
    const { store } = deps;
    const row = assertFound(store.optoutItems.get(principal.accountId, params.id), 'number_optout_item', params.id);
    store.optoutItems.remove(row);
    await store.commit();
    return { status: 200, body: presentOptout(store, row) };
  },
} satisfies HandlerMap;
