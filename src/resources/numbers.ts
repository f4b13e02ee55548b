/**
 * Numbers (inferred: interface.md section 6): the account's DIDs, found by id or by the number
 * itself, and `PATCH` to bind a switch, an API key and an auto response.
 */
import { toE164 } from '../domain/addresses.js';
import type { Principal } from '../http/auth.js';
import { assertFound, invalidField } from '../http/errors.js';
import type { HandlerMap } from '../http/handler.js';
import { pageOf } from '../http/pagination.js';
import { publish } from '../sim/events.js';
import type { NumberRow } from '../store/rows.js';
import type { Store } from '../store/store.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const PHONE = /^\+?[1-9][0-9]{1,14}$/;

/** The account's number named by `number_id`: its id, or the number E.164 with or without the plus. */
export function findNumber(store: Store, principal: Principal, numberId: string): NumberRow {
  const row = UUID.test(numberId)
    ? store.numbers.get(principal.accountId, numberId.toLowerCase())
    : PHONE.test(numberId) ? store.numbers.byNumber(principal.accountId, toE164(numberId)) : undefined;
  return assertFound(row, 'number', numberId);
}

const ref = (id: string | null) => (id ? { id } : null);

export function presentNumber(store: Store, row: NumberRow) {
  const campaign = row.campaign_id ? store.campaigns.getAnyAccount(row.campaign_id) : undefined;
  return {
    data: row.data,
    type: 'number' as const,
    associations: {
      switch: ref(row.switch_id),
      api_key: ref(row.api_key_id),
      auto_response: ref(row.auto_response_id),
      campaign: campaign ? { id: campaign.data.id, tcr_campaign_id: campaign.data.tcr_campaign_id ?? null } : null,
    },
  };
}

export const numberHandlers = {
  listNumbers: (ctx) =>
    pageOf(ctx, ctx.deps.store.numbers.list(ctx.principal.accountId), (row) => presentNumber(ctx.deps.store, row)),

  getNumber: ({ deps, principal, params }) => ({
    status: 200,
    body: presentNumber(deps.store, findNumber(deps.store, principal, params.number_id)),
  }),

  updateNumber: async ({ deps, principal, params, body }) => {
    const { store, clock } = deps;
    const row = findNumber(store, principal, params.number_id);
    const { switch_id, api_key_id, auto_response_id } = body.data;
    const bind = <T>(field: string, id: string | null | undefined, lookup: (id: string) => T | undefined, what: string) => {
      if (id && !lookup(id)) throw invalidField(`/data/${field}`, `No ${what} ${id} in this account.`);
    };
    bind('switch_id', switch_id, (id) => store.switches.get(principal.accountId, id), 'switch');
    bind('api_key_id', api_key_id, (id) => store.apiKeys.get(principal.accountId, id), 'API key');
    bind('auto_response_id', auto_response_id, (id) => store.autoResponses.get(principal.accountId, id), 'auto response');
    if (switch_id !== undefined) row.switch_id = switch_id;
    if (api_key_id !== undefined) row.api_key_id = api_key_id;
    if (auto_response_id !== undefined) row.auto_response_id = auto_response_id;
    row.data.updated_at = clock.iso();
    store.numbers.touch(row);
    await store.commit();
    await publish(deps, principal.accountId, 'DID', 'did.updated', { type: 'number', data: row.data });
    return { status: 200, body: presentNumber(store, row) };
  },
} satisfies HandlerMap;
