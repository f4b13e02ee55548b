/**
 * One unit of work of the embedded store: it changes the tables at once and remembers how to undo
 * each change, until its store commits it (json_store.ts). It sees its store through WorkHost.
 */
import { namedFiles, type FileArea } from '../files.js';
import { deferred } from './deferred.js';
import type { Change } from './log_file.js';
import { MemoryTable } from './memory_table.js';
import { changed, deepFreeze, refusal, UniqueViolation, type Taken } from '../table.js';
import type { TableOps } from '../collections.js';
import {
  COLLECTION_NAMES,
  type AnyRow,
  type CollectionName,
  type Collections,
  type DbData,
} from '../../domain/rows.js';
import { SCHEMA } from '../schema.js';
import { StorageUnavailable, UnitOfWork, type SeqName } from '../store.js';

export type TableSet = Record<CollectionName, MemoryTable<AnyRow>>;

/** The store a work belongs to, as the work sees it. */
export interface WorkHost {
  tables: TableSet;
  readonly files: FileArea;
  /** The order of every undo entry, across works (a failed append undoes them newest first). */
  undoSeq: number;
  /** Works with changes not yet on disk. */
  readonly live: Set<JsonWork>;
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

/** One unit of work of the embedded store. */
export class JsonWork {
  undo: Undo[] = [];
  changes: Change[] = [];
  /** The whole state was replaced: the commit writes a snapshot. */
  replaced: TableSet | null = null;
  poisoned: unknown = null;
  readonly afterCommit: (() => void | Promise<void>)[] = [];
  readonly onAbort: (() => Promise<void>)[] = [];
  readonly durable = deferred();
  readonly uow: UnitOfWork;

  constructor(
    private readonly store: WorkHost,
    readonly readOnly: boolean,
    readonly global: boolean,
  ) {
    const files = store.files;
    this.uow = new UnitOfWork({
      table: (name) => this.table(name) as never,
      files: {
        put: async (id, bytes) => {
          this.writable();
          await files.put(id, bytes);
          this.onAbort.push(() => files.remove(id));
        },
        get: (id) => files.get(id),
        remove: (id) => {
          this.writable();
          this.afterCommit.push(() => files.remove(id));
        },
      },
      afterCommit: (fn) => {
        this.writable();
        this.afterCommit.push(fn);
      },
      nextSeq: async (name) => store.nextSeq(name),
      replaceAll: async (data) => this.replaceAll(data),
      removeAccount: async (accountId) => {
        this.wholeState();
        const { documents, bulk_dip_tasks } = this.store.tables;
        for (const id of namedFiles(documents.list(accountId), bulk_dip_tasks.list(accountId)))
          this.afterCommit.push(() => files.remove(id));
        for (const name of COLLECTION_NAMES) {
          const table = this.store.tables[name];
          for (const row of [...table.list(accountId)]) this.record(name, row, undefined);
        }
      },
      exportState: async () => this.store.state(),
    });
  }

  private writable(): void {
    if (this.poisoned) throw new StorageUnavailable(this.poisoned);
    if (this.readOnly) throw new Error('this unit of work only reads');
  }

  private wholeState(): void {
    this.writable();
    if (!this.global) throw new Error('only whole-state work may do this');
  }

  private replaceAll(data: DbData): void {
    this.wholeState();
    this.replaced ??= this.store.tables;
    this.store.tables = buildTables(data);
    this.store.seqsPast(data);
    this.changes = [];
    this.undo = [];
    this.store.live.add(this);
    this.afterCommit.push(() => this.store.keepReferencedFiles());
  }

  /** Makes a change to a table and remembers how to undo it. */
  record(name: CollectionName, before: AnyRow | undefined, after: AnyRow | undefined, taken?: Taken): void {
    this.writable();
    const table = this.store.tables[name];
    if (after) {
      try {
        table.put(after);
      } catch (e) {
        throw refusal(e, taken);
      }
      this.changes.push(['put', name, after]);
    } else if (before) {
      table.delete(before);
      this.changes.push(['del', name, before.data.id]);
    } else return;
    this.undo.push({ seq: this.store.undoSeq++, table: name, before, after });
    this.store.live.add(this);
  }

  private table<K extends CollectionName>(name: K): TableOps<Collections[K]> {
    type R = Collections[K];
    // cast: the table set is keyed by name (TableSet); the table under `name` holds that collection's rows
    const t = () => this.store.tables[name] as unknown as MemoryTable<R>;
    return {
      get: async (id) => t().get(id),
      list: async (accountId) => t().list(accountId),
      one: async (index, key) => t().one(index, key),
      many: async (index, key) => [...t().many(index, key)],
      all: async () => t().all(),
      insert: async (row, taken) => {
        if (t().get(row.data.id)) throw new UniqueViolation(name, 'id', row.data.id);
        const frozen = deepFreeze(row);
        this.record(name, undefined, frozen, taken);
        return frozen;
      },
      update: async (row, change, taken) => {
        const current = t().get(row.data.id);
        const next = changed(name, row.data.id, current, change);
        this.record(name, current, next, taken);
        return next;
      },
      remove: async (row) => {
        const current = t().get(row.data.id);
        if (current) this.record(name, current, undefined);
      },
    };
  }

  /** Puts the tables back as they were before this work. */
  rollback(): void {
    for (const u of this.undo.reverse()) undoOne(this.store.tables, u);
    this.undo = [];
    if (this.replaced) this.store.tables = this.replaced;
    this.replaced = null;
  }
}

export function undoOne(tables: TableSet, u: Undo): void {
  const table = tables[u.table];
  if (u.after) table.delete(u.after);
  if (u.before) table.put(u.before, true);
}
