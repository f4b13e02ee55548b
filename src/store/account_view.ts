/**
 * One account's view of a unit of work (AccountView): what a handler, a lifecycle step or a control
 * call acting on an account works with. Its collections take no account: every read is of the view's
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
import type {
  Accounts,
  ApiKeys,
  BulkDipTasks,
  Campaigns,
  Collection,
  Deliveries,
  Destinations,
  Documents,
  Numbers,
  OptoutItems,
  OverwriteRequests,
  Requests,
  Steps,
  Switches,
  Taken,
  Users,
} from './collections.js';
import type { PageRows, PageWindow } from './page.js';
import type { SeqName, UnitOfWork, WorkFiles } from './store.js';

/** A row as the view makes it: its account is the view's. */
export type NewRow<R extends AnyRow> = Omit<R, 'account_id'>;

/** One collection of one account. */
export class Own<R extends AnyRow, C extends Collection<R> = Collection<R>> {
  constructor(
    protected readonly c: C,
    protected readonly accountId: string,
  ) {}

  /** The account's row with this id. */
  get(id: string): Promise<R | undefined> {
    return this.c.get(this.accountId, id);
  }

  /** The account's rows in list order (do not hold on to the array across writes). */
  list(): Promise<readonly R[]> {
    return this.c.list(this.accountId);
  }

  /** One page of the account's list (src/store/page.ts). */
  page(window: PageWindow): Promise<PageRows<R>> {
    return this.c.page(this.accountId, window);
  }

  /** Adds a row of the account. */
  insert(row: NewRow<R>, taken?: Taken): Promise<R> {
    // cast: R is NewRow<R> with the account added, which TypeScript cannot see of a generic R
    return this.c.insert({ account_id: this.accountId, ...row } as unknown as R, taken);
  }

  update(row: R, change: (draft: Draft<R>) => void, taken?: Taken): Promise<R> {
    return this.c.update(this.mine(row), change, taken);
  }

  remove(row: R): Promise<void> {
    return this.c.remove(this.mine(row));
  }

  /** The rows of an index read that are the account's. */
  protected own(rows: readonly R[]): R[] {
    return rows.filter((r) => r.account_id === this.accountId);
  }

  /** The row of an index read, if it is the account's. */
  protected ownOne(row: R | undefined): R | undefined {
    return row?.account_id === this.accountId ? row : undefined;
  }

  private mine(row: R): R {
    if (row.account_id !== this.accountId)
      throw new Error(`a row of another account given to ${this.accountId}'s view`);
    return row;
  }
}

/** A collection with no methods of its own, bound to the account. */
const plain = <R extends AnyRow>(c: Collection<R>, accountId: string): Own<R> => new Own(c, accountId);

/** The collections with methods of their own (collections.ts), bound to the account. */
class OwnAccounts extends Own<AccountRow, Accounts> {
  /** The view's account itself. */
  self(): Promise<AccountRow | undefined> {
    return this.c.getAnyAccount(this.accountId);
  }
  /** Whether an account with this id exists (another account is named, never read). */
  async exists(id: string): Promise<boolean> {
    return (await this.c.getAnyAccount(id)) !== undefined;
  }
}

class OwnUsers extends Own<UserRow, Users> {
  byEmail(email: string) {
    return this.c.byEmail(this.accountId, email);
  }
}

class OwnApiKeys extends Own<ApiKeyRow, ApiKeys> {
  async ofUser(userId: string) {
    return this.own(await this.c.ofUser(userId));
  }
}

class OwnSwitches extends Own<SwitchRow, Switches> {
  async usingApiKey(id: string) {
    return this.own(await this.c.usingApiKey(id));
  }
  async usingSecretKey(id: string) {
    return this.own(await this.c.usingSecretKey(id));
  }
}

class OwnNumbers extends Own<NumberRow, Numbers> {
  /** The account's number, E.164 with the plus. */
  byNumber(e164: string) {
    return this.c.byNumber(this.accountId, e164);
  }
  /** Whether any account holds the number (its row is not read). */
  taken(e164: string) {
    return this.c.taken(e164);
  }
  async usingApiKey(id: string) {
    return this.own(await this.c.usingApiKey(id));
  }
  async usingSwitch(id: string) {
    return this.own(await this.c.usingSwitch(id));
  }
  async usingAutoResponse(id: string) {
    return this.own(await this.c.usingAutoResponse(id));
  }
  async usingCampaign(id: string) {
    return this.own(await this.c.usingCampaign(id));
  }
}

class OwnOptoutItems extends Own<OptoutItemRow, OptoutItems> {
  async ofNumber(numberId: string) {
    return this.own(await this.c.ofNumber(numberId));
  }
  async byPair(numberId: string, remote: string) {
    return this.ownOne(await this.c.byPair(numberId, remote));
  }
}

class OwnDestinations extends Own<DestinationRow, Destinations> {
  async ofNumber(numberId: string) {
    return this.own(await this.c.ofNumber(numberId));
  }
}

class OwnRequests extends Own<RequestRow, Requests> {
  /** The requests of a cart not yet checked out. */
  async ofCart(cartId: string) {
    return this.own(await this.c.ofCart(cartId));
  }
  async ofOrder(orderId: string) {
    return this.own(await this.c.ofOrder(orderId));
  }
}

class OwnDocuments extends Own<DocumentRow, Documents> {
  async ofRequest(requestId: string) {
    return this.own(await this.c.ofRequest(requestId));
  }
  async byName(requestId: string, name: string) {
    return this.ownOne(await this.c.byName(requestId, name));
  }
}

class OwnCampaigns extends Own<CampaignRow, Campaigns> {
  /** The campaigns the account sees: its own, and those shared with it (spec: Resources > CSP campaign). */
  visible() {
    return this.c.visibleTo(this.accountId);
  }
  /** A campaign the account sees, by its id: its own, or one shared with it. */
  async visibleById(id: string) {
    const row = await this.c.getAnyAccount(id);
    return row && campaignVisibleTo(row, this.accountId) ? row : undefined;
  }
  /** A campaign the account sees, by its registry id. */
  visibleByTcr(tcr: string) {
    return this.c.visibleByTcr(this.accountId, tcr);
  }
}

class OwnBulkDipTasks extends Own<BulkDipTaskRow, BulkDipTasks> {
  byReference(referenceId: string) {
    return this.c.byReference(this.accountId, referenceId);
  }
}

class OwnOverwriteRequests extends Own<OverwriteRequestRow, OverwriteRequests> {
  async ofNumber(numberId: string) {
    return this.own(await this.c.ofNumber(numberId));
  }
}

class OwnSteps extends Own<StepRow, Steps> {
  /** The account's earliest step. */
  async earliest() {
    return (await this.list())[0];
  }
  /** The account's steps of one record (an order, a task, a delivery). */
  async ofRef(ref: string) {
    return this.own(await this.c.ofRef(ref));
  }
}

class OwnDeliveries extends Own<DeliveryRow, Deliveries> {
  async heldFor(target: string) {
    return this.own(await this.c.heldFor(target));
  }
  async waitingFor(keyId: string) {
    return this.own(await this.c.waitingFor(keyId));
  }
}

/** One account's view of a unit of work: its collections, the unit's files and hooks. */
export class AccountView {
  private readonly made = new Map<string, unknown>();

  constructor(
    private readonly w: UnitOfWork,
    readonly accountId: string,
  ) {}

  private bound<T>(name: string, make: () => T): T {
    let made = this.made.get(name) as T | undefined;
    if (!made) this.made.set(name, (made = make()));
    return made;
  }

  get accounts() {
    return this.bound('accounts', () => new OwnAccounts(this.w.accounts, this.accountId));
  }
  get users() {
    return this.bound('users', () => new OwnUsers(this.w.users, this.accountId));
  }
  get apiKeys() {
    return this.bound('apiKeys', () => new OwnApiKeys(this.w.apiKeys, this.accountId));
  }
  get secretKeys() {
    return this.bound('secretKeys', () => plain(this.w.secretKeys, this.accountId));
  }
  get switches() {
    return this.bound('switches', () => new OwnSwitches(this.w.switches, this.accountId));
  }
  get numbers() {
    return this.bound('numbers', () => new OwnNumbers(this.w.numbers, this.accountId));
  }
  get autoResponses() {
    return this.bound('autoResponses', () => plain(this.w.autoResponses, this.accountId));
  }
  get optoutItems() {
    return this.bound('optoutItems', () => new OwnOptoutItems(this.w.optoutItems, this.accountId));
  }
  get destinations() {
    return this.bound('destinations', () => new OwnDestinations(this.w.destinations, this.accountId));
  }
  get carts() {
    return this.bound('carts', () => plain(this.w.carts, this.accountId));
  }
  get orders() {
    return this.bound('orders', () => plain(this.w.orders, this.accountId));
  }
  get requests() {
    return this.bound('requests', () => new OwnRequests(this.w.requests, this.accountId));
  }
  get documents() {
    return this.bound('documents', () => new OwnDocuments(this.w.documents, this.accountId));
  }
  get campaigns() {
    return this.bound('campaigns', () => new OwnCampaigns(this.w.campaigns, this.accountId));
  }
  get sharedResourceGroups() {
    return this.bound('sharedResourceGroups', () => plain(this.w.sharedResourceGroups, this.accountId));
  }
  get brands() {
    return this.bound('brands', () => plain(this.w.brands, this.accountId));
  }
  get bulkDipTasks() {
    return this.bound('bulkDipTasks', () => new OwnBulkDipTasks(this.w.bulkDipTasks, this.accountId));
  }
  get callDataWebhooks() {
    return this.bound('callDataWebhooks', () => plain(this.w.callDataWebhooks, this.accountId));
  }
  get eventSubscriptions() {
    return this.bound('eventSubscriptions', () => plain(this.w.eventSubscriptions, this.accountId));
  }
  get overwriteRequests() {
    return this.bound('overwriteRequests', () => new OwnOverwriteRequests(this.w.overwriteRequests, this.accountId));
  }
  get clocks() {
    return this.bound('clocks', () => plain(this.w.clocks, this.accountId));
  }
  get steps() {
    return this.bound('steps', () => new OwnSteps(this.w.steps, this.accountId));
  }
  get deliveries() {
    return this.bound('deliveries', () => new OwnDeliveries(this.w.deliveries, this.accountId));
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
