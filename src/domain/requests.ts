/**
 * Cart request rules (spec: Resources > Request; interface.md section 6): which schema holds each
 * type's data, the numbers a request may name, and the new-numbers quantity range.
 */
import type { components } from '../generated/api.js';
import { isTollFreeNpa, toE164, TOLL_FREE_NPAS } from './addresses.js';
import type { Violation } from './switches.js';

export type RequestType = components['schemas']['request_type'];
export type RequestData = components['schemas']['request']['data'];

/** The contract schema of each type's `data`. */
export const dataSchemaOf: Record<RequestType, string> = {
  ADD_CAMPAIGN_NUMBERS: 'add_campaign_numbers_data',
  REMOVE_CAMPAIGN_NUMBERS: 'remove_campaign_numbers_data',
  ADD_MESSAGING_NUMBERS: 'add_routing_numbers_data',
  ADD_VOICE_NUMBERS: 'add_routing_numbers_data',
  REMOVE_MESSAGING_NUMBERS: 'numbers_only_data',
  REMOVE_NUMBERS: 'numbers_only_data',
  REMOVE_VOICE_NUMBERS: 'numbers_only_data',
  NEW_NUMBERS: 'new_numbers_data',
  REGISTER_BRAND: 'register_brand_data',
  VET_BRAND: 'vet_brand_data',
  UNREGISTER_BRAND: 'brand_ref_data',
  REGISTER_CAMPAIGN: 'register_campaign_data',
  UNREGISTER_CAMPAIGN: 'campaign_ref_data',
};

/** Types whose `numbers` name numbers the account already has. */
const EXISTING_NUMBERS: ReadonlySet<RequestType> = new Set<RequestType>([
  'ADD_CAMPAIGN_NUMBERS',
  'REMOVE_CAMPAIGN_NUMBERS',
  'ADD_MESSAGING_NUMBERS',
  'ADD_VOICE_NUMBERS',
  'REMOVE_MESSAGING_NUMBERS',
  'REMOVE_NUMBERS',
  'REMOVE_VOICE_NUMBERS',
]);

/** What the rules need to know of the account. */
export interface AccountView {
  ownsNumber(e164: string): boolean;
  hasSwitch(id: string): boolean;
  /** A campaign the account owns or that is shared with it, by its registry id. */
  hasCampaign(tcrCampaignId: string): boolean;
}

const AT = '/data/data';

export function requestViolations(type: RequestType, data: Record<string, unknown>, account: AccountView): Violation[] {
  const out: Violation[] = [];
  const numbers = Array.isArray(data.numbers) ? (data.numbers as string[]) : [];
  const seen = new Set<string>();
  numbers.forEach((n, i) => {
    const number = toE164(n);
    if (seen.has(number)) out.push({ pointer: `${AT}/numbers/${i}`, detail: `${number} appears twice.` });
    else if (EXISTING_NUMBERS.has(type) && !account.ownsNumber(number))
      out.push({ pointer: `${AT}/numbers/${i}`, detail: `${number} is not a number of this account.` });
    else if (type === 'NEW_NUMBERS' && account.ownsNumber(number))
      out.push({ pointer: `${AT}/numbers/${i}`, detail: `${number} is already a number of this account.` });
    seen.add(number);
  });
  if (
    (type === 'ADD_CAMPAIGN_NUMBERS' || type === 'REMOVE_CAMPAIGN_NUMBERS') &&
    !account.hasCampaign(String(data.tcr_campaign_id))
  ) {
    out.push({
      pointer: `${AT}/tcr_campaign_id`,
      detail: `No campaign ${String(data.tcr_campaign_id)} is owned by or shared with this account.`,
    });
  }
  if (
    (type === 'ADD_MESSAGING_NUMBERS' || type === 'ADD_VOICE_NUMBERS') &&
    typeof data.switch_id === 'string' &&
    !account.hasSwitch(data.switch_id)
  ) {
    out.push({ pointer: `${AT}/switch_id`, detail: `No switch ${data.switch_id} in this account.` });
  }
  if (type === 'NEW_NUMBERS') out.push(...newNumbersViolations(data));
  return out;
}

/** Spec: `quantity` is the most wanted, `min_quantity` the least acceptable; together a range. */
function newNumbersViolations(data: Record<string, unknown>): Violation[] {
  const out: Violation[] = [];
  const { quantity, min_quantity, number_type, npa, numbers } = data as {
    quantity?: string;
    min_quantity?: string;
    number_type: string;
    npa?: string;
    numbers?: string[];
  };
  if (min_quantity !== undefined && quantity === undefined)
    out.push({ pointer: `${AT}/quantity`, detail: 'quantity is required with min_quantity.' });
  if (min_quantity !== undefined && quantity !== undefined && Number(min_quantity) > Number(quantity)) {
    out.push({ pointer: `${AT}/min_quantity`, detail: `min_quantity ${min_quantity} is above quantity ${quantity}.` });
  }
  if (number_type !== 'NONE' && quantity === undefined && min_quantity === undefined && !numbers?.length) {
    out.push({ pointer: `${AT}/quantity`, detail: 'quantity (or specific numbers) is required to order numbers.' });
  }
  if (npa !== undefined && number_type === 'TOLLFREE' && !isTollFreeNpa(npa)) {
    out.push({ pointer: `${AT}/npa`, detail: `${npa} is not a toll-free NPA (${TOLL_FREE_NPAS.join(', ')}).` });
  }
  if (npa !== undefined && number_type === 'TENDLC' && isTollFreeNpa(npa)) {
    out.push({ pointer: `${AT}/npa`, detail: `${npa} is a toll-free NPA; 10DLC numbers are local.` });
  }
  return out;
}
