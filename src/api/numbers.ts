/**
 * Numbers (inferred: interface.md section 6): the account's DIDs, found by id or by the number
 * itself, and `PATCH` to bind a switch, an API key and an auto response.
 */
import { toE164 } from '../domain/addresses.js';
import { assertFound, invalidField } from '../domain/errors.js';
import type { HandlerMap } from '../handling/handler.js';
import { storePageOf } from '../handling/pagination.js';
import type { NumberRow } from '../domain/rows.js';
import type { AccountView } from '../store/store.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const PHONE = /^\+?[1-9][0-9]{1,14}$/;

/** The account's number named by `number_id`: its id, or the number E.164 with or without the plus. */
export async function findNumber(store: AccountView, numberId: string): Promise<NumberRow> {
  const row = UUID.test(numberId)
    ? await store.numbers.get(numberId.toLowerCase())
    : PHONE.test(numberId)
      ? await store.numbers.byNumber(toE164(numberId))
      : undefined;
  return assertFound(row, 'number', numberId);
}

const ref = (id: string | null) => (id ? { id } : null);

export async function presentNumber(store: AccountView, row: NumberRow) {
  const campaign = row.campaign_id ? await store.campaigns.visibleById(row.campaign_id) : undefined;
  return {
    data: row.data,
    type: 'did' as const,
    associations: {
      switch: ref(row.switch_id),
      api_key: ref(row.api_key_id),
      auto_response: ref(row.auto_response_id),
      campaign: campaign ? { id: campaign.data.id, tcr_campaign_id: campaign.data.tcr_campaign_id ?? null } : null,
    },
  };
}

export const numberHandlers = {
  listNumbers: async (ctx) =>
    storePageOf(
      ctx,
      (w) => ctx.store.numbers.page(w),
      (row) => presentNumber(ctx.store, row),
    ),

  getNumber: async ({ store, params }) => ({
    status: 200,
    body: await presentNumber(store, await findNumber(store, params.number_id)),
  }),

  updateNumber: async ({ store, clock, outbox, params, body }) => {
    const row = await findNumber(store, params.number_id);
    const { switch_id, api_key_id, auto_response_id, ...fields } = body.data;
    const bound = async (
      field: string,
      id: string | null | undefined,
      lookup: (id: string) => Promise<unknown>,
      what: string,
    ) => {
      if (id && !(await lookup(id))) throw invalidField(`/data/${field}`, `No ${what} ${id} in this account.`);
    };
    await bound('switch_id', switch_id, (id) => store.switches.get(id), 'switch');
    await bound('api_key_id', api_key_id, (id) => store.apiKeys.get(id), 'API key');
    await bound('auto_response_id', auto_response_id, (id) => store.autoResponses.get(id), 'auto response');
    const updated = await store.numbers.update(row, (d) => {
      if (switch_id !== undefined) d.switch_id = switch_id;
      if (api_key_id !== undefined) d.api_key_id = api_key_id;
      if (auto_response_id !== undefined) d.auto_response_id = auto_response_id;
      Object.assign(d.data, fields);
      d.data.updated_at = clock.iso();
    });
    await outbox.publish('DID', 'did.updated', { type: 'did', data: updated.data });
    return { status: 200, body: await presentNumber(store, updated) };
  },
} satisfies HandlerMap;
