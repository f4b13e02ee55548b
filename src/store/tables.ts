/**
 * The collections of one unit of work, by their camel-cased names (`w.apiKeys`), each made on its
 * first use over the backend's rows with the unit's guard (collections.ts says what each one offers).
 */
import type { CollectionName, Collections } from '../domain/rows.js';
import {
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
  Users,
  type RowSource,
  type RowStore,
} from './collections.js';

/** The collections with methods of their own (collections.ts); every other one is a plain Collection of its rows. */
interface Special {
  accounts: Accounts;
  users: Users;
  api_keys: ApiKeys;
  switches: Switches;
  numbers: Numbers;
  optout_items: OptoutItems;
  destinations: Destinations;
  requests: Requests;
  documents: Documents;
  campaigns: Campaigns;
  bulk_dip_tasks: BulkDipTasks;
  overwrite_requests: OverwriteRequests;
  steps: Steps;
  deliveries: Deliveries;
}

/** `api_keys` as a property name: `apiKeys`. */
type Camel<S extends string> = S extends `${infer Head}_${infer Tail}` ? `${Head}${Capitalize<Camel<Tail>>}` : S;

/** Every collection of the schema (rows.ts COLLECTION_NAMES), by its camel-cased name. */
export type CollectionSet = {
  readonly [K in CollectionName as Camel<K>]: K extends keyof Special ? Special[K] : Collection<Collections[K]>;
};

/**
 * Every collection, as one unit of work sees them; each made on first use (most work touches few).
 * `implements CollectionSet` keeps the getters and the schema's names one list.
 */
export class Tables implements CollectionSet {
  private readonly made: { -readonly [K in keyof CollectionSet]?: CollectionSet[K] } = {};

  constructor(
    private readonly rows: RowSource,
    private readonly writable: () => void,
  ) {}

  /** The backend's rows of a collection, with the unit's guard: a collection's arguments. */
  private table<K extends CollectionName>(name: K): [RowStore<Collections[K]>, K, () => void] {
    return [this.rows(name), name, this.writable];
  }

  get accounts() {
    return (this.made.accounts ??= new Accounts(...this.table('accounts')));
  }
  get users() {
    return (this.made.users ??= new Users(...this.table('users')));
  }
  get apiKeys() {
    return (this.made.apiKeys ??= new ApiKeys(...this.table('api_keys')));
  }
  get secretKeys() {
    return (this.made.secretKeys ??= new Collection(...this.table('secret_keys')));
  }
  get switches() {
    return (this.made.switches ??= new Switches(...this.table('switches')));
  }
  get numbers() {
    return (this.made.numbers ??= new Numbers(...this.table('numbers')));
  }
  get autoResponses() {
    return (this.made.autoResponses ??= new Collection(...this.table('auto_responses')));
  }
  get optoutItems() {
    return (this.made.optoutItems ??= new OptoutItems(...this.table('optout_items')));
  }
  get destinations() {
    return (this.made.destinations ??= new Destinations(...this.table('destinations')));
  }
  get carts() {
    return (this.made.carts ??= new Collection(...this.table('carts')));
  }
  get orders() {
    return (this.made.orders ??= new Collection(...this.table('orders')));
  }
  get requests() {
    return (this.made.requests ??= new Requests(...this.table('requests')));
  }
  get documents() {
    return (this.made.documents ??= new Documents(...this.table('documents')));
  }
  get campaigns() {
    return (this.made.campaigns ??= new Campaigns(...this.table('campaigns')));
  }
  get sharedResourceGroups() {
    return (this.made.sharedResourceGroups ??= new Collection(...this.table('shared_resource_groups')));
  }
  get brands() {
    return (this.made.brands ??= new Collection(...this.table('brands')));
  }
  get bulkDipTasks() {
    return (this.made.bulkDipTasks ??= new BulkDipTasks(...this.table('bulk_dip_tasks')));
  }
  get callDataWebhooks() {
    return (this.made.callDataWebhooks ??= new Collection(...this.table('call_data_webhooks')));
  }
  get eventSubscriptions() {
    return (this.made.eventSubscriptions ??= new Collection(...this.table('event_subscriptions')));
  }
  get overwriteRequests() {
    return (this.made.overwriteRequests ??= new OverwriteRequests(...this.table('overwrite_requests')));
  }
  get clocks() {
    return (this.made.clocks ??= new Collection(...this.table('clocks')));
  }
  get steps() {
    return (this.made.steps ??= new Steps(...this.table('steps')));
  }
  get deliveries() {
    return (this.made.deliveries ??= new Deliveries(...this.table('deliveries')));
  }
}
