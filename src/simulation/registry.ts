/**
 * The registry requests' effects (issue 15): REGISTER_BRAND makes a brand, VET_BRAND vets it,
 * REGISTER_CAMPAIGN makes a campaign of the account under a brand; each starts PENDING and turns
 * ACTIVE on the account's clock (REGISTRY_REVIEW_MS later), as the registry's review would;
 * UNREGISTER_BRAND and UNREGISTER_CAMPAIGN end them. Ids are registry-shaped (B/C and six
 * characters). CSP_BRAND and CSP_CAMPAIGN events carry the records.
 */
import type { components } from '../generated/api.js';
import type { BrandRow, CampaignRow, RequestRow, StepRow } from '../domain/rows.js';
import { RequestFailure } from './request_failure.js';
import type { EventKind } from '../engine/outbox.js';
import type { Work } from '../engine/work.js';

/** How long the registry takes to review a brand or campaign. */
export const REGISTRY_REVIEW_MS = 3600_000;

type S = components['schemas'];
type RegistryRequest = Extract<
  RequestRow['data'],
  { type: 'REGISTER_BRAND' | 'VET_BRAND' | 'UNREGISTER_BRAND' | 'REGISTER_CAMPAIGN' | 'UNREGISTER_CAMPAIGN' }
>;

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';
const registryId = (work: Work, prefix: string) =>
  prefix + Array.from({ length: 6 }, () => ALPHABET[Math.floor(work.random.float() * ALPHABET.length)]).join('');

async function brandOf(work: Work, tcr: string): Promise<BrandRow> {
  const brand = await work.brands.byTcr(tcr);
  if (!brand || brand.data.tcr_status === 'UNREGISTERED')
    throw new RequestFailure('BRAND_NOT_FOUND', `No registered brand ${tcr} in the account.`);
  return brand;
}

const brandEvent = (work: Work, kind: EventKind, b: BrandRow) =>
  work.outbox.publish('CSP_BRAND', kind, { type: 'csp_brand', data: b.data });
const campaignEvent = (work: Work, kind: EventKind, c: CampaignRow) =>
  work.outbox.publish('CSP_CAMPAIGN', kind, { type: 'csp_campaign', data: c.data });

type Of<T extends RegistryRequest['type']> = Extract<RegistryRequest, { type: T }>;
/** One registry request's effect on the account, by type. */
type Apply<T extends RegistryRequest['type']> = (work: Work, r: Of<T>) => Promise<void>;

const registerBrand: Apply<'REGISTER_BRAND'> = async (work, r) => {
  const { clock, ids } = work;
  const now = clock.iso();
  const d = r.data;
  const brand = await work.brands.insert({
    data: {
      id: ids.uuid(),
      tcr_brand_id: registryId(work, 'B'),
      display_name: d.display_name,
      company_name: d.company_name,
      entity_type: d.entity_type,
      country: d.country,
      email: d.email,
      vetting_class: null,
      vetting_score: null,
      tcr_status: 'PENDING',
      inserted_at: now,
      updated_at: now,
    },
  });
  await work.outbox.schedule('registry', brand.data.id, clock.ms() + REGISTRY_REVIEW_MS);
  return brandEvent(work, 'brand.registered', brand);
};

const vetBrand: Apply<'VET_BRAND'> = async (work, r) => {
  const { clock } = work;
  const now = clock.iso();
  const brand = await brandOf(work, r.data.tcr_brand_id);
  const vetted = await work.brands.update(brand, (b) =>
    Object.assign(b.data, {
      vetting_class: r.data.vetting_class ?? 'STANDARD',
      vetting_score: 1 + Math.floor(work.random.float() * 100),
      updated_at: now,
    }),
  );
  return brandEvent(work, 'brand.vetted', vetted);
};

const unregisterBrand: Apply<'UNREGISTER_BRAND'> = async (work, r) => {
  const { clock } = work;
  const now = clock.iso();
  const brand = await brandOf(work, r.data.tcr_brand_id);
  const ended = await work.brands.update(brand, (b) =>
    Object.assign(b.data, { tcr_status: 'UNREGISTERED', updated_at: now }),
  );
  return brandEvent(work, 'brand.unregistered', ended);
};

const registerCampaign: Apply<'REGISTER_CAMPAIGN'> = async (work, r) => {
  const { clock, ids } = work;
  const now = clock.iso();
  const d = r.data;
  const brand = await brandOf(work, d.tcr_brand_id);
  const data: S['csp_campaign'] = {
    id: ids.ulid(),
    name: d.name,
    notes: null,
    description: d.description,
    use_case: d.use_case,
    sub_use_case: d.sub_use_case ?? [],
    sample_messages: d.sample_messages ?? [],
    message_flow: d.message_flow ?? null,
    help_keywords: d.help_keywords ?? null,
    help_message: d.help_message ?? null,
    optin_keywords: d.optin_keywords ?? null,
    optin_message: d.optin_message ?? null,
    optout_keywords: d.optout_keywords ?? null,
    optout_message: d.optout_message ?? null,
    embedded_link_sample: d.embedded_link_sample ?? null,
    privacy_policy_link: d.privacy_policy_link ?? null,
    terms_and_conditions_link: d.terms_and_conditions_link ?? null,
    dca_approved: false,
    shared: 'OWNED',
    tcr_brand_id: brand.data.tcr_brand_id,
    tcr_campaign_id: registryId(work, 'C'),
    tcr_csp_id: null,
    tcr_reseller_id: null,
    tcr_status: 'PENDING',
    attributes: d.attributes ?? {},
    inserted_at: now,
    updated_at: now,
  };
  const campaign = await work.campaigns.insert({
    brand: { id: brand.data.id, tcr_brand_id: brand.data.tcr_brand_id },
    shared_resource_group_id: null,
    shared_with: [],
    data,
  });
  await work.outbox.schedule('registry', campaign.data.id, clock.ms() + REGISTRY_REVIEW_MS);
  return campaignEvent(work, 'campaign.registered', campaign);
};

const unregisterCampaign: Apply<'UNREGISTER_CAMPAIGN'> = async (work, r) => {
  const { clock } = work;
  const now = clock.iso();
  const campaign = r.data.tcr_campaign_id ? await work.campaigns.ownByTcr(r.data.tcr_campaign_id) : undefined;
  if (!campaign)
    throw new RequestFailure('CAMPAIGN_NOT_FOUND', `No campaign ${r.data.tcr_campaign_id} of the account.`);
  const ended = await work.campaigns.update(campaign, (c) =>
    Object.assign(c.data, { tcr_status: 'EXPIRED', updated_at: now }),
  );
  return campaignEvent(work, 'campaign.unregistered', ended);
};

/** What completing a registry request does to the account. */
export function applyRegistry(work: Work, r: RegistryRequest): Promise<void> {
  switch (r.type) {
    case 'REGISTER_BRAND':
      return registerBrand(work, r);
    case 'VET_BRAND':
      return vetBrand(work, r);
    case 'UNREGISTER_BRAND':
      return unregisterBrand(work, r);
    case 'REGISTER_CAMPAIGN':
      return registerCampaign(work, r);
    case 'UNREGISTER_CAMPAIGN':
      return unregisterCampaign(work, r);
  }
}

/** The registry's review ends: a PENDING brand or campaign turns ACTIVE. */
export async function runRegistry(step: StepRow, work: Work): Promise<string> {
  const now = work.clock.iso();
  const brand = await work.brands.get(step.data.ref);
  if (brand) {
    if (brand.data.tcr_status !== 'PENDING') return `brand ${brand.data.tcr_brand_id} is ${brand.data.tcr_status}`;
    const active = await work.brands.update(brand, (b) =>
      Object.assign(b.data, { tcr_status: 'ACTIVE', updated_at: now }),
    );
    await brandEvent(work, 'brand.activated', active);
    return `brand ${brand.data.tcr_brand_id} PENDING → ACTIVE`;
  }
  const campaign = await work.campaigns.get(step.data.ref);
  if (!campaign) return 'the brand or campaign is gone';
  if (campaign.data.tcr_status !== 'PENDING')
    return `campaign ${campaign.data.tcr_campaign_id ?? ''} is ${campaign.data.tcr_status ?? 'unset'}`;
  const active = await work.campaigns.update(campaign, (c) =>
    Object.assign(c.data, { tcr_status: 'ACTIVE', updated_at: now }),
  );
  await campaignEvent(work, 'campaign.activated', active);
  return `campaign ${campaign.data.tcr_campaign_id ?? ''} PENDING → ACTIVE`;
}
