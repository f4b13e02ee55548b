/**
 * The embedded store: the whole state in memory (a table per collection, with its indexes), on disk
 * as a snapshot and a change log (log_file.ts), or in memory only.
 *
 * A unit of work changes the tables at once and remembers how to undo each change. Committing puts
 * it in the queue of the next append; work that commits while an append runs shares the next one
 * (group commit). When an append fails (disk full, I/O error), every change not yet on disk is
 * undone, newest first, so memory is again what the disk holds; the work in flight answers
 * StorageUnavailable, and the next commit tries the disk again.
 */
import { dirname, join } from 'node:path';
import { DiskFiles, MemoryFiles, namedFiles, type FileArea } from '../files.js';
import { deferred } from './deferred.js';
import { Locks, type Release } from './locks.js';
import type { Logger as FullLogger } from '../../deps.js';
import { inaccessible, LogFile, type Change } from './log_file.js';
import { MemoryTable } from './memory_table.js';
import { changed, deepFreeze, refusal, UniqueViolation, type Taken } from '../table.js';
import type { TableOps } from '../collections.js';
import { COLLECTION_NAMES, emptyDb, type AnyRow, type CollectionName, type Collections, type DbData } from '../rows.js';
import { SCHEMA } from '../schema.js';
import { StorageUnavailable, UnitOfWork, type SeqName, type Store, type WorkScope } from '../store.js';

/** The store only warns. */
type Logger = Pick<FullLogger, 'warn'>;

type TableSet = Record<CollectionName, MemoryTable<AnyRow>>;

/** How to undo one change: the row before it (none: it was inserted) and after it (none: removed). */
interface Undo {
  seq: number;
  table: CollectionName;
  before: AnyRow | undefined;
  after: AnyRow | undefined;
}

function buildTables(data: DbData): TableSet {
  const tables = {} as TableSet;
  for (const name of COLLECTION_NAMES)
    tables[name] = new MemoryTable<AnyRow>(name, SCHEMA[name] as never, data[name] as AnyRow[]);
  return tables;
}

/** One unit of work of the embedded store. */
class JsonWork {
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
    private readonly store: JsonStore,
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

function undoOne(tables: TableSet, u: Undo): void {
  const table = tables[u.table];
  if (u.after) table.delete(u.after);
  if (u.before) table.put(u.before, true);
}

export type JsonStoreOptions = { memory: true } | { file: string; repair?: boolean };

export class JsonStore implements Store {
  tables: TableSet;
  readonly files: FileArea;
  readonly location: string;
  undoSeq = 0;
  /** Work with changes not yet on disk: running, or waiting for its append. */
  readonly live = new Set<JsonWork>();
  private queue: JsonWork[] = [];
  private writing: Promise<void> | null = null;
  private readonly locks = new Locks();
  private readonly seqs: Record<SeqName, number>;
  /**
   * The one unit of work every read runs in: a read keeps nothing of its own (no undo, no change,
   * no lock), so reads share it and cost no more than the rows they read.
   */
  private readonly reader: JsonWork;

  private constructor(
    data: DbData,
    readonly created: boolean,
    private readonly log: LogFile | null,
    files: FileArea,
    private readonly logger: Logger,
  ) {
    this.tables = buildTables(data);
    this.files = files;
    this.location = log ? log.path : 'memory';
    this.seqs = { steps: 0, sandboxes: 0 };
    this.seqsPast(data);
    this.reader = new JsonWork(this, true, false);
  }

  /** Opens the store; a file that is not a store, or damaged, is refused (StoreRefused). */
  static async open(opts: JsonStoreOptions, logger: Logger): Promise<JsonStore> {
    if ('memory' in opts) return new JsonStore(emptyDb(), true, null, new MemoryFiles(), logger);
    const log = new LogFile(opts.file);
    const { state, warnings } = await log.read({ repair: opts.repair }).catch((e: unknown) => {
      throw inaccessible(opts.file, e);
    });
    await log.checkWritable().catch((e: unknown) => {
      throw inaccessible(opts.file, e);
    });
    for (const w of warnings) logger.warn(w);
    const files = new DiskFiles(join(dirname(opts.file), 'files'));
    const store = new JsonStore(state ?? emptyDb(), state === null, log, files, logger);
    // files whose record never committed (a crash between the two) are not kept
    await store.keepReferencedFiles();
    return store;
  }

  /** Moves the counters past every value `data` holds (on open, and when the state is replaced). */
  seqsPast(data: DbData): void {
    const max = (xs: number[]) => xs.reduce((m, x) => Math.max(m, x), -1) + 1;
    this.seqs.steps = Math.max(this.seqs.steps, max(data.steps.map((s) => s.seq)));
    this.seqs.sandboxes = Math.max(this.seqs.sandboxes, max(data.accounts.map((a) => a.sandbox_block ?? -1)));
  }

  nextSeq(name: SeqName): number {
    return this.seqs[name]++;
  }

  async run<T>(scope: WorkScope, fn: (work: UnitOfWork) => Promise<T>): Promise<T> {
    if ('callerOf' in scope) {
      // reads are free here: the key names the account whose work this is, and its rows are read under its lock
      const { key } = await this.reader.uow.caller(scope.callerOf);
      return this.run(key ? { account: key.account_id } : { read: true }, fn);
    }
    if ('read' in scope) {
      const result = await fn(this.reader.uow);
      // a read waits only for what it may have seen to be durable
      if (this.writing) await this.writing;
      return result;
    }
    const release: Release = 'account' in scope ? await this.locks.account(scope.account) : await this.locks.global();
    const work = new JsonWork(this, false, 'global' in scope);
    let result: T;
    try {
      result = await fn(work.uow);
    } catch (e) {
      await this.abort(work);
      release();
      throw e;
    }
    const durable = this.commit(work);
    // the next work of the account may start now; it is durable only after this one
    release();
    await durable;
    for (const hook of work.afterCommit) {
      try {
        await hook();
      } catch (e) {
        // the work is durable; what follows it (removing a file) is tidying, not the answer
        this.logger.warn(`store: after a commit: ${(e as Error).message}`);
      }
    }
    return result;
  }

  private async abort(work: JsonWork): Promise<void> {
    work.rollback();
    this.live.delete(work);
    for (const undo of work.onAbort) await undo().catch(() => undefined);
  }

  /** Queues the work for the next append; resolves once it is on disk. */
  private commit(work: JsonWork): Promise<void> {
    if (work.poisoned) return Promise.reject(new StorageUnavailable(work.poisoned));
    if (!work.changes.length && !work.replaced) {
      // work that changed nothing waits only for what it may have seen to be durable
      return this.writing ?? Promise.resolve();
    }
    this.queue.push(work);
    this.writing ??= this.drain();
    return work.durable.promise;
  }

  private async drain(): Promise<void> {
    try {
      while (this.queue.length) {
        const batch = this.queue.splice(0);
        try {
          await this.write(batch);
        } catch (e) {
          this.fail(e);
          continue;
        }
        for (const w of batch) {
          this.live.delete(w);
          w.undo = [];
          w.replaced = null;
          w.durable.resolve();
        }
        await this.compactIfDue();
      }
    } finally {
      this.writing = null;
    }
  }

  private async write(batch: JsonWork[]): Promise<void> {
    if (!this.log) return;
    if (batch.some((w) => w.replaced)) {
      await this.log.write(this.state(new Set(batch)));
      return;
    }
    // the last change of a row in the batch is the one that counts
    const last = new Map<string, Change>();
    for (const w of batch)
      for (const c of w.changes) last.set(`${c[1]}\u0000${c[0] === 'put' ? c[2].data.id : c[2]}`, c);
    await this.log.append([...last.values()]);
  }

  /** The disk refused: memory goes back to what the disk holds, and all work in flight fails. */
  private fail(cause: unknown): void {
    this.logger.warn(
      `store: a write to ${this.location} failed (${(cause as Error).message}); every change not yet on disk is undone`,
    );
    const works = [...this.live];
    const entries = works.flatMap((w) => w.undo).sort((a, b) => b.seq - a.seq);
    const replaced = works.find((w) => w.replaced)?.replaced;
    for (const u of entries) undoOne(this.tables, u);
    if (replaced) this.tables = replaced;
    const error = new StorageUnavailable(cause);
    for (const w of works) {
      w.undo = [];
      w.replaced = null;
      w.poisoned = cause;
      w.durable.reject(error);
      for (const undo of w.onAbort) void undo().catch(() => undefined);
    }
    for (const w of this.queue) w.durable.reject(error);
    this.live.clear();
    this.queue = [];
  }

  private async compactIfDue(): Promise<void> {
    if (!this.log?.needsCompaction) return;
    try {
      await this.log.write(this.state(new Set()));
    } catch (e) {
      // the log still holds every write; compaction is tried again after the next append
      this.logger.warn(
        `store: compacting ${this.location} failed (${(e as Error).message}); the log keeps growing until it succeeds`,
      );
    }
  }

  /** The state as it is durable once `durable` is: every other live work's changes left out. */
  state(durable: Set<JsonWork> = new Set(this.live)): DbData {
    const pending = [...this.live].filter((w) => !durable.has(w));
    const data = emptyDb() as Record<CollectionName, AnyRow[]>;
    if (!pending.length) {
      for (const name of COLLECTION_NAMES) data[name] = this.tables[name].all();
      return data as unknown as DbData;
    }
    const entries = pending.flatMap((w) => w.undo).sort((a, b) => b.seq - a.seq);
    const touched = new Set(entries.map((u) => u.table));
    for (const name of COLLECTION_NAMES) {
      if (!touched.has(name)) {
        data[name] = this.tables[name].all();
        continue;
      }
      const copy = new MemoryTable<AnyRow>(name, SCHEMA[name] as never, this.tables[name].all());
      const tables = { [name]: copy } as unknown as TableSet;
      for (const u of entries) if (u.table === name) undoOne(tables, u);
      data[name] = copy.all();
    }
    return data as unknown as DbData;
  }

  /** Removes document and result files no record names (after a reset, a restore or a crash). */
  async keepReferencedFiles(): Promise<void> {
    await this.files.keepOnly(new Set(namedFiles(this.tables.documents.all(), this.tables.bulk_dip_tasks.all())));
  }

  async close(): Promise<void> {
    while (this.writing) await this.writing.catch(() => undefined);
  }
}
