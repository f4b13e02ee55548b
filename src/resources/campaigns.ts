/**
 * CSP campaigns and their sharing (spec: Resources > CSP campaign; Endpoints > CSP campaigns).
 * An account sees its own campaigns (`shared` NO read as OWNED) and those shared with it, as PARTNER.
 */
import type { Principal } from '../http/auth.js';
import { ApiError, assertFound, inUse, invalidParameter, notFound } from '../http/errors.js';
import type { HandlerMap } from '../http/handler.js';
import { pageOf } from '../http/pagination.js';
import type { CampaignRow } from '../store/rows.js';
import type { Store } from '../store/store.js';

const visibleTo = (accountId: string) => (c: CampaignRow) => c.account_id === accountId || c.shared_with.includes(accountId);

/** The campaign as the account sees it. */
function present(row: CampaignRow, accountId: string) {
  const shared = row.account_id === accountId ? (row.data.shared === 'PARTNER' ? 'PARTNER' : 'OWNED') : 'PARTNER';
  return {
    data: { ...row.data, shared } as CampaignRow['data'],
    type: 'csp_campaign' as const,
    associations: {
      brand: row.brand,
      shared_resource_group: row.shared_resource_group_id ? { id: row.shared_resource_group_id } : null,
    },
  };
}

function visibleCampaign(store: Store, principal: Principal, id: string): CampaignRow {
  const row = store.campaigns.getAnyAccount(id);
  return assertFound(row && visibleTo(principal.accountId)(row) ? row : undefined, 'csp_campaign', id);
}

/** Only the owner shares or unshares a campaign. */
const ownCampaign = (store: Store, principal: Principal, id: string): CampaignRow =>
  assertFound(store.campaigns.get(principal.accountId, id), 'csp_campaign', id);

export const campaignHandlers = {
  listCampaigns: (ctx) =>
    pageOf(ctx, ctx.deps.store.campaigns.filter(visibleTo(ctx.principal.accountId)), (row) => present(row, ctx.principal.accountId), { unsorted: true }),

  getCampaign: ({ deps, principal, params }) => ({
    status: 200,
    body: present(visibleCampaign(deps.store, principal, params.campaign_id), principal.accountId),
  }),

  shareCampaignWithAccount: async ({ deps, principal, params }) => {
    const { store, clock } = deps;
    const row = ownCampaign(store, principal, params.campaign_id);
    const target = store.accounts.get(params.account_id);
    if (!target) throw notFound('account', params.account_id);
    if (target.id === principal.accountId) throw invalidParameter('account_id', 'A campaign cannot be shared with its own account.');
    if (!row.shared_with.includes(target.id)) {
      row.shared_with.push(target.id);
      row.data.updated_at = clock.iso();
      store.campaigns.touch(row);
      await store.commit();
    }
    return { status: 200, body: present(row, principal.accountId) };
  },

  shareCampaignWithGroup: async ({ deps, principal, params }) => {
    const { store, clock } = deps;
    const row = ownCampaign(store, principal, params.campaign_id);
    const group = assertFound(store.sharedResourceGroups.get(principal.accountId, params.shared_resource_group_id), 'shared_resource_group', params.shared_resource_group_id);
    if (row.shared_resource_group_id && row.shared_resource_group_id !== group.data.id) {
      throw new ApiError('conflict.changing_shared_resource_group', [{
        detail: `The campaign is shared through group ${row.shared_resource_group_id}; remove it before sharing through another.`,
        params: {},
      }]);
    }
    if (row.shared_resource_group_id !== group.data.id) {
      row.shared_resource_group_id = group.data.id;
      row.data.updated_at = clock.iso();
      store.campaigns.touch(row);
      await store.commit();
    }
    return { status: 200, body: present(row, principal.accountId) };
  },

  removeCampaignGroup: async ({ deps, principal, params }) => {
    const { store, clock } = deps;
    const row = ownCampaign(store, principal, params.campaign_id);
    if (!row.shared_resource_group_id) throw notFound('shared_resource_group', `of campaign ${row.data.id}`);
    const numbers = store.numbers.filter((n) => n.campaign_id === row.data.id).length;
    if (numbers) throw inUse(`${numbers} number(s) use the campaign; its shared resource group cannot be removed.`);
    row.shared_resource_group_id = null;
    row.data.updated_at = clock.iso();
    store.campaigns.touch(row);
    await store.commit();
    return { status: 200, body: present(row, principal.accountId) };
  },
} satisfies HandlerMap;
