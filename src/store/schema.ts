/**
 * The collections, each declared once: its row type, its indexes, its list order and its named
 * reads. Every other list of collections is made from this one (the unit of work's and the account
 * view's collections, the backends' tables and columns, the state a snapshot holds); adding a
 * collection is a declaration here and its row type (docs/architecture.md).
 *
 * An index is data both backends read: the embedded store keeps a map per index, PostgreSQL a
 * column with a (unique) index. Every lookup on the request path goes through one of these, never
 * through a scan. A unique index is also a constraint: a second row with the same key is refused by
 * the store, whatever the handler checked before.
 *
 * A named read reads the rows of the collection's binding (collections.ts): one account's in that
 * account's view, every account's in the unit of work. A read that must see past the account (a
 * number any account holds, a campaign shared with it) says so by reading `any`, and filters what it
 * answers itself; `across` names the reads the unit of work offers across accounts (the others need
 * an account to read for).
 */
import type {
  AccountRow,
  ApiKeyRow,
  AutoResponseRow,
  BrandRow,
  BulkDipTaskRow,
  CallDataWebhookRow,
  CampaignRow,
  CartRow,
  ClockRow,
  DeliveryRow,
  DestinationRow,
  DocumentRow,
  EventSubscriptionRow,
  NumberRow,
  OptoutItemRow,
  OrderRow,
  OverwriteRequestRow,
  RequestRow,
  SecretKeyRow,
  SharedResourceGroupRow,
  StepRow,
  SwitchRow,
  UserRow,
} from '../domain/rows.js';
import { campaignVisibleTo } from '../domain/campaigns.js';

/** An index: each row's key (or keys, or none), and whether a key may belong to one row only. */
export interface IndexDef<R> {
  key: (row: R) => string | null | readonly (string | null)[];
  unique?: boolean;
}

/** What a named read reads with: the rows of its collection's binding, and (`any`) every account's. */
export interface Reader<R, I extends string> {
  /** The account the collection is bound to (a read that uses it is not one of `across`). */
  readonly account: string;
  get(id: string): Promise<R | undefined>;
  /** The binding's rows in list order: a read of the whole list, where the whole is the answer. */
  list(): Promise<readonly R[]>;
  /** The first `n` of the account's rows in list order. */
  head(n: number): Promise<readonly R[]>;
  /** How many rows the account has. */
  count(): Promise<number>;
  /** Each account's first row (across accounts only: start-up, a whole state replaced). */
  firsts(): Promise<readonly R[]>;
  /** How many rows the binding has (every account's across accounts). */
  size(): Promise<number>;
  /** The binding's row of a unique index's key. */
  one(index: I, key: string): Promise<R | undefined>;
  /** The binding's rows of an index's key, in list order. */
  many(index: I, key: string): Promise<readonly R[]>;
  /** The same reads of every account's rows: what the read answers of them is its own to filter. */
  readonly any: Pick<Reader<R, I>, 'get' | 'one' | 'many'>;
}

/** One collection's declaration. */
export interface TableDef<R, I extends string = string, M = unknown, A extends string = string> {
  indexes: Record<I, IndexDef<R>>;
  /** List order; `inserted_at` then `id` (interface.md section 5) unless the collection says otherwise. */
  compare?: (a: R, b: R) => number;
  /** Its named reads, made for each binding of the collection. */
  reads?: (r: Reader<R, I>) => M;
  /** The named reads the unit of work offers across accounts. */
  across?: readonly A[];
}

/** Declares a collection of rows `R`: `table<R>()({ indexes, reads })`. */
const table =
  <R>() =>
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type -- a collection with no named reads has {} of them
  <I extends string = never, M = {}, A extends string = never>(def: TableDef<R, I, M, A>) =>
    def as TableDef<R, I, M, A> & { readonly row?: R };

/** A composite key: parts joined by a separator no part contains. */
export const key = (...parts: string[]): string => parts.join('\u0000');

/** Whether any row holds the key (no row is read out). */
const held = async (row: Promise<unknown>): Promise<boolean> => (await row) !== undefined;

/** Steps: due time, then the order they were scheduled in. */
function byDue(a: StepRow, b: StepRow): number {
  return a.data.at < b.data.at ? -1 : a.data.at > b.data.at ? 1 : a.seq - b.seq;
}

export const SCHEMA = {
  accounts: table<AccountRow>()({
    indexes: { sandbox: { key: (r) => (r.sandbox_block === null ? null : 'sandbox') } },
    reads: (r) => ({
      /** The view's account itself. */
      self: () => r.any.get(r.account),
      /** Whether an account with this id exists (another account is named, never read). */
      exists: (id: string) => held(r.any.get(id)),
      /** Every sandbox account (`POST /__sim/accounts`) that exists now. */
      sandboxes: () => r.many('sandbox', 'sandbox'),
    }),
    across: ['sandboxes'],
  }),
  users: table<UserRow>()({
    indexes: { email: { key: (r) => key(r.account_id, r.data.email.toLowerCase()), unique: true } },
    reads: (r) => ({
      /** The account's user with this email, case-insensitively. */
      byEmail: (email: string) => r.one('email', key(r.account, email.toLowerCase())),
    }),
  }),
  api_keys: table<ApiKeyRow>()({
    indexes: {
      key: { key: (r) => r.data.key, unique: true },
      identity: { key: (r) => r.data.identity, unique: true },
      user: { key: (r) => r.user_id },
      smppSystemId: { key: (r) => r.data.smpp_system_id ?? null },
    },
    reads: (r) => ({
      ofUser: (userId: string) => r.many('user', userId),
      /** The key a caller's bearer key names (Store.caller). */
      byKey: (value: string) => r.one('key', value),
      /** The key a caller's Basic identity names. */
      byIdentity: (identity: string) => r.one('identity', identity),
      /** The keys an SMPP bind with this system id may be (across accounts: a bind names no account). */
      bySmppSystemId: (systemId: string) => r.many('smppSystemId', systemId),
    }),
    across: ['byKey', 'byIdentity', 'bySmppSystemId'],
  }),
  secret_keys: table<SecretKeyRow>()({ indexes: {} }),
  switches: table<SwitchRow>()({
    indexes: {
      apiKey: { key: (r) => r.api_key_id },
      secretKey: {
        key: (r) => [r.mms_encryption_key_id, r.mms_signing_key_id, r.sms_encryption_key_id, r.sms_signing_key_id],
      },
    },
    reads: (r) => ({
      usingApiKey: (id: string) => r.many('apiKey', id),
      usingSecretKey: (id: string) => r.many('secretKey', id),
    }),
  }),
  numbers: table<NumberRow>()({
    indexes: {
      number: { key: (r) => r.data.number, unique: true },
      apiKey: { key: (r) => r.api_key_id },
      switch: { key: (r) => r.switch_id },
      autoResponse: { key: (r) => r.auto_response_id },
      campaign: { key: (r) => r.campaign_id },
    },
    reads: (r) => ({
      /** The account's number, E.164 with the plus. */
      byNumber: (e164: string) => r.one('number', e164),
      /** Whether any account holds the number (its row is not read out). */
      taken: (e164: string) => held(r.any.one('number', e164)),
      usingApiKey: (id: string) => r.many('apiKey', id),
      usingSwitch: (id: string) => r.many('switch', id),
      usingAutoResponse: (id: string) => r.many('autoResponse', id),
      usingCampaign: (id: string) => r.many('campaign', id),
    }),
    across: ['taken'],
  }),
  auto_responses: table<AutoResponseRow>()({ indexes: {} }),
  optout_items: table<OptoutItemRow>()({
    indexes: {
      number: { key: (r) => r.number_id },
      pair: { key: (r) => key(r.number_id, r.data.remote_number), unique: true },
    },
    reads: (r) => ({
      ofNumber: (numberId: string) => r.many('number', numberId),
      byPair: (numberId: string, remote: string) => r.one('pair', key(numberId, remote)),
    }),
  }),
  destinations: table<DestinationRow>()({
    indexes: { number: { key: (r) => r.number_id } },
    reads: (r) => ({ ofNumber: (numberId: string) => r.many('number', numberId) }),
  }),
  carts: table<CartRow>()({ indexes: { name: { key: (r) => key(r.account_id, r.data.name), unique: true } } }),
  orders: table<OrderRow>()({ indexes: {} }),
  requests: table<RequestRow>()({
    indexes: {
      cart: { key: (r) => (r.order_id === null ? r.cart_id : null) },
      order: { key: (r) => r.order_id },
    },
    reads: (r) => ({
      /** The requests of a cart not yet checked out. */
      ofCart: (cartId: string) => r.many('cart', cartId),
      ofOrder: (orderId: string) => r.many('order', orderId),
    }),
  }),
  documents: table<DocumentRow>()({
    indexes: {
      request: { key: (r) => r.request_id },
      name: { key: (r) => key(r.request_id, r.data.name), unique: true },
    },
    reads: (r) => ({
      ofRequest: (requestId: string) => r.many('request', requestId),
      byName: (requestId: string, name: string) => r.one('name', key(requestId, name)),
    }),
  }),
  campaigns: table<CampaignRow>()({
    indexes: {
      tcr: { key: (r) => r.data.tcr_campaign_id ?? null },
      sharedWith: { key: (r) => r.shared_with },
    },
    reads: (r) => ({
      /** The campaigns the account sees: its own, and those shared with it (spec: Resources > CSP campaign). */
      visible: async () => [...(await r.list()), ...(await r.any.many('sharedWith', r.account))],
      /** A campaign the account sees, by its id: its own, or one shared with it. */
      visibleById: async (id: string) => {
        const row = await r.any.get(id);
        return row && campaignVisibleTo(row, r.account) ? row : undefined;
      },
      /** The account's own campaign of this registry id. */
      ownByTcr: async (tcr: string) => (await r.many('tcr', tcr))[0],
      /** A campaign the account sees, by its registry id. */
      visibleByTcr: async (tcr: string) => (await r.any.many('tcr', tcr)).find((c) => campaignVisibleTo(c, r.account)),
    }),
  }),
  shared_resource_groups: table<SharedResourceGroupRow>()({ indexes: {} }),
  brands: table<BrandRow>()({
    indexes: { tcr: { key: (r) => r.data.tcr_brand_id } },
    reads: (r) => ({
      /** The account's brand of this registry id. */
      byTcr: async (tcr: string) => (await r.many('tcr', tcr))[0],
    }),
  }),
  bulk_dip_tasks: table<BulkDipTaskRow>()({
    indexes: {
      reference: {
        key: (r) => (r.data.reference_id === null ? null : key(r.account_id, r.data.reference_id)),
        unique: true,
      },
    },
    reads: (r) => ({ byReference: (referenceId: string) => r.one('reference', key(r.account, referenceId)) }),
  }),
  call_data_webhooks: table<CallDataWebhookRow>()({ indexes: {} }),
  event_subscriptions: table<EventSubscriptionRow>()({ indexes: {} }),
  overwrite_requests: table<OverwriteRequestRow>()({
    indexes: { number: { key: (r) => r.number_id } },
    reads: (r) => ({ ofNumber: (numberId: string) => r.many('number', numberId) }),
  }),
  clocks: table<ClockRow>()({ indexes: {} }),
  steps: table<StepRow>()({
    indexes: { ref: { key: (r) => r.data.ref } },
    compare: byDue,
    reads: (r) => ({
      /** The earliest step. */
      earliest: async (): Promise<StepRow | undefined> => (await r.head(1))[0],
      /** The `n` earliest steps, in the order they fall due. */
      soonest: (n: number) => r.head(n),
      /** Each account's earliest step: the timer's start, and a whole state replaced (scheduler.ts). */
      earliestOfEach: () => r.firsts(),
      /** How many steps wait (every account's across accounts). */
      waiting: () => r.size(),
      /** The steps of one record (an order, a task, a delivery), by the index on `ref`. */
      ofRef: (ref: string) => r.many('ref', ref),
    }),
    across: ['earliestOfEach', 'waiting'],
  }),
  deliveries: table<DeliveryRow>()({
    indexes: {
      held: { key: (r) => (r.data.outcome === 'held' ? r.data.target : null) },
      waiting: {
        key: (r) => (r.data.outcome === 'waiting' && r.request.method === 'SMPP' ? r.request.smpp.key_id : null),
      },
    },
    reads: (r) => ({
      /** The account's `n` oldest deliveries. */
      oldest: (n: number) => r.head(n),
      /** Each account's oldest delivery: the accounts that have a log, for a listing across them in pages. */
      oldestOfEach: () => r.firsts(),
      /** Deliveries an out-of-order fault holds back until the next one to the same target. */
      heldFor: (target: string) => r.many('held', target),
      /** Messages waiting for an SMPP bind of the key (a key is one account's), oldest first. */
      waitingFor: (keyId: string) => r.many('waiting', keyId),
    }),
    across: ['heldFor', 'waitingFor', 'oldestOfEach'],
  }),
};

export type CollectionName = keyof typeof SCHEMA;

/** Each collection's row type. */
export type Collections = { [K in CollectionName]: NonNullable<(typeof SCHEMA)[K]['row']> };

/** Each collection's named reads, and those the unit of work offers across accounts. */
export type ReadsOf<K extends CollectionName> =
  NonNullable<(typeof SCHEMA)[K]['reads']> extends (r: never) => infer M ? M : never;
export type AcrossOf<K extends CollectionName> = Pick<
  ReadsOf<K>,
  NonNullable<(typeof SCHEMA)[K]['across']>[number] & keyof ReadsOf<K>
>;

export const COLLECTION_NAMES = Object.keys(SCHEMA) as readonly CollectionName[];

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

/** `inserted_at`, then `id`. */
export function byInsertion(a: AnyRow, b: AnyRow): number {
  const x = a.data.inserted_at;
  const y = b.data.inserted_at;
  return x < y ? -1 : x > y ? 1 : a.data.id < b.data.id ? -1 : a.data.id > b.data.id ? 1 : 0;
}
