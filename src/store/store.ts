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
import { Tables, type TableSource } from './tables.js';
import { COLLECTION_NAMES } from '../domain/rows.js';
import type { AnyRow, ApiKeyRow, ClockRow, CollectionName, DbData, UserRow } from '../domain/rows.js';

/** The disk (or database) refused a write: the answer is 503 `storage_unavailable`, and nothing was kept. */
export class StorageUnavailable extends Error {
  constructor(override readonly cause: unknown) {
    super(`the store could not write: ${(cause as Error)?.message ?? String(cause)}`);
  }
}

/**
 * What work may touch and whom it waits for: one account's records (serialized with the account's
 * other work), the whole state (alone), reads only (waits for no one), or a call's (CallScope): the
 * work of the account its caller's key names, found by the work's first read (UnitOfWork.caller).
 */
export type WorkScope = { account: string } | { global: true } | { read: true } | { call: CallScope };

/**
 * A call of the simulated API, as its work asks the store: whether it writes (its account's work,
 * serialized with the account's other writes, once `caller` named the account) or only reads; what it
 * is (`task`: its operation) and the values it was given (`args`: its path parameters and query). A
 * backend whose reads are round trips may learn from the works of a task what such a work reads
 * first, and read it with the caller's key (src/store/postgres/read_ahead.ts).
 */
export interface CallScope {
  writes: boolean;
  task: string;
  args: Readonly<Record<string, string>>;
}

/** Counters: the order of steps due at one time, and the blocks of sandbox numbers. */
export type SeqName = 'steps' | 'sandboxes';

/** The document files of a unit of work: written at once, removed only once the work is durable. */
export interface WorkFiles {
  /** Writes the file now (durably); it is removed again if the work is not committed. */
  put(id: string, bytes: Buffer): Promise<void>;
  get(id: string): Promise<Buffer | undefined>;
  /** Removes the file once the work is committed. */
  remove(id: string): void;
}

/** An API key found by one of its unique indexes (`key`: the bearer key, `identity`: Basic's identity). */
export interface KeyLookup {
  index: 'key' | 'identity';
  value: string;
}

/**
 * What every call of the simulated API reads first, in one read: the caller's key, its user (an
 * impersonated key's), its account's clock row, and the version of the shared fault rules (a store
 * other instances share; src/store/postgres/shared.ts). `key` is absent when no key matched.
 */
export interface CallerRows {
  key: ApiKeyRow | undefined;
  user: UserRow | undefined;
  /** undefined: the account never changed its clock. */
  clock: ClockRow | undefined;
  faultsVersion?: number;
}

/** The backend's side of a unit of work, beside its tables. */
export interface WorkBackend {
  table: TableSource;
  /** The caller's rows in one round trip; without it, they are read one table at a time. */
  caller?(key: KeyLookup): Promise<CallerRows>;
  /** A call's work is now the work of this account (the caller's): a writing call takes its lock. */
  bind?(accountId: string): Promise<void>;
  /** Waits for `pending` holding nothing (UnitOfWork.wait). */
  wait?<T>(pending: () => Promise<T>): Promise<T>;
  files: WorkFiles;
  afterCommit(fn: () => void | Promise<void>): void;
  nextSeq(name: SeqName): Promise<number>;
  replaceAll(data: DbData): Promise<void>;
  removeAccount(accountId: string): Promise<void>;
  exportState(): Promise<DbData>;
  /** Tells the other instances, once the work commits (absent for a store one process owns). */
  tell?(topic: PeerTopic, payload: string): Promise<void>;
}

/** One request's (or one step's) view of the store: every collection, its files, and hooks. */
export class UnitOfWork extends Tables {
  readonly files: WorkFiles;

  constructor(private readonly backend: WorkBackend) {
    super(backend.table);
    this.files = backend.files;
  }

  /**
   * The rows every call reads first (CallerRows), in one read where the backend can: a call's work
   * (WorkScope `call`) begins with it, and is from then on the work of the key's account.
   */
  async caller(lookup: KeyLookup): Promise<CallerRows> {
    if (this.backend.caller) return this.backend.caller(lookup);
    const key = await this.apiKeys[lookup.index === 'key' ? 'byKey' : 'byIdentity'](lookup.value);
    if (!key) return { key, user: undefined, clock: undefined };
    await this.backend.bind?.(key.account_id);
    const user = key.user_id ? await this.users.get(key.account_id, key.user_id) : undefined;
    return { key, user, clock: await this.clocks.getAnyAccount(key.account_id) };
  }

  /**
   * A call's work becomes the account's: one the caller's key named already stays its own; one of a
   * control call acting on an account without its key (the Demo account) takes that account now.
   */
  async own(accountId: string): Promise<void> {
    await this.backend.bind?.(accountId);
  }

  /**
   * Runs `pending` (a delay, a body still arriving, a read of another store) holding nothing: a
   * call's work that wrote nothing yet lets go of its account (and its connection) meanwhile, and
   * takes it again after, reading then what was committed meanwhile; one that wrote holds on.
   */
  wait<T>(pending: () => Promise<T>): Promise<T> {
    return this.backend.wait ? this.backend.wait(pending) : pending();
  }

  /** Runs `fn` once the work is durable (never if it is not committed). */
  afterCommit(fn: () => void | Promise<void>): void {
    this.backend.afterCommit(fn);
  }

  /** A number of the sequence larger than any it answered before, across restarts. */
  nextSeq(name: SeqName = 'steps'): Promise<number> {
    return this.backend.nextSeq(name);
  }

  /** Replaces the whole state (seeding, reset, restore): whole-state work only. */
  replaceAll(data: DbData): Promise<void> {
    return this.backend.replaceAll(data);
  }

  /** Removes an account and every row it owns: whole-state work only. */
  removeAccount(accountId: string): Promise<void> {
    return this.backend.removeAccount(accountId);
  }

  /** Every row the account owns, by collection (a snapshot of one account). */
  async accountState(accountId: string): Promise<Partial<DbData>> {
    const state: Partial<Record<CollectionName, readonly AnyRow[]>> = {};
    for (const name of COLLECTION_NAMES) {
      const rows = await this.backend.table(name).list(accountId);
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
      const table = this.backend.table(name);
      for (const row of rows[name] ?? []) if (row.account_id === accountId) await table.insert(row);
    }
  }

  /** Tells the other instances `payload` on `topic` if, and once, the work commits. */
  tell(topic: PeerTopic, payload: string): Promise<void> {
    return this.backend.tell?.(topic, payload) ?? Promise.resolve();
  }

  /** The whole state as it stands in this work (snapshots). */
  exportState(): Promise<DbData> {
    return this.backend.exportState();
  }
}

/**
 * What instances over one store tell each other: steps scheduled (an account id, `*` for all), calls
 * journaled, a message waiting for an SMPP bind of a key (its id).
 */
export type PeerTopic = 'steps' | 'journal' | 'smpp';

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
  /** Whether the store was created empty by this start (the caller seeds it). */
  readonly created: boolean;
  /** Where this process serves, told to a process the store's owner refuses (the embedded store's). */
  serving?(url: string): void;
  /** Its size on disk in bytes (the embedded store's snapshot and log, the database's); absent in memory. */
  size?(): Promise<number | undefined>;
  close(): Promise<void>;
}
