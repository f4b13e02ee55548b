/**
 * Typed collections with names that say what a handler wants (`users.byEmail(account, email)`,
 * `switches.usingSecretKey(id)`), over the rows a backend keeps (RowStore). Every read and write is
 * asynchronous, as a database's would be; a write is checked here (the unit may write: `writable`),
 * its row frozen, an update applied to the row as stored now, and handed to the backend once. What
 * every backend's table does with a row is here too: freeze it, list its index keys, make its next
 * version, refuse a taken unique key.
 */
import type {
  AccountRow,
  AnyRow,
  CollectionName,
  Collections,
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
import { cutPage, type PageRows, type PageWindow } from './page.js';
import { key } from './schema.js';

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

/** One collection: every read scoped to an account unless it says otherwise. */
export class Collection<R extends AnyRow> {
  constructor(
    protected readonly t: RowStore<R>,
    private readonly name: CollectionName,
    /** Throws when the unit of work may not write (it only reads, or its store refused a write). */
    private readonly writable: () => void,
  ) {}

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

  /** One page of the account's list, oldest first unless the window says otherwise (rows keyed by `inserted_at`, `id`). */
  async page(accountId: string, window: PageWindow): Promise<PageRows<R>> {
    if (this.t.page) return this.t.page(accountId, window);
    // cast: every collection's rows carry `id` and `inserted_at`, which the generic R does not say
    return cutPage(
      (await this.t.list(accountId)) as unknown as readonly (R & { data: { id: string; inserted_at: string } })[],
      window,
    );
  }

  /** Adds the row (frozen); a unique key another row holds refuses it with `taken`'s error, now or when the writes are sent. */
  async insert(row: R, taken?: Taken): Promise<R> {
    this.writable();
    const frozen = deepFreeze(row);
    await this.t.insert(frozen, taken);
    return frozen;
  }

  /** Applies `change` to a copy of the row as stored now, and stores the copy (refused as `insert` is). */
  async update(row: R, change: (draft: Draft<R>) => void, taken?: Taken): Promise<R> {
    this.writable();
    const current = await this.t.current(row.data.id);
    const next: R = changed(this.name, row.data.id, current, change);
    await this.t.replace(current, next, taken);
    return next;
  }

  async remove(row: R): Promise<void> {
    this.writable();
    await this.t.remove(row);
  }
}

export class ApiKeys extends Collection<ApiKeyRow> {
  byKey(value: string) {
    return this.t.one('key', value);
  }
  byIdentity(identity: string) {
    return this.t.one('identity', identity);
  }
  ofUser(userId: string) {
    return this.t.many('user', userId);
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

export class Users extends Collection<UserRow> {
  /** The account's user with this email, case-insensitively. */
  byEmail(accountId: string, email: string) {
    return this.t.one('email', key(accountId, email.toLowerCase()));
  }
}

export class Switches extends Collection<SwitchRow> {
  usingApiKey(id: string) {
    return this.t.many('apiKey', id);
  }
  usingSecretKey(id: string) {
    return this.t.many('secretKey', id);
  }
}

export class Numbers extends Collection<NumberRow> {
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

export class OptoutItems extends Collection<OptoutItemRow> {
  ofNumber(numberId: string) {
    return this.t.many('number', numberId);
  }
  byPair(numberId: string, remote: string) {
    return this.t.one('pair', key(numberId, remote));
  }
}

export class Destinations extends Collection<DestinationRow> {
  ofNumber(numberId: string) {
    return this.t.many('number', numberId);
  }
}

export class Requests extends Collection<RequestRow> {
  /** The requests of a cart not yet checked out. */
  ofCart(cartId: string) {
    return this.t.many('cart', cartId);
  }
  ofOrder(orderId: string) {
    return this.t.many('order', orderId);
  }
}

export class Documents extends Collection<DocumentRow> {
  ofRequest(requestId: string) {
    return this.t.many('request', requestId);
  }
  byName(requestId: string, name: string) {
    return this.t.one('name', key(requestId, name));
  }
}

export class Campaigns extends Collection<CampaignRow> {
  /** The campaigns an account sees: its own, and those shared with it (spec: Resources > CSP campaign). */
  async visibleTo(accountId: string): Promise<CampaignRow[]> {
    return [...(await this.t.list(accountId)), ...(await this.t.many('sharedWith', accountId))];
  }
  /** A campaign the account sees, by its registry id. */
  async visibleByTcr(accountId: string, tcr: string): Promise<CampaignRow | undefined> {
    return (await this.t.many('tcr', tcr)).find((c) => campaignVisibleTo(c, accountId));
  }
}

export class BulkDipTasks extends Collection<BulkDipTaskRow> {
  byReference(accountId: string, referenceId: string) {
    return this.t.one('reference', key(accountId, referenceId));
  }
}

export class OverwriteRequests extends Collection<OverwriteRequestRow> {
  ofNumber(numberId: string) {
    return this.t.many('number', numberId);
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
