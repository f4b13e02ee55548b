/**
 * What a unit of work holds, over the rows a backend keeps (RowStore): the collections across
 * accounts that the scheduler, the control API and sandboxes read (Collection; one account's are
 * account_view.ts), its files and its sequences. Every read and write is asynchronous, as a
 * database's would be; a write is checked once, by the collection that makes it (Rows: the unit may
 * write), its row frozen, an update applied to the row as stored now, and handed to the backend.
 * What every backend's table does with a row is here too: freeze it, list its index keys, make its
 * next version, refuse a taken unique key.
 */
import type {
  AccountRow,
  AnyRow,
  CollectionName,
  Collections,
  ApiKeyRow,
  DeliveryRow,
  Draft,
  NumberRow,
  StepRow,
} from '../domain/rows.js';
import { cutPage, type PageRows, type PageWindow } from './page.js';

/** A second row for a key of a unique index: the store refuses it (a constraint, as in PostgreSQL). */
export class UniqueViolation extends Error {
  constructor(
    readonly collection: string,
    readonly index: string,
    readonly key: string,
  ) {
    super(`unique index ${collection}.${index} already holds this key`);
  }
}

/**
 * The errors a write answers for a unique key another row holds, by the index's name: the index is
 * the check (a backend finds the holder as it writes, or as the work's writes are sent), so a
 * handler need not read for the key first.
 */
export type Taken = Readonly<Partial<Record<string, () => Error>>>;

/** The error `taken` gives for a refused unique key, else `e` itself. */
export const refusal = (e: unknown, taken: Taken | undefined): unknown =>
  (e instanceof UniqueViolation && taken?.[e.index]?.()) || e;

/** Freezes a row and everything in it, so a change can only go through the store. */
export function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const v of Object.values(value as object)) deepFreeze(v);
  }
  return value;
}

/** The keys an index gives a row (none, one or several). */
export const keysOf = (k: string | null | readonly (string | null)[]): string[] =>
  (Array.isArray(k) ? (k as (string | null)[]) : [k as string | null]).filter((x): x is string => x !== null);

/**
 * A row's next version, as every backend makes it: `change` applied to a copy of the row as stored
 * now (`current`, undefined when it is gone), frozen; its id and account never change.
 */
export function changed<R extends AnyRow>(
  name: string,
  id: string,
  current: R | undefined,
  change: (draft: Draft<R>) => void,
): R {
  if (!current) throw new Error(`${name} ${id} is gone; it cannot change`);
  const draft = structuredClone(current) as Draft<R>;
  change(draft);
  const next = deepFreeze(draft as R);
  if (next.data.id !== current.data.id || next.account_id !== current.account_id)
    throw new Error(`${name}: a row's id and account never change`);
  return next;
}

/** A backend's rows of one collection inside one unit of work: its reads, and the writes a Collection checked and froze. */
export interface RowStore<R extends AnyRow> {
  get(id: string): Promise<R | undefined>;
  /** The account's rows in list order. */
  list(accountId: string): Promise<readonly R[]>;
  /** The row of a unique index's key. */
  one(index: string, key: string): Promise<R | undefined>;
  /** The rows of an index's key, in list order. */
  many(index: string, key: string): Promise<readonly R[]>;
  /** Every row of every account: for the control API and start-up, never the request path. */
  all(): Promise<readonly R[]>;
  /** One page of the account's list (src/store/page.ts); without it, the page is cut from `list`. */
  page?(accountId: string, window: PageWindow): Promise<PageRows<R>>;
  /** The row as stored now, read to change it (locked for the change where the backend locks rows). */
  current(id: string): Promise<R | undefined>;
  /** Stores a new row; a unique key another row holds is refused with `taken`'s error, now or when the writes are sent. */
  insert(row: R, taken?: Taken): Promise<void>;
  /** Stores `after` in place of `before` (the row as `current` read it), refused as `insert` is. */
  replace(before: R | undefined, after: R, taken?: Taken): Promise<void>;
  remove(row: R): Promise<void>;
}

/** A backend's rows of each collection. */
export type RowSource = <K extends CollectionName>(name: K) => RowStore<Collections[K]>;

/** The document files of a unit of work: written at once, removed only once the work is durable. */
export interface WorkFiles {
  /** Writes the file now (durably); it is removed again if the work is not committed. */
  put(id: string, bytes: Buffer): Promise<void>;
  get(id: string): Promise<Buffer | undefined>;
  /** Removes the file once the work is committed. */
  remove(id: string): void;
}

/** Counters: the order of steps due at one time, and the blocks of sandbox numbers. */
export type SeqName = 'steps' | 'sandboxes';

/**
 * What every collection does with the backend's rows of one collection: it checks that the unit may
 * write, freezes what it writes, applies a change to the row as stored now, and hands each write to
 * the backend once.
 */
export abstract class Rows<R extends AnyRow> {
  constructor(
    protected readonly t: RowStore<R>,
    private readonly name: CollectionName,
    /** Throws when the unit of work may not write (it only reads, or its store refused a write). */
    private readonly writable: () => void,
  ) {}

  /** Adds the row (frozen); a unique key another row holds refuses it with `taken`'s error, now or when the writes are sent. */
  protected async put(row: R, taken?: Taken): Promise<R> {
    this.writable();
    const frozen = deepFreeze(row);
    await this.t.insert(frozen, taken);
    return frozen;
  }

  /** Applies `change` to a copy of the row as stored now, and stores the copy (refused as `put` is). */
  protected async change(row: R, change: (draft: Draft<R>) => void, taken?: Taken): Promise<R> {
    this.writable();
    const current = await this.t.current(row.data.id);
    const next: R = changed(this.name, row.data.id, current, change);
    await this.t.replace(current, next, taken);
    return next;
  }

  protected async drop(row: R): Promise<void> {
    this.writable();
    await this.t.remove(row);
  }

  /** One page of the account's list, oldest first unless the window says otherwise (rows keyed by `inserted_at`, `id`). */
  protected async pageOf(accountId: string, window: PageWindow): Promise<PageRows<R>> {
    if (this.t.page) return this.t.page(accountId, window);
    // cast: every collection's rows carry `id` and `inserted_at`, which the generic R does not say
    return cutPage(
      (await this.t.list(accountId)) as unknown as readonly (R & { data: { id: string; inserted_at: string } })[],
      window,
    );
  }
}

/** One collection across accounts: a row of any account by its id, an account's rows by the account's id. */
export class Collection<R extends AnyRow> extends Rows<R> {
  /** The row with this id, if it belongs to the account. */
  async get(accountId: string, id: string): Promise<R | undefined> {
    const row = await this.t.get(id);
    return row && row.account_id === accountId ? row : undefined;
  }

  /** Any account's row. */
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

  page(accountId: string, window: PageWindow): Promise<PageRows<R>> {
    return this.pageOf(accountId, window);
  }

  insert(row: R, taken?: Taken): Promise<R> {
    return this.put(row, taken);
  }

  update(row: R, change: (draft: Draft<R>) => void, taken?: Taken): Promise<R> {
    return this.change(row, change, taken);
  }

  remove(row: R): Promise<void> {
    return this.drop(row);
  }
}

/** The index reads across accounts that the engine makes (one account's: account_view.ts). */
export class ApiKeys extends Collection<ApiKeyRow> {
  /** The key a caller's bearer key names (Store.caller). */
  byKey(value: string) {
    return this.t.one('key', value);
  }
  /** The key a caller's Basic identity names. */
  byIdentity(identity: string) {
    return this.t.one('identity', identity);
  }
  /** The keys an SMPP bind with this system id may be (any account's: a bind names no account). */
  bySmppSystemId(systemId: string) {
    return this.t.many('smppSystemId', systemId);
  }
}

export class Accounts extends Collection<AccountRow> {
  /** Every sandbox account (`POST /__sim/accounts`) that exists now. */
  sandboxes() {
    return this.t.many('sandbox', 'sandbox');
  }
}

export class Numbers extends Collection<NumberRow> {
  /** Whether any account holds the number. */
  async taken(e164: string) {
    return (await this.t.one('number', e164)) !== undefined;
  }
}

export class Steps extends Collection<StepRow> {
  /** The account's earliest step. */
  async earliest(accountId: string): Promise<StepRow | undefined> {
    return (await this.t.list(accountId))[0];
  }
  /** The steps of one record (an order, a task, a delivery), by the index on `ref`. */
  ofRef(ref: string) {
    return this.t.many('ref', ref);
  }
}

export class Deliveries extends Collection<DeliveryRow> {
  /** Deliveries an out-of-order fault holds back until the next one to the same target. */
  heldFor(target: string) {
    return this.t.many('held', target);
  }
  /** Messages waiting for an SMPP bind of the key (any account's: a key is one account's), oldest first. */
  waitingFor(keyId: string) {
    return this.t.many('waiting', keyId);
  }
}
