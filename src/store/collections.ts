/**
 * Typed collections with names that say what a handler wants (`carts.byName(account, name)`,
 * `switches.usingSecretKey(id)`), over the primitive table operations a backend provides. Every
 * read and write is asynchronous, as a database's would be; every write is recorded by the unit
 * of work it belongs to.
 */
import type {
  AccountRow,
  AnyRow,
  ApiKeyRow,
  AutoResponseRow,
  BulkDipTaskRow,
  CallDataWebhookRow,
  CampaignRow,
  CartRow,
  ClockRow,
  CollectionName,
  Collections,
  DeliveryRow,
  DestinationRow,
  DocumentRow,
  Draft,
  EventSubscriptionRow,
  NumberRow,
  OptoutItemRow,
  OrderRow,
  OverwriteRequestRow,
  RequestRow,
  SecretKeyRow,
  SharedResourceGroupRow,
  BrandRow,
  StepRow,
  SwitchRow,
  UserRow,
} from './rows.js';
import { campaignVisibleTo } from '../domain/campaigns.js';
import { key } from './schema.js';

/** What a backend does for one collection inside one unit of work. */
export interface TableOps<R extends AnyRow> {
  get(id: string): Promise<R | undefined>;
  /** The account's rows in list order. */
  list(accountId: string): Promise<readonly R[]>;
  /** The row of a unique index's key. */
  one(index: string, key: string): Promise<R | undefined>;
  /** The rows of an index's key, in list order. */
  many(index: string, key: string): Promise<readonly R[]>;
  /** Every row of every account: for the control API and start-up, never the request path. */
  all(): Promise<readonly R[]>;
  insert(row: R): Promise<R>;
  /** Applies `change` to a copy of the row as stored now, and stores the copy. */
  update(row: R, change: (draft: Draft<R>) => void): Promise<R>;
  remove(row: R): Promise<void>;
}

/** One collection: every read scoped to an account unless it says otherwise. */
export class Collection<R extends AnyRow> {
  constructor(protected readonly t: TableOps<R>) {}

  /** The row with this id, if it belongs to the account. */
  async get(accountId: string, id: string): Promise<R | undefined> {
    const row = await this.t.get(id);
    return row && row.account_id === accountId ? row : undefined;
  }

  /** Any account's row; for the control API, the scheduler and cross-account rules only. */
  getAnyAccount(id: string): Promise<R | undefined> {
    return this.t.get(id);
  }

  /** The account's rows in list order (do not hold on to the array across writes). */
  list(accountId: string): Promise<readonly R[]> {
    return this.t.list(accountId);
  }

  all(): Promise<readonly R[]> {
    return this.t.all();
  }

  insert(row: R): Promise<R> {
    return this.t.insert(row);
  }

  update(row: R, change: (draft: Draft<R>) => void): Promise<R> {
    return this.t.update(row, change);
  }

  remove(row: R): Promise<void> {
    return this.t.remove(row);
  }
}

class ApiKeys extends Collection<ApiKeyRow> {
  byKey(value: string) {
    return this.t.one('key', value);
  }
  byIdentity(identity: string) {
    return this.t.one('identity', identity);
  }
  ofUser(userId: string) {
    return this.t.many('user', userId);
  }
}

class Users extends Collection<UserRow> {
  /** The account's user with this email, case-insensitively. */
  byEmail(accountId: string, email: string) {
    return this.t.one('email', key(accountId, email.toLowerCase()));
  }
}

class Switches extends Collection<SwitchRow> {
  usingApiKey(id: string) {
    return this.t.many('apiKey', id);
  }
  usingSecretKey(id: string) {
    return this.t.many('secretKey', id);
  }
}

class Numbers extends Collection<NumberRow> {
  /** The account's number, E.164 with the plus. */
  async byNumber(accountId: string, e164: string) {
    const row = await this.t.one('number', e164);
    return row?.account_id === accountId ? row : undefined;
  }
  /** Whether any account holds the number. */
  async taken(e164: string) {
    return (await this.t.one('number', e164)) !== undefined;
  }
  usingApiKey(id: string) {
    return this.t.many('apiKey', id);
  }
  usingSwitch(id: string) {
    return this.t.many('switch', id);
  }
  usingAutoResponse(id: string) {
    return this.t.many('autoResponse', id);
  }
  usingCampaign(id: string) {
    return this.t.many('campaign', id);
  }
}

class OptoutItems extends Collection<OptoutItemRow> {
  ofNumber(numberId: string) {
    return this.t.many('number', numberId);
  }
  byPair(numberId: string, remote: string) {
    return this.t.one('pair', key(numberId, remote));
  }
}

class Destinations extends Collection<DestinationRow> {
  ofNumber(numberId: string) {
    return this.t.many('number', numberId);
  }
}

class Carts extends Collection<CartRow> {
  byName(accountId: string, name: string) {
    return this.t.one('name', key(accountId, name));
  }
}

class Requests extends Collection<RequestRow> {
  /** The requests of a cart not yet checked out. */
  ofCart(cartId: string) {
    return this.t.many('cart', cartId);
  }
  ofOrder(orderId: string) {
    return this.t.many('order', orderId);
  }
}

class Documents extends Collection<DocumentRow> {
  ofRequest(requestId: string) {
    return this.t.many('request', requestId);
  }
  byName(requestId: string, name: string) {
    return this.t.one('name', key(requestId, name));
  }
}

class Campaigns extends Collection<CampaignRow> {
  /** The campaigns an account sees: its own, and those shared with it (spec: Resources > CSP campaign). */
  async visibleTo(accountId: string): Promise<CampaignRow[]> {
    return [...(await this.t.list(accountId)), ...(await this.t.many('sharedWith', accountId))];
  }
  /** A campaign the account sees, by its registry id. */
  async visibleByTcr(accountId: string, tcr: string): Promise<CampaignRow | undefined> {
    return (await this.t.many('tcr', tcr)).find((c) => campaignVisibleTo(c, accountId));
  }
}

class BulkDipTasks extends Collection<BulkDipTaskRow> {
  byReference(accountId: string, referenceId: string) {
    return this.t.one('reference', key(accountId, referenceId));
  }
}

class OverwriteRequests extends Collection<OverwriteRequestRow> {
  ofNumber(numberId: string) {
    return this.t.many('number', numberId);
  }
}

class Steps extends Collection<StepRow> {
  /** The account's earliest step. */
  async earliest(accountId: string): Promise<StepRow | undefined> {
    return (await this.t.list(accountId))[0];
  }
  /** The steps of one record (an order, a task, a delivery), by the index on `ref`. */
  ofRef(ref: string) {
    return this.t.many('ref', ref);
  }
}

class Deliveries extends Collection<DeliveryRow> {
  /** Deliveries an out-of-order fault holds back until the next one to the same target. */
  heldFor(target: string) {
    return this.t.many('held', target);
  }
}

/** A backend's table operations for each collection. */
export type TableSource = <K extends CollectionName>(name: K) => TableOps<Collections[K]>;

/** Every collection, as one unit of work sees them; each made on first use (most work touches few). */
export class Tables {
  private readonly made = new Map<string, unknown>();

  constructor(private readonly table: TableSource) {}

  private get<T>(name: CollectionName, make: (ops: never) => T): T {
    let c = this.made.get(name) as T | undefined;
    if (c === undefined) this.made.set(name, (c = make(this.table(name) as never)));
    return c;
  }

  get accounts(): Collection<AccountRow> {
    return this.get('accounts', (t) => new Collection<AccountRow>(t));
  }
  get users(): Users {
    return this.get('users', (t) => new Users(t));
  }
  get apiKeys(): ApiKeys {
    return this.get('api_keys', (t) => new ApiKeys(t));
  }
  get secretKeys(): Collection<SecretKeyRow> {
    return this.get('secret_keys', (t) => new Collection<SecretKeyRow>(t));
  }
  get switches(): Switches {
    return this.get('switches', (t) => new Switches(t));
  }
  get numbers(): Numbers {
    return this.get('numbers', (t) => new Numbers(t));
  }
  get autoResponses(): Collection<AutoResponseRow> {
    return this.get('auto_responses', (t) => new Collection<AutoResponseRow>(t));
  }
  get optoutItems(): OptoutItems {
    return this.get('optout_items', (t) => new OptoutItems(t));
  }
  get destinations(): Destinations {
    return this.get('destinations', (t) => new Destinations(t));
  }
  get carts(): Carts {
    return this.get('carts', (t) => new Carts(t));
  }
  get orders(): Collection<OrderRow> {
    return this.get('orders', (t) => new Collection<OrderRow>(t));
  }
  get requests(): Requests {
    return this.get('requests', (t) => new Requests(t));
  }
  get documents(): Documents {
    return this.get('documents', (t) => new Documents(t));
  }
  get campaigns(): Campaigns {
    return this.get('campaigns', (t) => new Campaigns(t));
  }
  get sharedResourceGroups(): Collection<SharedResourceGroupRow> {
    return this.get('shared_resource_groups', (t) => new Collection<SharedResourceGroupRow>(t));
  }
  get brands(): Collection<BrandRow> {
    return this.get('brands', (t) => new Collection<BrandRow>(t));
  }
  get bulkDipTasks(): BulkDipTasks {
    return this.get('bulk_dip_tasks', (t) => new BulkDipTasks(t));
  }
  get callDataWebhooks(): Collection<CallDataWebhookRow> {
    return this.get('call_data_webhooks', (t) => new Collection<CallDataWebhookRow>(t));
  }
  get eventSubscriptions(): Collection<EventSubscriptionRow> {
    return this.get('event_subscriptions', (t) => new Collection<EventSubscriptionRow>(t));
  }
  get overwriteRequests(): OverwriteRequests {
    return this.get('overwrite_requests', (t) => new OverwriteRequests(t));
  }
  get clocks(): Collection<ClockRow> {
    return this.get('clocks', (t) => new Collection<ClockRow>(t));
  }
  get steps(): Steps {
    return this.get('steps', (t) => new Steps(t));
  }
  get deliveries(): Deliveries {
    return this.get('deliveries', (t) => new Deliveries(t));
  }
}
