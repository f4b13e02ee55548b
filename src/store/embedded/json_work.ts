/**
 * One unit of work of the embedded store: it changes the tables at once and remembers how to undo
 * each change, until its store commits it (json_store.ts), and its durability (Deferred); the locks
 * a work holds (Locks). It sees its store through WorkHost; what every backend's work shares is
 * src/store/store.ts (UnitOfWork).
 */
import type { FileArea } from '../files.js';
import { cleanupFailed } from '../../domain/side_paths.js';
import type { Change } from './log_line.js';
import { MemoryTable } from './memory_table.js';
import {
  duplicateError,
  UniqueViolation,
  type RowStore,
  type SeqName,
  type OnDuplicate,
  type WorkFiles,
} from '../collections.js';
import { COLLECTION_NAMES, type AnyRow, type CollectionName, type Collections, type DbData } from '../schema.js';
import { SCHEMA } from '../schema.js';
import { UnitOfWork } from '../store.js';

export type TableSet = Record<CollectionName, MemoryTable<AnyRow>>;

/** The store a work belongs to, as the work sees it (JsonStore keeps its own fields private). */
export interface WorkHost {
  tables(): TableSet;
  /** The whole state replaced (and put back, when the work that replaced it fails). */
  setTables(tables: TableSet): void;
  readonly files: FileArea;
  /** The order of the next undo entry, across works (a failed append undoes them newest first). */
  nextUndo(): number;
  /** The work has changes not yet on disk. */
  isLive(work: JsonWork): void;
  nextSeq(name: SeqName): number;
  seqsPast(data: DbData): void;
  keepReferencedFiles(): Promise<void>;
  state(): DbData;
}

/** How to undo one change: the row before it (none: it was inserted) and after it (none: removed). */
export interface Undo {
  seq: number;
  table: CollectionName;
  before: AnyRow | undefined;
  after: AnyRow | undefined;
}

export function buildTables(data: DbData): TableSet {
  const tables = {} as TableSet;
  for (const name of COLLECTION_NAMES)
    tables[name] = new MemoryTable<AnyRow>(name, SCHEMA[name] as never, data[name] as AnyRow[]);
  return tables;
}

/** One unit of work of the embedded store: the base's guards and wrappers over its memory tables. */
export class JsonWork extends UnitOfWork {
  undo: Undo[] = [];
  changes: Change[] = [];
  /** The whole state was replaced: the commit writes a snapshot. */
  replaced: TableSet | null = null;
  /** The disk refused a write of the store while this work's changes were not yet on it. */
  poison: unknown = null;
  readonly commitHooks: (() => void | Promise<void>)[] = [];
  readonly onAbort: (() => Promise<void>)[] = [];
  readonly durable = deferred();

  constructor(
    private readonly store: WorkHost,
    readOnly: boolean,
    global: boolean,
  ) {
    super(readOnly, global);
  }

  /** Whether the work changed anything yet. */
  changed(): boolean {
    return this.undo.length > 0 || this.replaced !== null;
  }

  protected override poisoned(): unknown {
    return this.poison;
  }

  protected storedFiles(): WorkFiles {
    const files = this.store.files;
    return {
      put: async (id, bytes) => {
        await files.put(id, bytes);
        this.onAbort.push(() => files.remove(id));
      },
      get: (id) => files.get(id),
      remove: (id) => {
        this.commitHooks.push(() => files.remove(id));
      },
    };
  }

  protected onCommit(fn: () => void | Promise<void>): void {
    this.commitHooks.push(fn);
  }

  protected sequence(name: SeqName): Promise<number> {
    return Promise.resolve(this.store.nextSeq(name));
  }

  exportState(): Promise<DbData> {
    return Promise.resolve(this.store.state());
  }

  protected async dropAccount(accountId: string): Promise<void> {
    for (const name of COLLECTION_NAMES) {
      const table = this.store.tables()[name];
      for (const row of [...table.list(accountId)]) this.record(name, row, undefined);
    }
  }

  protected async replaceState(data: DbData): Promise<void> {
    this.replaced ??= this.store.tables();
    this.store.setTables(buildTables(data));
    this.store.seqsPast(data);
    this.changes = [];
    this.undo = [];
    this.store.isLive(this);
    this.commitHooks.push(() => this.store.keepReferencedFiles());
  }

  /** Makes a change to a table and remembers how to undo it. */
  record(name: CollectionName, before: AnyRow | undefined, after: AnyRow | undefined, onDuplicate?: OnDuplicate): void {
    this.writable();
    const table = this.store.tables()[name];
    if (after) {
      try {
        table.put(after);
      } catch (e) {
        throw duplicateError(e, onDuplicate);
      }
      this.changes.push(['put', name, after]);
    } else if (before) {
      table.delete(before);
      this.changes.push(['del', name, before.data.id]);
    } else return;
    this.undo.push({ seq: this.store.nextUndo(), table: name, before, after });
    this.store.isLive(this);
  }

  protected rows<K extends CollectionName>(name: K): RowStore<Collections[K]> {
    type R = Collections[K];
    // cast: the table set is keyed by name (TableSet); the table under `name` holds that collection's rows
    const t = () => this.store.tables()[name] as unknown as MemoryTable<R>;
    return {
      get: async (id) => t().get(id),
      list: async (accountId) => t().list(accountId),
      head: async (accountId, n) => t().list(accountId).slice(0, n),
      count: async (accountId) => t().list(accountId).length,
      firsts: async () => [...t().accounts()].flatMap((a) => t().list(a).slice(0, 1)),
      size: async () => t().size,
      one: async (index, key) => t().one(index, key),
      many: async (index, key) => [...t().many(index, key)],
      all: async () => t().all(),
      current: async (id) => t().get(id),
      insert: async (row, onDuplicate) => {
        if (t().get(row.data.id)) throw new UniqueViolation(name, 'id', row.data.id);
        this.record(name, undefined, row, onDuplicate);
      },
      replace: async (before, after, onDuplicate) => this.record(name, before, after, onDuplicate),
      remove: async (row) => {
        const current = t().get(row.data.id);
        if (current) this.record(name, current, undefined);
      },
    };
  }

  /** Puts the tables back as they were before this work. */
  rollback(): void {
    for (const u of this.undo.reverse()) undoOne(this.store.tables(), u);
    this.undo = [];
    if (this.replaced) this.store.setTables(this.replaced);
    this.replaced = null;
  }
}

export function undoOne(tables: TableSet, u: Undo): void {
  const table = tables[u.table];
  if (u.after) table.delete(u.after);
  if (u.before) table.put(u.before, true);
}

/** A promise with its resolve and reject in hand: a commit's durability, settled by the append that carries it. */
export interface Deferred {
  promise: Promise<void>;
  resolve(): void;
  reject(e: unknown): void;
}

export function deferred(): Deferred {
  let resolve!: () => void;
  let reject!: (e: unknown) => void;
  const promise = new Promise<void>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  // the commit's caller hears a rejection; this keeps one nobody awaits from being unhandled
  promise.catch(cleanupFailed);
  return { promise, resolve, reject };
}

/**
 * Who may write at a time. Work on one account is serialized (a handler's check and its write are
 * never split by another request of the account, across any number of awaits); work on the whole
 * state (reset, restore, removing an account) waits for every account's work to finish and holds
 * new work back until it is done.
 */

export type Release = () => void;

export class Locks {
  private readonly tails = new Map<string, Promise<void>>();
  /** Account locks held or waiting; whole-state work waits for them to drain. */
  private held = 0;
  private drained: (() => void)[] = [];
  /** Closed while whole-state work waits or runs. */
  private gate: Promise<void> = Promise.resolve();

  /** Waits for the account's earlier work (and any whole-state work), then holds the account. */
  async account(id: string): Promise<Release> {
    for (;;) {
      const gate = this.gate;
      await gate;
      if (gate === this.gate) break;
    }
    this.held++;
    const previous = this.tails.get(id) ?? Promise.resolve();
    let release!: () => void;
    const mine = new Promise<void>((resolve) => (release = resolve));
    const tail = previous.then(() => mine);
    this.tails.set(id, tail);
    await previous;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      release();
      if (this.tails.get(id) === tail) this.tails.delete(id);
      if (--this.held === 0) for (const done of this.drained.splice(0)) done();
    };
  }

  /** Waits until no account work runs, then holds everything until released. */
  async global(): Promise<Release> {
    const before = this.gate;
    let open!: () => void;
    const closed = new Promise<void>((resolve) => (open = resolve));
    // whole-state work runs one at a time, in the order it asked
    this.gate = before.then(() => closed);
    await before;
    if (this.held > 0) await new Promise<void>((resolve) => this.drained.push(resolve));
    let released = false;
    return () => {
      if (released) return;
      released = true;
      open();
    };
  }
}
