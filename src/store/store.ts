/**
 * The store as the rest of dipswitch sees it, whatever the backend: work runs in a unit of work
 * that is committed once, durably, or leaves nothing behind. The embedded JSON store
 * (json_store.ts) is one backend; a database is another.
 *
 * What a unit of work sees (both backends keep it; test/store/isolation.test.ts runs it on both):
 * - a work sees its own changes at once, and every change of a work committed before it began;
 * - a work that throws leaves nothing: once it has failed, no later work sees any of its changes;
 * - the writes of one account are serialized: a write of the account waits for the account's write
 *   before it, so no two interleave between a check and its write;
 * - a read waits for no write. The weaker half of the rule: a read may see the changes of an
 *   account's write still in flight on the embedded store, which changes its tables in place (a read
 *   copies nothing and takes no lock, so a GET costs what its rows cost), and which undoes those
 *   changes if the write then fails; the database's reads see committed rows only. A read that must
 *   not see a write in flight is made in that account's work (`{ account }`), which waits for it.
 */
import {
  Accounts,
  ApiKeys,
  Collection,
  Deliveries,
  Numbers,
  Steps,
  type RowStore,
  type SeqName,
  type WorkFiles,
} from './collections.js';
import { AccountView } from './account_view.js';
import { namedFiles } from './files.js';
import { COLLECTION_NAMES } from '../domain/rows.js';
import type { AnyRow, ApiKeyRow, ClockRow, CollectionName, Collections, DbData, UserRow } from '../domain/rows.js';

/** The disk (or database) refused a write: the answer is 503 `storage_unavailable`, and nothing was kept. */
export class StorageUnavailable extends Error {
  constructor(override readonly cause: unknown) {
    super(`the store could not write: ${(cause as Error)?.message ?? String(cause)}`);
  }
}

/**
 * What work may touch and whom it waits for: one account's records (serialized with the account's
 * other work), the whole state (alone), or reads only (waits for no one).
 */
export type WorkScope = { account: string } | { global: true } | { read: true };

/** An API key found by one of its unique indexes (`key`: the bearer key, `identity`: Basic's identity). */
export interface KeyLookup {
  index: 'key' | 'identity';
  value: string;
}

/**
 * What a caller's key names, read before any unit of work opens (Store.caller): the key, its user
 * (an impersonated key's) and its account's clock row. `key` is absent when no key matched.
 */
export interface CallerRows {
  key: ApiKeyRow | undefined;
  user: UserRow | undefined;
  /** undefined: the account never changed its clock. */
  clock: ClockRow | undefined;
}

/** The collections whose rows a caller's rows are made of: a commit changing one of them makes them read again. */
export const CALLER_COLLECTIONS: readonly CollectionName[] = ['accounts', 'api_keys', 'users', 'clocks'];

/** The collections with methods of their own (collections.ts); every other one is a plain Collection of its rows. */
interface Special {
  accounts: Accounts;
  api_keys: ApiKeys;
  numbers: Numbers;
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
 * One request's (or one step's) unit of work: every collection across accounts (`view` gives one
 * account's), its files, its hooks, committed once or leaving nothing. Each backend's unit of work
 * extends it with its storage (its rows, files, sequences, whole-state replace and export, an
 * account's rows dropped); the guards are here: a read-only work writes nothing, only whole-state
 * work replaces the state or removes an account, and a collection's writes are checked against them.
 * A collection is made on its first use (most work touches few); `implements CollectionSet` keeps
 * the getters and the schema's names one list.
 */
export abstract class UnitOfWork implements CollectionSet {
  private readonly made: { -readonly [K in keyof CollectionSet]?: CollectionSet[K] } = {};
  private readonly views = new Map<string, AccountView>();
  private guarded?: WorkFiles;

  constructor(
    protected readonly readOnly: boolean,
    protected readonly global: boolean,
  ) {}

  /** The backend's rows of a collection, with the unit's guard: a collection's arguments. */
  private table<K extends CollectionName>(name: K): [RowStore<Collections[K]>, K, () => void] {
    return [this.rows(name), name, () => this.writable()];
  }

  get accounts() {
    return (this.made.accounts ??= new Accounts(...this.table('accounts')));
  }
  get users() {
    return (this.made.users ??= new Collection(...this.table('users')));
  }
  get apiKeys() {
    return (this.made.apiKeys ??= new ApiKeys(...this.table('api_keys')));
  }
  get secretKeys() {
    return (this.made.secretKeys ??= new Collection(...this.table('secret_keys')));
  }
  get switches() {
    return (this.made.switches ??= new Collection(...this.table('switches')));
  }
  get numbers() {
    return (this.made.numbers ??= new Numbers(...this.table('numbers')));
  }
  get autoResponses() {
    return (this.made.autoResponses ??= new Collection(...this.table('auto_responses')));
  }
  get optoutItems() {
    return (this.made.optoutItems ??= new Collection(...this.table('optout_items')));
  }
  get destinations() {
    return (this.made.destinations ??= new Collection(...this.table('destinations')));
  }
  get carts() {
    return (this.made.carts ??= new Collection(...this.table('carts')));
  }
  get orders() {
    return (this.made.orders ??= new Collection(...this.table('orders')));
  }
  get requests() {
    return (this.made.requests ??= new Collection(...this.table('requests')));
  }
  get documents() {
    return (this.made.documents ??= new Collection(...this.table('documents')));
  }
  get campaigns() {
    return (this.made.campaigns ??= new Collection(...this.table('campaigns')));
  }
  get sharedResourceGroups() {
    return (this.made.sharedResourceGroups ??= new Collection(...this.table('shared_resource_groups')));
  }
  get brands() {
    return (this.made.brands ??= new Collection(...this.table('brands')));
  }
  get bulkDipTasks() {
    return (this.made.bulkDipTasks ??= new Collection(...this.table('bulk_dip_tasks')));
  }
  get callDataWebhooks() {
    return (this.made.callDataWebhooks ??= new Collection(...this.table('call_data_webhooks')));
  }
  get eventSubscriptions() {
    return (this.made.eventSubscriptions ??= new Collection(...this.table('event_subscriptions')));
  }
  get overwriteRequests() {
    return (this.made.overwriteRequests ??= new Collection(...this.table('overwrite_requests')));
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

  /** One account's view of this unit: its rows alone (account_view.ts), made once a unit and account. */
  view(accountId: string): AccountView {
    let view = this.views.get(accountId);
    if (!view) {
      view = new AccountView(
        this,
        accountId,
        (name) => this.rows(name),
        () => this.writable(),
      );
      this.views.set(accountId, view);
    }
    return view;
  }

  /** The unit's files (a document's bytes, a task's results): a file put is kept only if the work commits. */
  get files(): WorkFiles {
    return (this.guarded ??= this.guard(this.storedFiles()));
  }

  /** Runs `fn` once the work is durable (never if it is not committed). */
  afterCommit(fn: () => void | Promise<void>): void {
    this.writable();
    this.onCommit(fn);
  }

  /** A number of the sequence larger than any it answered before, across restarts. */
  nextSeq(name: SeqName = 'steps'): Promise<number> {
    return this.sequence(name);
  }

  /** Replaces the whole state (seeding, reset, restore): whole-state work only. */
  async replaceAll(data: DbData): Promise<void> {
    this.wholeState();
    await this.replaceState(data);
  }

  /** Removes an account and every row it owns, and its files once the work commits: whole-state work only. */
  async removeAccount(accountId: string): Promise<void> {
    this.wholeState();
    const files = namedFiles(await this.documents.list(accountId), await this.bulkDipTasks.list(accountId));
    await this.dropAccount(accountId);
    for (const id of files) this.files.remove(id);
  }

  /** Every row the account owns, by collection (a snapshot of one account). */
  async accountState(accountId: string): Promise<Partial<DbData>> {
    const state: Partial<Record<CollectionName, readonly AnyRow[]>> = {};
    for (const name of COLLECTION_NAMES) {
      const rows = await this.rows(name).list(accountId);
      if (rows.length) state[name] = [...rows];
    }
    return state as Partial<DbData>;
  }

  /**
   * Replaces every row of one account with `rows` (those of another account among them are left
   * out): a reset or restore of one account, every other account untouched. Whole-state work only.
   */
  async replaceAccount(accountId: string, rows: Partial<DbData>): Promise<void> {
    await this.removeAccount(accountId);
    for (const name of COLLECTION_NAMES) {
      const table = new Collection(...this.table(name));
      for (const row of rows[name] ?? []) if (row.account_id === accountId) await table.insert(row);
    }
  }

  /** Tells the other instances `payload` on `topic` if, and once, the work commits (a store one process owns: nothing). */
  async tell(topic: PeerTopic, payload: string): Promise<void> {
    if (!this.notify) return;
    this.writable();
    await this.notify(topic, payload);
  }

  /** The whole state as it stands in this work (snapshots). */
  abstract exportState(): Promise<DbData>;

  /** Why this work may write nothing more (the disk refused one of its store's writes), if it may not. */
  protected poisoned(): unknown {
    return null;
  }

  /** Throws when the work may not write (it only reads, or its store refused a write). */
  protected writable(): void {
    const poison = this.poisoned();
    if (poison) throw new StorageUnavailable(poison);
    if (this.readOnly) throw new Error('this unit of work only reads');
  }

  /** The backend's files, their writes refused where the work may not write. */
  private guard(stored: WorkFiles): WorkFiles {
    return {
      put: async (id, bytes) => {
        this.writable();
        await stored.put(id, bytes);
      },
      get: (id) => stored.get(id),
      remove: (id) => {
        this.writable();
        stored.remove(id);
      },
    };
  }

  private wholeState(): void {
    this.writable();
    if (!this.global) throw new Error('only whole-state work may do this');
  }

  /** The backend's rows of a collection. */
  protected abstract rows<K extends CollectionName>(name: K): RowStore<Collections[K]>;
  /** The backend's files: a file put is kept only if the work commits; one removed goes only then. */
  protected abstract storedFiles(): WorkFiles;
  /** Runs `fn` once the work is durable. */
  protected abstract onCommit(fn: () => void | Promise<void>): void;
  protected abstract sequence(name: SeqName): Promise<number>;
  protected abstract replaceState(data: DbData): Promise<void>;
  /** Removes every row of the account (its files are the base's). */
  protected abstract dropAccount(accountId: string): Promise<void>;
  /** Tells the other instances, once the work commits (a store several instances share). */
  protected notify?(topic: PeerTopic, payload: string): Promise<void>;
}

/**
 * What instances over one store tell each other: steps scheduled (an account id, `*` for all), calls
 * journaled, a message waiting for an SMPP bind of a key (its id), the rows of callers changed (the
 * accounts' ids, `*` for all), the fault rules changed, who listens and what a listener heard (src/engine/listeners.ts).
 */
export type PeerTopic = 'steps' | 'journal' | 'smpp' | 'callers' | 'faults' | 'listeners';

/** The other instances over the same store (PostgreSQL's LISTEN/NOTIFY). */
export interface Peers {
  /** Tells every other instance `payload` on `topic`; a failure is only logged (a peer also finds it by reading). */
  tell(topic: PeerTopic, payload: string): void;
  /** Calls `fn` with each `payload` another instance tells on `topic`. */
  hear(topic: PeerTopic, fn: (payload: string) => void): void;
}

export interface Store {
  /** Human-readable: where the state lives. */
  readonly location: string;
  /** Other processes may work on the same state (PostgreSQL); absent for the embedded store, which one process owns. */
  readonly peers?: Peers;
  /**
   * Runs `fn` in one unit of work and commits it: resolves once every change is durable, after the
   * work's after-commit hooks ran. If `fn` throws, nothing it changed is kept, in memory or on disk.
   */
  run<T>(scope: WorkScope, fn: (work: UnitOfWork) => Promise<T>): Promise<T>;
  /**
   * The rows a caller's key names (CallerRows), outside any unit of work: what a call is and may do
   * is known before its unit opens. A store other instances share may answer from a copy, which a
   * commit changing those rows (CALLER_COLLECTIONS) on any instance makes it read again.
   */
  caller(lookup: KeyLookup): Promise<CallerRows>;
  /** Whether the store was created empty by this start (the caller seeds it). */
  readonly created: boolean;
  /** Where this process serves, told to a process the store's owner refuses (the embedded store's). */
  serving?(url: string): void;
  /** Its size on disk in bytes (the embedded store's snapshot and log, the database's); absent in memory. */
  size?(): Promise<number | undefined>;
  /**
   * Resolves once the store answered a statement, within READY_PROBE_MS; throws StorageUnavailable when
   * it does not (readiness, `GET /__sim/ready`). Absent where the store is this process's own.
   */
  reachable?(): Promise<void>;
  close(): Promise<void>;
}

/** The longest a readiness probe waits for the store to answer. */
export const READY_PROBE_MS = 2_000;
