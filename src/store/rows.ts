/**
 * What the store keeps. Each row holds the record exactly as the contract shows it (`data`),
 * the owning account, and the fields the API never shows (hashes, roles, bindings).
 */
import type { components } from '../generated/api.js';

type S = components['schemas'];

export type Role = 'admin' | 'operator' | 'read_only';

export interface AccountRow {
  id: string;
  name: string;
  inserted_at: string;
}

export interface Row<T extends { id: string; inserted_at: string }> {
  account_id: string;
  data: T;
}

export interface UserRow extends Row<S['user']> {
  role: Role;
  suspended: boolean;
  /** `scrypt$<salt hex>$<hash hex>`, or null for a user who never set a password. */
  password_hash: string | null;
}

export interface ApiKeyRow extends Row<S['api_key']> {
  /** The user an impersonated key acts for; null for a standard key. */
  user_id: string | null;
  secret_hash: string;
  smpp_secret_hash: string;
}

export interface SecretKeyRow extends Row<S['secret_key']> {
  active: boolean;
  material_hash: string;
}

/** The secrets of a switch: shown in the create response only. */
export interface SwitchSecrets {
  sms_secret: string | null;
  mms_secret: string | null;
  voice_secret: string | null;
}

export interface SwitchRow extends Row<S['switch']> {
  secrets: SwitchSecrets;
  api_key_id: string | null;
  mms_encryption_key_id: string | null;
  mms_signing_key_id: string | null;
  sms_encryption_key_id: string | null;
  sms_signing_key_id: string | null;
}

export interface NumberRow extends Row<S['number']> {
  switch_id: string | null;
  api_key_id: string | null;
  auto_response_id: string | null;
  campaign_id: string | null;
}

export interface AutoResponseRow extends Row<S['auto_response']> {}

export interface OptoutItemRow extends Row<S['optout_item']> {
  number_id: string;
  /** The inbound message whose keyword created the item; null for a manual one. */
  sms_id: string | null;
}

export interface DestinationRow extends Row<S['destination']> {
  number_id: string;
  auth_secret: string | null;
}

export interface CartRow extends Row<S['cart']> {}

export interface OrderRow extends Row<S['order']> {}

/** A cart request, and after checkout a submitted request (`order_id` set, `status` in `data`). */
export interface RequestRow extends Row<S['request']> {
  cart_id: string;
  order_id: string | null;
}

/** A document's record; its bytes live in the store's file area under the document id. */
export interface DocumentRow extends Row<S['request_document']> {
  request_id: string;
  file_hint: string | null;
  size: number;
}

export interface CampaignRow extends Row<S['csp_campaign']> {
  brand: { id: string; tcr_brand_id: string | null } | null;
  shared_resource_group_id: string | null;
  /** Accounts the campaign is shared with; they see it as `shared: PARTNER`. */
  shared_with: string[];
}

export interface BulkDipTaskRow extends Row<S['bulk_dip_task']> {
  /** The `auth_secret` of each on-done action, by index; never shown. */
  action_secrets: (string | null)[];
}

export interface CallDataWebhookRow extends Row<S['call_data_webhook']> {
  auth_secret: string | null;
}

export interface EventSubscriptionRow extends Row<S['event_subscription']> {
  auth_secret: string | null;
}

export interface OverwriteRequestRow extends Row<S['osr_overwrite_request']> {
  number_id: string;
  service_provider: string;
  reviewed_user_id: string | null;
}

export interface SharedResourceGroupRow extends Row<{ id: string; name: string; inserted_at: string }> {}

export type StepKind = 'bulk_dip' | 'order' | 'osr_expire' | 'delivery';

/** A lifecycle step waiting on an account's clock; kept in the store so a restart resumes it. */
export interface ScheduledStep {
  id: string;
  account_id: string;
  /** When it falls due, ISO 8601 on the account's clock. */
  at: string;
  kind: StepKind;
  /** The record (or delivery) it moves. */
  ref: string;
  data?: unknown;
}

/** The whole state: what the JSON file holds. */
export interface DbData {
  version: 1;
  accounts: AccountRow[];
  users: UserRow[];
  api_keys: ApiKeyRow[];
  secret_keys: SecretKeyRow[];
  switches: SwitchRow[];
  numbers: NumberRow[];
  auto_responses: AutoResponseRow[];
  optout_items: OptoutItemRow[];
  destinations: DestinationRow[];
  carts: CartRow[];
  orders: OrderRow[];
  requests: RequestRow[];
  documents: DocumentRow[];
  campaigns: CampaignRow[];
  shared_resource_groups: SharedResourceGroupRow[];
  bulk_dip_tasks: BulkDipTaskRow[];
  call_data_webhooks: CallDataWebhookRow[];
  event_subscriptions: EventSubscriptionRow[];
  overwrite_requests: OverwriteRequestRow[];
  schedule: ScheduledStep[];
}

export type CollectionName = Exclude<keyof DbData, 'version' | 'accounts' | 'schedule'>;

export const emptyDb = (): DbData => ({
  version: 1,
  accounts: [],
  users: [],
  api_keys: [],
  secret_keys: [],
  switches: [],
  numbers: [],
  auto_responses: [],
  optout_items: [],
  destinations: [],
  carts: [],
  orders: [],
  requests: [],
  documents: [],
  campaigns: [],
  shared_resource_groups: [],
  bulk_dip_tasks: [],
  call_data_webhooks: [],
  event_subscriptions: [],
  overwrite_requests: [],
  schedule: [],
});
