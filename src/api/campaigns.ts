/**
 * CSP campaigns and their sharing (spec: Resources > CSP campaign; Endpoints > CSP campaigns).
 * An account sees its own campaigns (`shared` NO read as OWNED) and those shared with it, as PARTNER.
 */
import { sharedAs } from '../domain/campaigns.js';
import { DomainError, assertFound, inUse, invalidParameter, notFound } from '../domain/errors.js';
import type { HandlerMap } from '../handling/handler.js';
import { pageOf } from '../handling/pagination.js';
import type { CampaignRow } from '../domain/rows.js';
import type { AccountView } from '../store/store.js';

/** The campaign as the account sees it. */
function present(row: CampaignRow, accountId: string) {
  return {
    data: { ...row.data, shared: sharedAs(row, accountId) },
    type: 'csp_campaign' as const,
    associations: {
      brand: row.brand,
      shared_resource_group: row.shared_resource_group_id ? { id: row.shared_resource_group_id } : null,
    },
  };
}

async function visibleCampaign(store: AccountView, id: string): Promise<CampaignRow> {
  return assertFound(await store.campaigns.visibleById(id), 'csp_campaign', id);
}

/** Only the owner shares or unshares a campaign. */
const ownCampaign = async (store: AccountView, id: string): Promise<CampaignRow> =>
  await store.campaigns.found(id, 'csp_campaign');

export const campaignHandlers = {
  listCampaigns: async (ctx) =>
    pageOf(ctx, await ctx.store.campaigns.visible(), (row) => present(row, ctx.accountId), {
      unsorted: true,
    }),

  getCampaign: async ({ store, params }) => ({
    status: 200,
    body: present(await visibleCampaign(store, params.campaign_id), store.accountId),
  }),

  shareCampaignWithAccount: async ({ store, clock, params }) => {
    const row = await ownCampaign(store, params.campaign_id);
    const target = { data: { id: params.account_id } };
    if (!(await store.accounts.exists(target.data.id))) throw notFound('account', params.account_id);
    if (target.data.id === store.accountId)
      throw invalidParameter('account_id', 'A campaign cannot be shared with its own account.');
    const shared = row.shared_with.includes(target.data.id)
      ? row
      : await store.campaigns.update(row, (d) => {
          d.shared_with.push(target.data.id);
          d.data.updated_at = clock.iso();
        });
    return { status: 200, body: present(shared, store.accountId) };
  },

  shareCampaignWithGroup: async ({ store, clock, params }) => {
    const row = await ownCampaign(store, params.campaign_id);
    const group = assertFound(
      await store.sharedResourceGroups.get(params.shared_resource_group_id),
      'shared_resource_group',
      params.shared_resource_group_id,
    );
    if (row.shared_resource_group_id && row.shared_resource_group_id !== group.data.id) {
      throw new DomainError('conflict.changing_shared_resource_group', [
        {
          detail: `The campaign is shared through group ${row.shared_resource_group_id}; remove it before sharing through another.`,
          params: {},
        },
      ]);
    }
    const shared =
      row.shared_resource_group_id === group.data.id
        ? row
        : await store.campaigns.update(row, (d) => {
            d.shared_resource_group_id = group.data.id;
            d.data.updated_at = clock.iso();
          });
    return { status: 200, body: present(shared, store.accountId) };
  },

  removeCampaignGroup: async ({ store, clock, params }) => {
    const row = await ownCampaign(store, params.campaign_id);
    if (!row.shared_resource_group_id) throw notFound('shared_resource_group', `of campaign ${row.data.id}`);
    const numbers = (await store.numbers.usingCampaign(row.data.id)).length;
    if (numbers) throw inUse(`${numbers} number(s) use the campaign; its shared resource group cannot be removed.`);
    const updated = await store.campaigns.update(row, (d) => {
      d.shared_resource_group_id = null;
      d.data.updated_at = clock.iso();
    });
    return { status: 200, body: present(updated, store.accountId) };
  },
} satisfies HandlerMap;
