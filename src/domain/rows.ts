/**
 * What the store keeps. Each row holds the record exactly as the contract shows it (`data`),
 * the owning account, and the fields the API never shows (hashes, roles, bindings).
 * Rows are read-only, in their types and at run time (frozen): a change goes through the store
 * (`update(row, (draft) => …)`), which records it.
 */
import type { components } from '../generated/api.js';

type S = components['schemas'];

/** A row as the store hands it out: read-only all the way down. */
export type Frozen<T> = T extends readonly (infer U)[]
  ? readonly Frozen<U>[]
  : T extends object
    ? { readonly [K in keyof T]: Frozen<T[K]> }
    : T;

/** A writable copy of a row, inside `update(row, (draft) => …)`. */
export type Draft<T> = T extends readonly (infer U)[]
  ? Draft<U>[]
  : T extends object
    ? { -readonly [K in keyof T]: Draft<T[K]> }
    : T;

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

export type DeliveryKind = 'event' | 'cdr' | 'sms' | 'mms' | 'dlr' | 'route' | 'result';
export type DeliveryOutcome = 'pending' | 'delivered' | 'retrying' | 'failed' | 'refused' | 'held' | 'waiting';

export interface Attempt {
  at: string;
  status: number | null;
  error: string | null;
  duration_ms: number;
}

/** What a delivery sends: an HTTP request, or an SFTP upload (method SFTP). */
/** A message for an SMPP bind: one deliver_sm, or its parts, to a receiving bind of the key. */
export interface SmppMessage {
  key_id: string;
  system_id: string;
  source_addr: string;
  destination_addr: string;
  text: string;
  /** A delivery receipt (esm_class 0x04) for the message with this id, rather than a message. */
  receipt_for?: string;
  /** A receipt's message_state (SMPP 3.4 5.2.28): 2 DELIVERED (the default), 1 ENROUTE (an intermediate notification). */
  receipt_state?: number;
}

/** An inbound MMS for an MM4 relay (src/engine/transport/mm4.ts): composed, media fetched, at each attempt. */
export interface Mm4Message {
  url: string;
  message_id: string;
  date: string;
  from: string;
  to: string;
  text: string;
  media_urls: readonly string[];
  username: string | null;
  password: string | null;
  /** The switch's `mms_name` (the spec: MM4's display name), written as From's display name. */
  display_name?: string | null;
}

/** An MMS in a format that carries its media: composed, media fetched, signed, at each attempt (src/engine/transport/mime.ts). */
export interface ComposedMessage {
  format: 'MMSFMT_MULTIPART_1_0' | 'MMSFMT_MULTIPART_2_0' | 'MMSFMT_RFC822_1_0';
  message: { id: string; from: string; to: string; text: string; received_at: string; media_urls?: readonly string[] };
  /** HMAC_SHA256 auth: the secret the exact body is signed with. */
  hmac_secret: string | null;
}

export interface OutboundSpec {
  method: 'GET' | 'POST' | 'PUT' | 'SFTP' | 'SMPP' | 'MM4' | 'CHAT';
  url: string;
  headers: Record<string, string>;
  /** The body as text; or, for a bulk dip result, read from the file area at each attempt. */
  body: string;
  body_file?: { id: string; archive_name?: string };
  sftp?: { username: string; password: string; filename: string };
  smpp?: SmppMessage;
  mm4?: Mm4Message;
  compose?: ComposedMessage;
  /** An inbound message's format (SMSFMT_…, MMSFMT_…), for the coverage of what a client received. */
  format?: string;
  /** What the delivery log should say about it (credentials missing, say). */
  note?: string | null;
}

/** What settling a delivery does besides logging it: a bulk dip's on-done action learns its outcome. */
export interface Settle {
  kind: 'bulk_dip_action';
  task_id: string;
  index: number;
}

/** One outbound delivery: the outbox entry and its log, with every attempt (secrets redacted in `data`). */
export type DeliveryRow = Frozen<{
  account_id: string;
  /** The request as it is sent, secrets included; never shown. */
  request: OutboundSpec;
  retry: boolean;
  settle: Settle | null;
  data: {
    id: string;
    inserted_at: string;
    account_id: string;
    kind: DeliveryKind;
    method: string;
    target: string;
    headers: Record<string, string>;
    body: string;
    attempts: Attempt[];
    outcome: DeliveryOutcome;
    next_attempt_at: string | null;
    /** Why the delivery went as it did, beside its attempts (credentials missing, say); absent in older stores. */
    note?: string | null;
  };
}>;

/** Every collection of the state, each a list of rows. */
export interface Collections {
  accounts: AccountRow;
  users: UserRow;
  api_keys: ApiKeyRow;
  secret_keys: SecretKeyRow;
  switches: SwitchRow;
  numbers: NumberRow;
  auto_responses: AutoResponseRow;
  optout_items: OptoutItemRow;
  destinations: DestinationRow;
  carts: CartRow;
  orders: OrderRow;
  requests: RequestRow;
  documents: DocumentRow;
  campaigns: CampaignRow;
  shared_resource_groups: SharedResourceGroupRow;
  brands: BrandRow;
  bulk_dip_tasks: BulkDipTaskRow;
  call_data_webhooks: CallDataWebhookRow;
  event_subscriptions: EventSubscriptionRow;
  overwrite_requests: OverwriteRequestRow;
  clocks: ClockRow;
  steps: StepRow;
  deliveries: DeliveryRow;
}

export type CollectionName = keyof Collections;

export const COLLECTION_NAMES: readonly CollectionName[] = [
  'accounts',
  'users',
  'api_keys',
  'secret_keys',
  'switches',
  'numbers',
  'auto_responses',
  'optout_items',
  'destinations',
  'carts',
  'orders',
  'requests',
  'documents',
  'campaigns',
  'shared_resource_groups',
  'brands',
  'bulk_dip_tasks',
  'call_data_webhooks',
  'event_subscriptions',
  'overwrite_requests',
  'clocks',
  'steps',
  'deliveries',
];

/** The whole state: what a snapshot of the store holds. */
export type DbData = { [K in CollectionName]: readonly Collections[K][] };

export type AnyRow = Collections[CollectionName];

/** Lists of rows by collection, as a store gathers them to make a DbData (stateOf). */
export type RowLists = Record<CollectionName, AnyRow[]>;

export const emptyLists = (): RowLists => emptyDb() as RowLists;

/**
 * Lists gathered by collection as the state they are. Each list holds rows of its own collection
 * only (the store gathers them by name), which is what DbData says and the lists' type cannot.
 */
export const stateOf = (lists: Readonly<Record<CollectionName, readonly AnyRow[]>>): DbData => lists as DbData;

export function emptyDb(): DbData {
  const db: Partial<Record<CollectionName, AnyRow[]>> = {};
  for (const name of COLLECTION_NAMES) db[name] = [];
  return db as DbData;
}
