/**
 * Typed collections over lowdb, with names that say what a handler wants, and group commit:
 * writes made while a file write is under way are committed together by the next one.
 */
import { dirname, join } from 'node:path';
import { Low, Memory, type Adapter } from 'lowdb';
import { LogFile, type Change } from './log_file.js';
import { DiskFiles, MemoryFiles, type FileArea } from './files.js';
import { emptyDb, type AccountRow, type ApiKeyRow, type AutoResponseRow, type BulkDipTaskRow, type CallDataWebhookRow,
  type EventSubscriptionRow, type OverwriteRequestRow, type CampaignRow, type CartRow, type CollectionName,
  type DbData, type DestinationRow, type ScheduledStep, type DocumentRow, type OrderRow, type RequestRow, type NumberRow, type OptoutItemRow, type SecretKeyRow, type SharedResourceGroupRow, type SwitchRow,
  type UserRow } from './rows.js';

type AnyRow = DbData[CollectionName][number];

/** Where a collection reports what changed, so a commit writes only that. */
export interface ChangeTracker {
  put(collection: string, row: AnyRow): void;
  del(collection: string, id: string): void;
}

/** One collection: rows in insertion order, an index by id, every read scoped to an account. */
export class Collection<R extends AnyRow> {
  private index = new Map<string, R>();
  /** Each account's rows in list order: `inserted_at`, then `id` (interface.md section 5). */
  private byAccount = new Map<string, R[]>();
  private tracker: ChangeTracker | undefined;
  private name = '';

  /** `rows` is read lazily: the store swaps its whole state on reset. Call `reindex` after a swap. */
  constructor(private readonly rows: () => R[]) {}

  /** Connects the collection to the store's change log under its name in the state. */
  track(name: string, tracker: ChangeTracker): void {
    this.name = name;
    this.tracker = tracker;
  }

  reindex(): void {
    this.index = new Map(this.rows().map((r) => [r.data.id, r]));
    this.byAccount = new Map();
    for (const row of this.rows()) {
      let list = this.byAccount.get(row.account_id);
      if (!list) this.byAccount.set(row.account_id, (list = []));
      list.push(row);
    }
    for (const list of this.byAccount.values()) list.sort(compareRows);
  }

  /** The row with this id, if it belongs to the account. */
  get(accountId: string, id: string): R | undefined {
    const row = this.index.get(id);
    return row && row.account_id === accountId ? row : undefined;
  }

  /** Any account's row; for the control API and cross-account rules only. */
  getAnyAccount(id: string): R | undefined {
    return this.index.get(id);
  }

  /** The account's rows in list order; without a filter, the live list (do not change it). */
  list(accountId: string, filter?: (row: R) => boolean): readonly R[] {
    const rows = this.byAccount.get(accountId) ?? [];
    return filter ? rows.filter(filter) : rows;
  }

  find(pred: (row: R) => boolean): R | undefined {
    return this.rows().find(pred);
  }

  filter(pred: (row: R) => boolean): R[] {
    return this.rows().filter(pred);
  }

  insert(row: R): R {
    this.rows().push(row);
    this.index.set(row.data.id, row);
    let list = this.byAccount.get(row.account_id);
    if (!list) this.byAccount.set(row.account_id, (list = []));
    list.splice(sortedIndex(list, row), 0, row);
    this.tracker?.put(this.name, row);
    return row;
  }

  /** Says that rows were changed in place, so the next commit writes them. */
  touch(...rows: R[]): void {
    for (const row of rows) this.tracker?.put(this.name, row);
  }

  remove(row: R): void {
    const rows = this.rows();
    const i = rows.lastIndexOf(row);
    if (i >= 0) rows.splice(i, 1);
    this.index.delete(row.data.id);
    const list = this.byAccount.get(row.account_id);
    if (list) {
      const at = sortedIndex(list, row) - 1;
      const j = list[at] === row ? at : list.indexOf(row);
      if (j >= 0) list.splice(j, 1);
    }
    this.tracker?.del(this.name, row.data.id);
  }
}

function compareRows(a: AnyRow, b: AnyRow): number {
  const x = a.data.inserted_at;
  const y = b.data.inserted_at;
  return x < y ? -1 : x > y ? 1 : a.data.id < b.data.id ? -1 : a.data.id > b.data.id ? 1 : 0;
}

/** Where `row` goes in a sorted list: after every row that sorts before or with it. */
function sortedIndex(list: AnyRow[], row: AnyRow): number {
  let lo = 0;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (compareRows(list[mid]!, row) <= 0) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

class ApiKeys extends Collection<ApiKeyRow> {
  byKey(key: string): ApiKeyRow | undefined {
    return this.find((r) => r.data.key === key);
  }
  byIdentity(identity: string): ApiKeyRow | undefined {
    return this.find((r) => r.data.identity === identity);
  }
}

class Switches extends Collection<SwitchRow> {
  usingApiKey(id: string): SwitchRow[] {
    return this.filter((s) => s.api_key_id === id);
  }
  usingSecretKey(id: string): SwitchRow[] {
    return this.filter((s) => [s.mms_encryption_key_id, s.mms_signing_key_id, s.sms_encryption_key_id, s.sms_signing_key_id].includes(id));
  }
}

class Numbers extends Collection<NumberRow> {
  usingApiKey(id: string): NumberRow[] {
    return this.filter((n) => n.api_key_id === id);
  }
  usingSwitch(id: string): NumberRow[] {
    return this.filter((n) => n.switch_id === id);
  }
  usingAutoResponse(id: string): NumberRow[] {
    return this.filter((n) => n.auto_response_id === id);
  }
  /** The account's number, E.164 with the plus. */
  byNumber(accountId: string, e164: string): NumberRow | undefined {
    return this.find((n) => n.account_id === accountId && n.data.number === e164);
  }
}

class OptoutItems extends Collection<OptoutItemRow> {
  ofNumber(accountId: string, numberId: string): readonly OptoutItemRow[] {
    return this.list(accountId, (o) => o.number_id === numberId);
  }
  byPair(accountId: string, numberId: string, remote: string): OptoutItemRow | undefined {
    return this.find((o) => o.account_id === accountId && o.number_id === numberId && o.data.remote_number === remote);
  }
}

class Destinations extends Collection<DestinationRow> {
  ofNumber(accountId: string, numberId: string): readonly DestinationRow[] {
    return this.list(accountId, (d) => d.number_id === numberId);
  }
}

class Requests extends Collection<RequestRow> {
  ofCart(accountId: string, cartId: string): readonly RequestRow[] {
    return this.list(accountId, (r) => r.cart_id === cartId && r.order_id === null);
  }
  ofOrder(accountId: string, orderId: string): readonly RequestRow[] {
    return this.list(accountId, (r) => r.order_id === orderId);
  }
}

class Documents extends Collection<DocumentRow> {
  ofRequest(accountId: string, requestId: string): readonly DocumentRow[] {
    return this.list(accountId, (d) => d.request_id === requestId);
  }
}

class Carts extends Collection<CartRow> {
  private names = new Map<string, CartRow>();
  private readonly key = (accountId: string, name: string) => `${accountId}\u0000${name}`;

  override reindex(): void {
    super.reindex();
    this.names = new Map(this.filter(() => true).map((c) => [this.key(c.account_id, c.data.name), c]));
  }

  override insert(row: CartRow): CartRow {
    this.names.set(this.key(row.account_id, row.data.name), row);
    return super.insert(row);
  }

  override remove(row: CartRow): void {
    this.names.delete(this.key(row.account_id, row.data.name));
    super.remove(row);
  }

  /** The account's cart of this name, in constant time. */
  byName(accountId: string, name: string): CartRow | undefined {
    return this.names.get(this.key(accountId, name));
  }

  /** Changes a cart's name, keeping the name index right. */
  rename(row: CartRow, name: string): void {
    this.names.delete(this.key(row.account_id, row.data.name));
    row.data.name = name;
    this.names.set(this.key(row.account_id, name), row);
  }
}

/** The name of each collection property in the state (`apiKeys` → `api_keys`). */
const COLLECTION_NAMES: Record<string, CollectionName> = {
  users: 'users', apiKeys: 'api_keys', secretKeys: 'secret_keys', switches: 'switches', numbers: 'numbers',
  autoResponses: 'auto_responses', optoutItems: 'optout_items', destinations: 'destinations', carts: 'carts', orders: 'orders',
  requests: 'requests', documents: 'documents', campaigns: 'campaigns', sharedResourceGroups: 'shared_resource_groups',
  bulkDipTasks: 'bulk_dip_tasks', callDataWebhooks: 'call_data_webhooks', eventSubscriptions: 'event_subscriptions',
  overwriteRequests: 'overwrite_requests',
};

export type StoreOptions = { memory: true } | { file: string };

/** The state of every account, and how it reaches the disk. */
export class Store {
  readonly accounts: { list(): AccountRow[]; get(id: string): AccountRow | undefined };
  readonly users = new Collection<UserRow>(() => this.db.data.users);
  readonly apiKeys = new ApiKeys(() => this.db.data.api_keys);
  readonly secretKeys = new Collection<SecretKeyRow>(() => this.db.data.secret_keys);
  readonly switches = new Switches(() => this.db.data.switches);
  readonly numbers = new Numbers(() => this.db.data.numbers);
  readonly autoResponses = new Collection<AutoResponseRow>(() => this.db.data.auto_responses);
  readonly optoutItems = new OptoutItems(() => this.db.data.optout_items);
  readonly destinations = new Destinations(() => this.db.data.destinations);
  readonly carts = new Carts(() => this.db.data.carts);
  readonly orders = new Collection<OrderRow>(() => this.db.data.orders);
  readonly requests = new Requests(() => this.db.data.requests);
  readonly documents = new Documents(() => this.db.data.documents);
  readonly campaigns = new Collection<CampaignRow>(() => this.db.data.campaigns);
  readonly sharedResourceGroups = new Collection<SharedResourceGroupRow>(() => this.db.data.shared_resource_groups);
  readonly bulkDipTasks = new Collection<BulkDipTaskRow>(() => this.db.data.bulk_dip_tasks);
  readonly callDataWebhooks = new Collection<CallDataWebhookRow>(() => this.db.data.call_data_webhooks);
  readonly eventSubscriptions = new Collection<EventSubscriptionRow>(() => this.db.data.event_subscriptions);
  readonly overwriteRequests = new Collection<OverwriteRequestRow>(() => this.db.data.overwrite_requests);

  private inFlight: Promise<void> = Promise.resolve();
  private queued: Promise<void> | null = null;
  /** Rows put since the last commit, by collection and id (the last put wins). */
  private puts = new Map<string, Map<string, AnyRow>>();
  private dels: Change[] = [];
  /** Top-level values (accounts, schedule) changed since the last commit. */
  private sets = new Set<'accounts' | 'schedule'>();
  /** The next commit writes the whole state (after a replace or an account's removal). */
  private whole = true;

  private constructor(private readonly db: Low<DbData>, readonly files: FileArea, private readonly log: LogFile<DbData> | null) {
    this.accounts = {
      list: () => this.db.data.accounts,
      get: (id) => this.db.data.accounts.find((a) => a.id === id),
    };
    const tracker: ChangeTracker = {
      put: (collection, row) => {
        let rows = this.puts.get(collection);
        if (!rows) this.puts.set(collection, (rows = new Map()));
        rows.set(row.data.id, row);
      },
      del: (collection, id) => {
        this.puts.get(collection)?.delete(id);
        this.dels.push(['del', collection, id]);
      },
    };
    for (const [name, value] of Object.entries(this)) {
      if (value instanceof Collection) value.track(COLLECTION_NAMES[name] ?? name, tracker);
    }
  }

  /** Opens the store, reading the file if there is one; `isEmpty()` then says whether to seed. */
  static async open(opts: StoreOptions): Promise<Store> {
    const log = 'memory' in opts ? null : new LogFile<DbData>(opts.file);
    const adapter: Adapter<DbData> = log ?? new Memory<DbData>();
    const db = new Low<DbData>(adapter, emptyDb());
    await db.read();
    db.data = { ...emptyDb(), ...db.data };
    const files = 'memory' in opts ? new MemoryFiles() : new DiskFiles(join(dirname(opts.file), 'files'));
    const store = new Store(db, files, log);
    store.reindex();
    store.whole = false;
    return store;
  }

  isEmpty(): boolean {
    return this.db.data.accounts.length === 0;
  }

  /** Replaces the whole state (seeding, reset) and commits it; document files not in it are removed. */
  async replace(data: DbData): Promise<void> {
    this.db.data = structuredClone(data);
    this.whole = true;
    await this.files.keepOnly(new Set([...this.db.data.documents.map((d) => d.data.id), ...this.db.data.bulk_dip_tasks.map((t) => `result-${t.data.id}`)]));
    this.reindex();
    await this.commit();
  }

  /** The steps waiting on the clocks, earliest first. */
  readonly schedule = {
    add: (step: ScheduledStep): void => {
      const steps = this.db.data.schedule;
      let i = steps.length;
      while (i > 0 && (steps[i - 1] as ScheduledStep).at > step.at) i--;
      steps.splice(i, 0, step);
      this.sets.add('schedule');
    },
    remove: (step: ScheduledStep): void => {
      const i = this.db.data.schedule.indexOf(step);
      if (i >= 0) this.db.data.schedule.splice(i, 1);
      this.sets.add('schedule');
    },
    /** The account's earliest step, if any (or anyone's, without an account). */
    earliest: (accountId?: string): ScheduledStep | undefined =>
      this.db.data.schedule.find((s) => accountId === undefined || s.account_id === accountId),
    all: (): readonly ScheduledStep[] => this.db.data.schedule,
  };

  insertAccount(row: AccountRow): void {
    this.db.data.accounts.push(row);
    this.sets.add('accounts');
  }

  /** Removes an account and everything it owns, pending steps included. */
  deleteAccount(id: string): void {
    const data = this.db.data as unknown as Record<string, unknown>;
    for (const [name, rows] of Object.entries(data)) {
      if (!Array.isArray(rows) || name === 'accounts') continue;
      data[name] = (rows as { account_id?: string }[]).filter((r) => r.account_id !== id);
    }
    this.db.data.accounts = this.db.data.accounts.filter((a) => a.id !== id);
    this.reindex();
    this.whole = true;
  }

  /** A deep copy of the whole state (snapshots). */
  snapshot(): DbData {
    return structuredClone(this.db.data);
  }

  /**
   * Resolves once every change made before the call is on disk. Calls that arrive while a write
   * is running share the next write: one append (or snapshot) per batch, however many changes it holds.
   */
  commit(): Promise<void> {
    if (this.queued) return this.queued;
    const next = this.inFlight.then(() => {
      this.queued = null;
      return this.write();
    });
    this.queued = next;
    this.inFlight = next.catch(() => undefined);
    return next;
  }

  /** Appends what changed since the last write; the whole state when asked, or when the log has grown. */
  private async write(): Promise<void> {
    if (!this.log) {
      this.forget();
      return;
    }
    if (this.whole) {
      this.whole = false;
      this.forget();
      await this.log.write(this.db.data);
      return;
    }
    const changes: Change[] = [...this.dels];
    for (const [collection, rows] of this.puts) for (const row of rows.values()) changes.push(['put', collection, row]);
    for (const key of this.sets) changes.push(['set', key, this.db.data[key]]);
    this.forget();
    // serialized before the first await, so later changes to the same rows go to the next commit
    await this.log.append(changes);
    if (this.log.needsCompaction) await this.log.write(this.db.data);
  }

  private forget(): void {
    this.puts = new Map();
    this.dels = [];
    this.sets.clear();
  }

  /** Rebuilds every collection's id index after the state was swapped. */
  private reindex(): void {
    for (const value of Object.values(this)) if (value instanceof Collection) value.reindex();
  }
}
