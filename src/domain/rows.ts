/**
 * What the store keeps. Each row holds the record exactly as the contract shows it (`data`),
 * the owning account, and the fields the API never shows (hashes, roles, bindings).
 * Rows are read-only, in their types and at run time (frozen): a change goes through the store
 * (`update(row, (draft) => …)`), which records it.
 */
import type { components } from '../generated/api.js';
import type { Frozen } from './frozen.js';

export type { Draft, Frozen } from './frozen.js';
export type {
  Attempt,
  ComposedMessage,
  DeliveryKind,
  DeliveryOutcome,
  DeliveryRow,
  Mm4Message,
  OutboundOf,
  OutboundSpec,
  Settle,
  SftpUpload,
  SmppMessage,
  TransportName,
} from './delivery_rows.js';
export { transportOf } from './delivery_rows.js';

type S = components['schemas'];

export type Role = 'admin' | 'operator' | 'read_only';

/** Every row: its account and its record, with an id and a creation time. */
export interface Row<
  T extends { readonly id: string; readonly inserted_at: string } = {
    readonly id: string;
    readonly inserted_at: string;
  },
> {
  readonly account_id: string;
  readonly data: T;
}

/**
 * An account is its own row (account_id = id); a sandbox remembers its block of numbers and the
 * keys it was made with (a reset of the sandbox makes it again with them).
 */
export type AccountRow = Frozen<{
  account_id: string;
  sandbox_block: number | null;
  sandbox_keys?: { admin: string; readonly: string; standard: string } | null;
  /** The run a sandbox was made for (`POST /__sim/accounts {run}`): its coverage is counted with the run's. */
  sandbox_run?: string | null;
  data: { id: string; name: string; inserted_at: string };
}>;

export type UserRow = Frozen<
  Row<S['user']> & {
    role: Role;
    suspended: boolean;
    /** `scrypt$<salt hex>$<hash hex>`, or null for a user who never set a password. */
    password_hash: string | null;
  }
>;

export type ApiKeyRow = Frozen<
  Row<S['api_key']> & {
    /** The user an impersonated key acts for; null for a standard key. */
    user_id: string | null;
    secret_hash: string;
    smpp_secret_hash: string;
  }
>;

export type SecretKeyRow = Frozen<Row<S['secret_key']> & { active: boolean; material_hash: string }>;

/** The secrets of a switch: shown in the create response only. */
export interface SwitchSecrets {
  readonly sms_secret: string | null;
  readonly mms_secret: string | null;
  readonly voice_secret: string | null;
}

export type SwitchRow = Frozen<
  Row<S['switch']> & {
    secrets: SwitchSecrets;
    api_key_id: string | null;
    mms_encryption_key_id: string | null;
    mms_signing_key_id: string | null;
    sms_encryption_key_id: string | null;
    sms_signing_key_id: string | null;
  }
>;

export type NumberRow = Frozen<
  Row<S['number']> & {
    switch_id: string | null;
    api_key_id: string | null;
    auto_response_id: string | null;
    campaign_id: string | null;
  }
>;

export type AutoResponseRow = Row<S['auto_response']>;

export type OptoutItemRow = Frozen<
  Row<S['optout_item']> & {
    number_id: string;
    /** The inbound message whose keyword created the item; null for a manual one. */
    sms_id: string | null;
  }
>;

export type DestinationRow = Frozen<Row<S['destination']> & { number_id: string; auth_secret: string | null }>;

export type CartRow = Row<S['cart']>;

export type OrderRow = Row<S['order']>;

/** A cart request, and after checkout a submitted request (`order_id` set, `status` in `data`). */
export type RequestRow = Frozen<Row<S['request']> & { cart_id: string; order_id: string | null }>;

/** A document's record; its bytes live in the store's file area under the document id. */
export type DocumentRow = Frozen<
  Row<S['request_document']> & { request_id: string; file_hint: string | null; size: number }
>;

export type CampaignRow = Frozen<
  Row<S['csp_campaign']> & {
    brand: { id: string; tcr_brand_id: string | null } | null;
    shared_resource_group_id: string | null;
    /** Accounts the campaign is shared with; they see it as `shared: PARTNER`. */
    shared_with: string[];
  }
>;

/** A brand the registry requests made (no API operation; CSP_BRAND events carry it). */
export type BrandRow = Frozen<Row<S['csp_brand']>>;

/** A bulk dip task; the `auth_secret` of each on-done action is kept aside, by index, never shown. */
export type BulkDipTaskRow = Frozen<Row<S['bulk_dip_task']> & { action_secrets: (string | null)[] }>;

export type CallDataWebhookRow = Frozen<Row<S['call_data_webhook']> & { auth_secret: string | null }>;

export type EventSubscriptionRow = Frozen<Row<S['event_subscription']> & { auth_secret: string | null }>;

export type OverwriteRequestRow = Frozen<
  Row<S['osr_overwrite_request']> & {
    number_id: string;
    service_provider: string;
    reviewed_user_id: string | null;
  }
>;

export type SharedResourceGroupRow = Row<Frozen<{ id: string; name: string; inserted_at: string }>>;

export type ClockMode = 'real' | 'frozen';

/** An account's clock: stored, so a restart never moves it back. Absent: the server's start settings. */
export type ClockRow = Frozen<{
  account_id: string;
  data: {
    /** The account id. */
    id: string;
    inserted_at: string;
    mode: ClockMode;
    /** real: simulated time minus wall time. */
    offset_ms: number;
    /** frozen: the simulated time. */
    frozen_at_ms: number;
    /** The latest time the clock was moved to: a real clock never answers earlier than this. */
    floor_ms: number;
  };
}>;

export type StepKind = 'bulk_dip' | 'order' | 'osr_expire' | 'registry' | 'delivery';

/** A lifecycle step (or a delivery attempt) waiting on an account's clock; a restart resumes it. */
export type StepRow = Frozen<{
  account_id: string;
  /** Orders steps due at the same time by when they were scheduled. */
  seq: number;
  /**
   * Over a shared store: the instance running the step and until when (wall ms); the others wait
   * for it, and take the step over once that time has passed (the instance died).
   */
  claim?: { by: string; until: number };
  /** The `traceparent` of the call (or step) that scheduled it, when traces are on: its span links to it. */
  cause?: string;
  data: {
    id: string;
    inserted_at: string;
    /** When it falls due, ISO 8601 on the account's clock. */
    at: string;
    kind: StepKind;
    /** The record (or delivery) it moves. */
    ref: string;
  };
}>;
