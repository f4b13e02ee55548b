/**
 * The collections and their indexes, as data both backends read: the embedded store keeps a map per
 * index, PostgreSQL a column with a (unique) index. Every lookup on the request path goes through
 * one of these, never through a scan. A unique index is also a constraint: a second row with the
 * same key is refused by the store, whatever the handler checked before.
 */
import type { AnyRow, CollectionName, Collections, StepRow } from '../domain/rows.js';

/** An index: each row's key (or keys, or none), and whether a key may belong to one row only. */
export interface IndexDef<R> {
  key: (row: R) => string | null | readonly (string | null)[];
  unique?: boolean;
}

export interface TableDef<R> {
  indexes: Record<string, IndexDef<R>>;
  /** List order; `inserted_at` then `id` (interface.md section 5) unless the collection says otherwise. */
  compare?: (a: R, b: R) => number;
}

type Schema = { [K in CollectionName]: TableDef<Collections[K]> };

/** A composite key: parts joined by a separator no part contains. */
export const key = (...parts: string[]): string => parts.join('\u0000');

/** `inserted_at`, then `id`. */
export function byInsertion(a: AnyRow, b: AnyRow): number {
  const x = a.data.inserted_at;
  const y = b.data.inserted_at;
  return x < y ? -1 : x > y ? 1 : a.data.id < b.data.id ? -1 : a.data.id > b.data.id ? 1 : 0;
}

/** Steps: due time, then the order they were scheduled in. */
function byDue(a: StepRow, b: StepRow): number {
  return a.data.at < b.data.at ? -1 : a.data.at > b.data.at ? 1 : a.seq - b.seq;
}

export const SCHEMA = {
  accounts: { indexes: { sandbox: { key: (r) => (r.sandbox_block === null ? null : 'sandbox') } } },
  users: { indexes: { email: { key: (r) => key(r.account_id, r.data.email.toLowerCase()), unique: true } } },
  api_keys: {
    indexes: {
      key: { key: (r) => r.data.key, unique: true },
      identity: { key: (r) => r.data.identity, unique: true },
      user: { key: (r) => r.user_id },
      smppSystemId: { key: (r) => r.data.smpp_system_id ?? null },
    },
  },
  secret_keys: { indexes: {} },
  switches: {
    indexes: {
      apiKey: { key: (r) => r.api_key_id },
      secretKey: {
        key: (r) => [r.mms_encryption_key_id, r.mms_signing_key_id, r.sms_encryption_key_id, r.sms_signing_key_id],
      },
    },
  },
  numbers: {
    indexes: {
      number: { key: (r) => r.data.number, unique: true },
      apiKey: { key: (r) => r.api_key_id },
      switch: { key: (r) => r.switch_id },
      autoResponse: { key: (r) => r.auto_response_id },
      campaign: { key: (r) => r.campaign_id },
    },
  },
  auto_responses: { indexes: {} },
  optout_items: {
    indexes: {
      number: { key: (r) => r.number_id },
      pair: { key: (r) => key(r.number_id, r.data.remote_number), unique: true },
    },
  },
  destinations: { indexes: { number: { key: (r) => r.number_id } } },
  carts: { indexes: { name: { key: (r) => key(r.account_id, r.data.name), unique: true } } },
  orders: { indexes: {} },
  requests: {
    indexes: {
      cart: { key: (r) => (r.order_id === null ? r.cart_id : null) },
      order: { key: (r) => r.order_id },
    },
  },
  documents: {
    indexes: {
      request: { key: (r) => r.request_id },
      name: { key: (r) => key(r.request_id, r.data.name), unique: true },
    },
  },
  campaigns: {
    indexes: {
      tcr: { key: (r) => r.data.tcr_campaign_id ?? null },
      sharedWith: { key: (r) => r.shared_with },
    },
  },
  shared_resource_groups: { indexes: {} },
  brands: { indexes: {} },
  bulk_dip_tasks: {
    indexes: {
      reference: {
        key: (r) => (r.data.reference_id === null ? null : key(r.account_id, r.data.reference_id)),
        unique: true,
      },
    },
  },
  call_data_webhooks: { indexes: {} },
  event_subscriptions: { indexes: {} },
  overwrite_requests: { indexes: { number: { key: (r) => r.number_id } } },
  clocks: { indexes: {} },
  steps: { indexes: { ref: { key: (r) => r.data.ref } }, compare: byDue },
  deliveries: {
    indexes: {
      held: { key: (r) => (r.data.outcome === 'held' ? r.data.target : null) },
      waiting: {
        key: (r) => (r.data.outcome === 'waiting' && r.request.method === 'SMPP' ? r.request.smpp.key_id : null),
      },
    },
  },
} satisfies Schema;

export type IndexName<K extends CollectionName> = keyof (typeof SCHEMA)[K]['indexes'] & string;
