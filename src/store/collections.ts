/**
 * What a unit of work holds, over the rows a backend keeps (RowStore): its collections, each one
 * generic Collection bound to one account or to all with the named reads schema.ts declares, its
 * files and its sequences. Every read and write is asynchronous, as a database's would be; a write
 * is checked once, by the collection that makes it (the unit may write, the row is the binding's),
 * its row frozen, an update applied to the row as stored now, and handed to the backend.
 * What every backend's table does with a row is here too: freeze it, list its index keys, make its
 * next version, refuse a onDuplicate unique key.
 */
import { assertFound } from '../domain/errors.js';
import type { Draft } from '../domain/rows.js';
import { cutPage, type PageRows, type PageWindow } from './page.js';
import {
  COLLECTION_NAMES,
  SCHEMA,
  type AcrossOf,
  type AnyRow,
  type CollectionName,
  type Collections,
  type ReadsOf,
  type Reader,
} from './schema.js';

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
export type OnDuplicate = Readonly<Partial<Record<string, () => Error>>>;

/** The error `onDuplicate` gives for a refused unique key, else `e` itself. */
export const duplicateError = (e: unknown, onDuplicate: OnDuplicate | undefined): unknown =>
  (e instanceof UniqueViolation && onDuplicate?.[e.index]?.()) || e;

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
  /** The first `n` of the account's rows in list order. */
  head(accountId: string, n: number): Promise<readonly R[]>;
  /** How many rows the account has. */
  count(accountId: string): Promise<number>;
  /** Each account's first row in list order: for start-up and a whole state replaced, never the request path. */
  firsts(): Promise<readonly R[]>;
  /** How many rows every account has. */
  size(): Promise<number>;
  /** Every row of every account: for the control API and start-up, never the request path. */
  all(): Promise<readonly R[]>;
  /** One page of the account's list (src/store/page.ts); without it, the page is cut from `list`. */
  page?(accountId: string, window: PageWindow): Promise<PageRows<R>>;
  /** The row as stored now, read to change it (locked for the change where the backend locks rows). */
  current(id: string): Promise<R | undefined>;
  /** Stores a new row; a unique key another row holds is refused with `onDuplicate`'s error, now or when the writes are sent. */
  insert(row: R, onDuplicate?: OnDuplicate): Promise<void>;
  /** Stores `after` in place of `before` (the row as `current` read it), refused as `insert` is. */
  replace(before: R | undefined, after: R, onDuplicate?: OnDuplicate): Promise<void>;
  remove(row: R): Promise<void>;
}

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

/** `api_keys` as a property name: `apiKeys`. */
export type Camel<S extends string> = S extends `${infer Head}_${infer Tail}` ? `${Head}${Capitalize<Camel<Tail>>}` : S;

export const camel = <S extends string>(name: S): Camel<S> =>
  name.replace(/_(.)/g, (_, c: string) => c.toUpperCase()) as Camel<S>;

/** The reads a collection's named reads are made of (schema.ts's Reader): the binding's rows, and every account's. */
class Binding<R extends AnyRow> implements Reader<R, string> {
  constructor(
    readonly any: RowStore<R>,
    /** The account bound to; null: every account. */
    readonly bound: string | null,
  ) {}

  get account(): string {
    if (this.bound === null) throw new Error('a read of one account made across accounts');
    return this.bound;
  }

  async get(id: string): Promise<R | undefined> {
    return this.own(await this.any.get(id));
  }

  list(): Promise<readonly R[]> {
    return this.bound === null ? this.any.all() : this.any.list(this.bound);
  }

  head(n: number): Promise<readonly R[]> {
    return this.any.head(this.account, n);
  }

  count(): Promise<number> {
    return this.any.count(this.account);
  }

  firsts(): Promise<readonly R[]> {
    if (this.bound !== null) throw new Error("every account's first rows read in one account's view");
    return this.any.firsts();
  }

  size(): Promise<number> {
    return this.bound === null ? this.any.size() : this.any.count(this.bound);
  }

  async one(index: string, key: string): Promise<R | undefined> {
    return this.own(await this.any.one(index, key));
  }

  async many(index: string, key: string): Promise<readonly R[]> {
    const rows = await this.any.many(index, key);
    return this.bound === null ? rows : rows.filter((r) => r.account_id === this.bound);
  }

  /** The row, if it is the binding's. */
  own(row: R | undefined): R | undefined {
    return this.bound === null || row?.account_id === this.bound ? row : undefined;
  }
}

/**
 * One collection, bound to one account (an account's view: its rows alone, and a new row is the
 * account's) or to every account (the unit of work across accounts). It checks that the unit may
 * write, freezes what it writes, applies a change to the row as stored now, refuses a row outside
 * its binding, and hands each write to the backend once. Its named reads are its declaration's
 * (schema.ts), made over the same binding (collectionOf).
 */
export class Collection<R extends AnyRow, New = R> {
  /** The backend's rows: the binding's own (every account's). */
  private readonly t: RowStore<R>;

  constructor(
    private readonly name: CollectionName,
    /** Throws when the unit of work may not write (it only reads, or its store refused a write). */
    private readonly writable: () => void,
    private readonly r: Binding<R>,
  ) {
    this.t = r.any;
  }

  /** The binding's row with this id. */
  get(id: string): Promise<R | undefined> {
    return this.r.get(id);
  }

  /** The binding's row with this id, or not_found naming it as `type` (a plain resource's GET, PATCH or DELETE). */
  async found(id: string, type: string): Promise<R> {
    return assertFound(await this.r.get(id), type, id);
  }

  /** The binding's rows in list order (do not hold on to the array across writes). */
  list(): Promise<readonly R[]> {
    return this.r.list();
  }

  /** How many rows the binding has: the account's, or every account's (a count, no row read). */
  count(): Promise<number> {
    return this.r.size();
  }

  /** One page of the binding's list, oldest first unless the window says otherwise (src/store/page.ts). */
  async page(window: PageWindow): Promise<PageRows<R>> {
    if (this.r.bound !== null && this.t.page) return this.t.page(this.r.bound, window);
    // cast: every collection's rows carry `id` and `inserted_at`, which the generic R does not say
    return cutPage(
      (await this.list()) as unknown as readonly (R & { data: { id: string; inserted_at: string } })[],
      window,
    );
  }

  /** Adds the row (frozen), the binding's account's; a unique key another row holds refuses it with `onDuplicate`'s error, now or when the writes are sent. */
  async insert(row: New, onDuplicate?: OnDuplicate): Promise<R> {
    this.writable();
    const { bound } = this.r;
    // cast: R is New with the account added (New is R itself across accounts), which TypeScript cannot see of a generic R
    const frozen = deepFreeze((bound === null ? row : { account_id: bound, ...row }) as unknown as R);
    await this.t.insert(frozen, onDuplicate);
    return frozen;
  }

  /** Applies `change` to a copy of the row as stored now, and stores the copy (refused as `insert` is). */
  async update(row: R, change: (draft: Draft<R>) => void, onDuplicate?: OnDuplicate): Promise<R> {
    this.writable();
    const current = await this.t.current(this.mine(row).data.id);
    const next: R = changed(this.name, row.data.id, current, change);
    await this.t.replace(current, next, onDuplicate);
    return next;
  }

  async remove(row: R): Promise<void> {
    this.writable();
    await this.t.remove(this.mine(row));
  }

  private mine(row: R): R {
    if (!this.r.own(row)) throw new Error(`a row of another account given to ${this.r.bound}'s view`);
    return row;
  }
}

/** The collection `name` over the backend's rows `t`, bound to `account` (null: every account), with its named reads. */
export function collectionOf<K extends CollectionName>(
  name: K,
  t: RowStore<Collections[K]>,
  writable: () => void,
  account: string | null,
): Collection<Collections[K], never> {
  const binding = new Binding(t, account);
  const made = new Collection<Collections[K], never>(name, writable, binding);
  // cast: each declaration's reads take its own rows' Reader, which the union over every collection cannot say
  const { reads, across } = SCHEMA[name] as {
    reads?: (r: Reader<Collections[K], string>) => Record<string, unknown>;
    across?: readonly string[];
  };
  if (!reads) return made;
  const named = reads(binding);
  // across accounts, only the reads the declaration lets cross them
  return Object.assign(made, account === null ? Object.fromEntries((across ?? []).map((n) => [n, named[n]])) : named);
}

/**
 * Every collection by its camel-cased name: bound to one account with all its named reads (an
 * account's view's; a new row is given without its account), or bound to every account with the
 * named reads that may cross accounts (a unit of work's).
 */
export type OwnCollections = {
  readonly [K in CollectionName as Camel<K>]: Collection<Collections[K], Omit<Collections[K], 'account_id'>> &
    ReadsOf<K>;
};
export type AnyCollections = {
  readonly [K in CollectionName as Camel<K>]: Collection<Collections[K]> & AcrossOf<K>;
};

/**
 * Gives a class's instances a getter of every collection of the schema, by its camel-cased name,
 * answering `get(instance, name)`: how the unit of work's and the account view's collections are made.
 */
export function collectionGetters<T>(cls: { prototype: T }, get: (self: T, name: CollectionName) => unknown): void {
  for (const name of COLLECTION_NAMES)
    Object.defineProperty(cls.prototype, camel(name), {
      get(this: T) {
        return get(this, name);
      },
    });
}
