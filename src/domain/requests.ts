/**
 * Cart request rules (spec: Resources > Request; interface.md section 6): which schema holds each
 * type's data, and what processing finds wrong with a new-numbers request. Whether named numbers,
 * campaigns and switches exist is found when the order runs (src/simulation/orders.ts), as the real
 * service finds it: the request ends ERROR with an `error_code`.
 */
import type { components } from '../generated/api.js';
import { isTollFreeNpa, TOLL_FREE_NPAS } from './addresses.js';

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

/**
 * What is wrong with a new-numbers request's own fields, found when it is processed (the spec
 * states none of these as a rule of the request's shape): the failure's `error_code`, or null.
 * Spec: `quantity` is the most wanted and `min_quantity` the least acceptable, together a range.
 */
export function newNumbersProblem(data: {
  quantity?: string;
  min_quantity?: string;
  number_type: string;
  npa?: string;
}): { code: string; detail: string } | null {
  const { quantity, min_quantity, number_type, npa } = data;
  const whole = (v: string | undefined) => v === undefined || /^\d+$/.test(v);
  if (!whole(quantity) || !whole(min_quantity))
    return { code: 'INVALID_QUANTITY', detail: 'quantity and min_quantity must be whole numbers.' };
  if (min_quantity !== undefined && quantity !== undefined && Number(min_quantity) > Number(quantity))
    return { code: 'INVALID_QUANTITY', detail: `min_quantity ${min_quantity} is above quantity ${quantity}.` };
  if (npa !== undefined && number_type === 'TOLLFREE' && !isTollFreeNpa(npa))
    return { code: 'INVALID_NPA', detail: `${npa} is not a toll-free NPA (${TOLL_FREE_NPAS.join(', ')}).` };
  if (npa !== undefined && number_type === 'TENDLC' && isTollFreeNpa(npa))
    return { code: 'INVALID_NPA', detail: `${npa} is a toll-free NPA; 10DLC numbers are local.` };
  return null;
}
