/**
 * One account's view of a unit of work (AccountView, a UnitOfWork's `view`): what a handler, a
 * lifecycle step or a control call acting on an account works with. Its collections are over the
 * backend's rows themselves (collections.ts's Rows) and take no account: every read is of the view's
 * account's rows (an index read filtered inside), every new row is the view's account's, and a row of
 * another account given to `update` or `remove` is refused. Reading across accounts is the unit of
 * work's own (UnitOfWork), which only the scheduler, the control API and sandboxes take.
 */
import type {
  AccountRow,
  AnyRow,
  ApiKeyRow,
  BulkDipTaskRow,
  CampaignRow,
  CollectionName,
  Collections,
  DeliveryRow,
  DestinationRow,
  DocumentRow,
  Draft,
  NumberRow,
  OptoutItemRow,
  OverwriteRequestRow,
  RequestRow,
  StepRow,
  SwitchRow,
  UserRow,
} from '../domain/rows.js';
import { campaignVisibleTo } from '../domain/campaigns.js';
import { Rows, type RowSource, type RowStore, type SeqName, type Taken, type WorkFiles } from './collections.js';
import type { PageRows, PageWindow } from './page.js';
import { key } from './schema.js';

/** A row as the view makes it: its account is the view's. */
export type NewRow<R extends AnyRow> = Omit<R, 'account_id'>;

/** One collection of one account. */
export class Own<R extends AnyRow> extends Rows<R> {
  constructor(
    t: RowStore<R>,
    name: CollectionName,
    writable: () => void,
    protected readonly accountId: string,
  ) {
    super(t, name, writable);
  }

  /** The account's row with this id. */
  async get(id: string): Promise<R | undefined> {
    return this.ownOne(await this.t.get(id));
  }

  /** The account's rows in list order (do not hold on to the array across writes). */
  list(): Promise<readonly R[]> {
    return this.t.list(this.accountId);
  }

  /** One page of the account's list (src/store/page.ts). */
  page(window: PageWindow): Promise<PageRows<R>> {
    return this.pageOf(this.accountId, window);
  }

  /** Adds a row of the account. */
  insert(row: NewRow<R>, taken?: Taken): Promise<R> {
    // cast: R is NewRow<R> with the account added, which TypeScript cannot see of a generic R
    return this.put({ account_id: this.accountId, ...row } as unknown as R, taken);
  }

  update(row: R, change: (draft: Draft<R>) => void, taken?: Taken): Promise<R> {
    return this.change(this.mine(row), change, taken);
  }

  remove(row: R): Promise<void> {
    return this.drop(this.mine(row));
  }

  /** The rows of an index's key that are the account's. */
  protected async many(index: string, value: string): Promise<R[]> {
    return (await this.t.many(index, value)).filter((r) => r.account_id === this.accountId);
  }

  /** The row of a unique index's key, if it is the account's. */
  protected async one(index: string, value: string): Promise<R | undefined> {
    return this.ownOne(await this.t.one(index, value));
  }

  private ownOne(row: R | undefined): R | undefined {
    return row?.account_id === this.accountId ? row : undefined;
  }

  private mine(row: R): R {
    if (row.account_id !== this.accountId)
      throw new Error(`a row of another account given to ${this.accountId}'s view`);
    return row;
  }
}

/** The collections with index reads of their own (the indexes: schema.ts). */
class OwnAccounts extends Own<AccountRow> {
  /** The view's account itself. */
  self(): Promise<AccountRow | undefined> {
    return this.t.get(this.accountId);
  }
  /** Whether an account with this id exists (another account is named, never read). */
  async exists(id: string): Promise<boolean> {
    return (await this.t.get(id)) !== undefined;
  }
}

class OwnUsers extends Own<UserRow> {
  /** The account's user with this email, case-insensitively. */
  byEmail(email: string) {
    return this.one('email', key(this.accountId, email.toLowerCase()));
  }
}

class OwnApiKeys extends Own<ApiKeyRow> {
  ofUser(userId: string) {
    return this.many('user', userId);
  }
}

class OwnSwitches extends Own<SwitchRow> {
  usingApiKey(id: string) {
    return this.many('apiKey', id);
  }
  usingSecretKey(id: string) {
    return this.many('secretKey', id);
  }
}

class OwnNumbers extends Own<NumberRow> {
  /** The account's number, E.164 with the plus. */
  byNumber(e164: string) {
    return this.one('number', e164);
  }
  /** Whether any account holds the number (its row is not read). */
  async taken(e164: string) {
    return (await this.t.one('number', e164)) !== undefined;
  }
  usingApiKey(id: string) {
    return this.many('apiKey', id);
  }
  usingSwitch(id: string) {
    return this.many('switch', id);
  }
  usingAutoResponse(id: string) {
    return this.many('autoResponse', id);
  }
  usingCampaign(id: string) {
    return this.many('campaign', id);
  }
}

class OwnOptoutItems extends Own<OptoutItemRow> {
  ofNumber(numberId: string) {
    return this.many('number', numberId);
  }
  byPair(numberId: string, remote: string) {
    return this.one('pair', key(numberId, remote));
  }
}

class OwnDestinations extends Own<DestinationRow> {
  ofNumber(numberId: string) {
    return this.many('number', numberId);
  }
}

class OwnRequests extends Own<RequestRow> {
  /** The requests of a cart not yet checked out. */
  ofCart(cartId: string) {
    return this.many('cart', cartId);
  }
  ofOrder(orderId: string) {
    return this.many('order', orderId);
  }
}

class OwnDocuments extends Own<DocumentRow> {
  ofRequest(requestId: string) {
    return this.many('request', requestId);
  }
  byName(requestId: string, name: string) {
    return this.one('name', key(requestId, name));
  }
}

class OwnCampaigns extends Own<CampaignRow> {
  /** The campaigns the account sees: its own, and those shared with it (spec: Resources > CSP campaign). */
  async visible(): Promise<CampaignRow[]> {
    return [...(await this.list()), ...(await this.t.many('sharedWith', this.accountId))];
  }
  /** A campaign the account sees, by its id: its own, or one shared with it. */
  async visibleById(id: string) {
    const row = await this.t.get(id);
    return row && campaignVisibleTo(row, this.accountId) ? row : undefined;
  }
  /** A campaign the account sees, by its registry id. */
  async visibleByTcr(tcr: string) {
    return (await this.t.many('tcr', tcr)).find((c) => campaignVisibleTo(c, this.accountId));
  }
}

class OwnBulkDipTasks extends Own<BulkDipTaskRow> {
  byReference(referenceId: string) {
    return this.one('reference', key(this.accountId, referenceId));
  }
}

class OwnOverwriteRequests extends Own<OverwriteRequestRow> {
  ofNumber(numberId: string) {
    return this.many('number', numberId);
  }
}

class OwnSteps extends Own<StepRow> {
  /** The account's earliest step. */
  async earliest() {
    return (await this.list())[0];
  }
  /** The account's steps of one record (an order, a task, a delivery). */
  ofRef(ref: string) {
    return this.many('ref', ref);
  }
}

class OwnDeliveries extends Own<DeliveryRow> {
  /** Deliveries an out-of-order fault holds back until the next one to the same target. */
  heldFor(target: string) {
    return this.many('held', target);
  }
  /** Messages waiting for an SMPP bind of the key, oldest first. */
  waitingFor(keyId: string) {
    return this.many('waiting', keyId);
  }
}

/** What a view is made of besides its rows: the unit's files and hooks (a UnitOfWork). */
export interface ViewedUnit {
  readonly files: WorkFiles;
  afterCommit(fn: () => void | Promise<void>): void;
  nextSeq(name?: SeqName): Promise<number>;
}

/** One account's view of a unit of work: its collections, the unit's files and hooks. */
export class AccountView {
  private readonly made = new Map<string, unknown>();

  constructor(
    private readonly w: ViewedUnit,
    readonly accountId: string,
    private readonly rows: RowSource,
    private readonly writable: () => void,
  ) {}

  /** The account's collection `name`, made at its first use over the backend's rows. */
  private own<K extends CollectionName, O>(
    name: K,
    make: new (t: RowStore<Collections[K]>, name: K, writable: () => void, accountId: string) => O,
  ): O {
    let made = this.made.get(name) as O | undefined;
    if (!made) this.made.set(name, (made = new make(this.rows(name), name, this.writable, this.accountId)));
    return made;
  }

  get accounts() {
    return this.own('accounts', OwnAccounts);
  }
  get users() {
    return this.own('users', OwnUsers);
  }
  get apiKeys() {
    return this.own('api_keys', OwnApiKeys);
  }
  get secretKeys() {
    return this.own('secret_keys', Own);
  }
  get switches() {
    return this.own('switches', OwnSwitches);
  }
  get numbers() {
    return this.own('numbers', OwnNumbers);
  }
  get autoResponses() {
    return this.own('auto_responses', Own);
  }
  get optoutItems() {
    return this.own('optout_items', OwnOptoutItems);
  }
  get destinations() {
    return this.own('destinations', OwnDestinations);
  }
  get carts() {
    return this.own('carts', Own);
  }
  get orders() {
    return this.own('orders', Own);
  }
  get requests() {
    return this.own('requests', OwnRequests);
  }
  get documents() {
    return this.own('documents', OwnDocuments);
  }
  get campaigns() {
    return this.own('campaigns', OwnCampaigns);
  }
  get sharedResourceGroups() {
    return this.own('shared_resource_groups', Own);
  }
  get brands() {
    return this.own('brands', Own);
  }
  get bulkDipTasks() {
    return this.own('bulk_dip_tasks', OwnBulkDipTasks);
  }
  get callDataWebhooks() {
    return this.own('call_data_webhooks', Own);
  }
  get eventSubscriptions() {
    return this.own('event_subscriptions', Own);
  }
  get overwriteRequests() {
    return this.own('overwrite_requests', OwnOverwriteRequests);
  }
  get clocks() {
    return this.own('clocks', Own);
  }
  get steps() {
    return this.own('steps', OwnSteps);
  }
  get deliveries() {
    return this.own('deliveries', OwnDeliveries);
  }

  /** The unit's files (a document's bytes, a task's results). */
  get files(): WorkFiles {
    return this.w.files;
  }

  /** Runs `fn` once the work is durable (never if it is not committed). */
  afterCommit(fn: () => void | Promise<void>): void {
    this.w.afterCommit(fn);
  }

  nextSeq(name?: SeqName): Promise<number> {
    return this.w.nextSeq(name);
  }
}
