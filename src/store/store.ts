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
  collectionGetters,
  collectionOf,
  type AnyCollections,
  type OwnCollections,
  type RowStore,
  type SeqName,
  type WorkFiles,
} from './collections.js';
import { namedFiles } from './files.js';
import { COLLECTION_NAMES, type AnyRow, type CollectionName, type Collections, type DbData } from './schema.js';
import type { ApiKeyRow, ClockRow, UserRow } from '../domain/rows.js';

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

/**
 * The bases that type the collections of a unit of work (across accounts) and of an account's view:
 * empty classes, whose subclasses' getters (made in their static blocks) are the collections.
 */
// cast: the getters are defined on the subclasses' prototypes by a loop, which no class body can declare
const AcrossAccounts = class {} as unknown as abstract new () => AnyCollections;
// cast: as above, for one account's collections
const OfAccount = class {} as unknown as new () => OwnCollections;

/**
 * One request's (or one step's) unit of work: every collection across accounts (`view` gives one
 * account's), its files, its hooks, committed once or leaving nothing. Each backend's unit of work
 * extends it with its storage (its rows, files, sequences, whole-state replace and export, an
 * account's rows dropped); the guards are here: a read-only work writes nothing, only whole-state
 * work replaces the state or removes an account, and a collection's writes are checked against them.
 * Its collections are schema.ts's, each bound to every account (collections.ts), made on its first
 * use (most work touches few) by the getters its static block defines.
 */
export abstract class UnitOfWork extends AcrossAccounts {
  private readonly made: Partial<Record<CollectionName, unknown>> = {};
  private readonly views = new Map<string, AccountView>();
  private guarded?: WorkFiles;

  static {
    collectionGetters(this, (self, name) => (self.made[name] ??= self.collectionOf(name, null)));
  }

  constructor(
    protected readonly readOnly: boolean,
    protected readonly global: boolean,
  ) {
    super();
  }

  /** The collection `name` over this unit's rows, bound to `account` (null: every account). */
  collectionOf<K extends CollectionName>(name: K, account: string | null) {
    return collectionOf(name, this.rows(name), () => this.writable(), account);
  }

  /** One account's view of this unit: its rows alone, made once a unit and account. */
  view(accountId: string): AccountView {
    let view = this.views.get(accountId);
    if (!view) this.views.set(accountId, (view = new AccountView(this, accountId)));
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
    const own = this.view(accountId);
    const files = namedFiles(await own.documents.list(), await own.bulkDipTasks.list());
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
      const table = this.collectionOf(name, null);
      for (const row of rows[name] ?? []) if (row.account_id === accountId) await table.insert(row as never);
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
 * One account's view of a unit of work: what a handler, a lifecycle step or a control call acting on
 * an account works with (its Work extends it: src/engine/work.ts). Its collections take no account:
 * every read is of the account's rows (an index read filtered inside), every new row is the
 * account's, and a row of another account given to `update` or `remove` is refused. Reading across
 * accounts is the unit of work's own, which only the scheduler, the control API and sandboxes take.
 */
export class AccountView extends OfAccount {
  private readonly made: Partial<Record<CollectionName, unknown>> = {};

  static {
    collectionGetters(this, (self, name) => (self.made[name] ??= self.unit.collectionOf(name, self.accountId)));
  }

  constructor(
    private readonly unit: UnitOfWork,
    readonly accountId: string,
  ) {
    super();
  }

  /** The unit's files (a document's bytes, a task's results). */
  get files(): WorkFiles {
    return this.unit.files;
  }

  /** Runs `fn` once the work is durable (never if it is not committed). */
  afterCommit(fn: () => void | Promise<void>): void {
    this.unit.afterCommit(fn);
  }

  nextSeq(name?: SeqName): Promise<number> {
    return this.unit.nextSeq(name);
  }
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
  /** Slots held over every instance (a bound that must hold under a race: an account's listeners). */
  readonly slots: Slots;
}

/** A bound held over every instance: slots of an account taken under its lock, lapsing unless kept. */
export interface Slots {
  /** Takes a slot of the account's `kind` while fewer than `limit` are held (those not kept within `ttlMs` lapse). */
  take(kind: string, account: string, id: string, limit: number, ttlMs: number): Promise<boolean>;
  /** Gives the slot back. */
  give(id: string): Promise<void>;
  /** Keeps this instance's slots from lapsing. */
  keep(ids: readonly string[]): Promise<void>;
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
