/**
 * Who sees a campaign (spec: Resources > CSP campaign): the account that owns it, and the
 * accounts it is shared with, which see it as `shared: PARTNER`.
 */
import type { CampaignRow } from './rows.js';

export const campaignVisibleTo = (campaign: CampaignRow, accountId: string): boolean =>
  campaign.account_id === accountId || campaign.shared_with.includes(accountId);

/** `shared` as the account reads it: OWNED (or PARTNER, if the owner shares it so) for the owner, PARTNER for the others. */
export function sharedAs(campaign: CampaignRow, accountId: string): 'OWNED' | 'PARTNER' {
  return campaign.account_id === accountId ? (campaign.data.shared === 'PARTNER' ? 'PARTNER' : 'OWNED') : 'PARTNER';
}
