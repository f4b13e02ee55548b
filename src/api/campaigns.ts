/**
 * CSP campaigns and their sharing (spec: Resources > CSP campaign; Endpoints > CSP campaigns).
 * An account sees its own campaigns (`shared` NO read as OWNED) and those shared with it, as PARTNER.
 */
import { campaignVisibleTo, sharedAs } from '../domain/campaigns.js';
import type { Principal } from '../handling/principal.js';
import { DomainError, assertFound, inUse, invalidParameter, notFound } from '../domain/errors.js';
import type { HandlerMap } from '../handling/handler.js';
import { pageOf } from '../handling/pagination.js';
import type { CampaignRow } from '../domain/rows.js';
import type { UnitOfWork } from '../store/store.js';

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

async function visibleCampaign(store: UnitOfWork, principal: Principal, id: string): Promise<CampaignRow> {
  const row = await store.campaigns.getAnyAccount(id);
  return assertFound(row && campaignVisibleTo(row, principal.accountId) ? row : undefined, 'csp_campaign', id);
}

/** Only the owner shares or unshares a campaign. */
const ownCampaign = async (store: UnitOfWork, principal: Principal, id: string): Promise<CampaignRow> =>
  assertFound(await store.campaigns.get(principal.accountId, id), 'csp_campaign', id);

export const campaignHandlers = {
  listCampaigns: async (ctx) =>
    pageOf(
      ctx,
      await ctx.store.campaigns.visibleTo(ctx.principal.accountId),
      (row) => present(row, ctx.principal.accountId),
      { unsorted: true },
    ),

  getCampaign: async ({ store, principal, params }) => ({
    status: 200,
    body: present(await visibleCampaign(store, principal, params.campaign_id), principal.accountId),
  }),

  shareCampaignWithAccount: async ({ store, clock, principal, params }) => {
    const row = await ownCampaign(store, principal, params.campaign_id);
    const target = await store.accounts.getAnyAccount(params.account_id);
    if (!target) throw notFound('account', params.account_id);
    if (target.data.id === principal.accountId)
      throw invalidParameter('account_id', 'A campaign cannot be shared with its own account.');
    const shared = row.shared_with.includes(target.data.id)
      ? row
      : await store.campaigns.update(row, (d) => {
          d.shared_with.push(target.data.id);
          d.data.updated_at = clock.iso();
        });
    return { status: 200, body: present(shared, principal.accountId) };
  },

  shareCampaignWithGroup: async ({ store, clock, principal, params }) => {
    const row = await ownCampaign(store, principal, params.campaign_id);
    const group = assertFound(
      await store.sharedResourceGroups.get(principal.accountId, params.shared_resource_group_id),
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
    return { status: 200, body: present(shared, principal.accountId) };
  },

  removeCampaignGroup: async ({ store, clock, principal, params }) => {
    const row = await ownCampaign(store, principal, params.campaign_id);
    if (!row.shared_resource_group_id) throw notFound('shared_resource_group', `of campaign ${row.data.id}`);
    const numbers = (await store.numbers.usingCampaign(row.data.id)).length;
    if (numbers) throw inUse(`${numbers} number(s) use the campaign; its shared resource group cannot be removed.`);
    const updated = await store.campaigns.update(row, (d) => {
      d.shared_resource_group_id = null;
      d.data.updated_at = clock.iso();
    });
    return { status: 200, body: present(updated, principal.accountId) };
  },
} satisfies HandlerMap;
