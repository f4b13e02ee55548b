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
import { stat } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { DiskFiles, MemoryFiles, namedFiles, type FileArea } from '../files.js';
import type { Logger as FullLogger } from '../../deps.js';
import { LogFile } from './log_file.js';
import type { Change } from './log_line.js';
import { inaccessible } from './refusals.js';
import { makeDirs } from './dirs.js';
import { own, type Ownership } from './owner.js';
import { readRepaired, refuseDuplicates } from './repair.js';
import { MemoryTable } from './memory_table.js';
import { buildTables, JsonWork, Locks, undoOne, type Release, type TableSet, type WorkHost } from './json_work.js';
import { COLLECTION_NAMES, emptyDb, emptyLists, stateOf, type AnyRow, type DbData } from '../schema.js';
import { SCHEMA } from '../schema.js';
import { StorageUnavailable, type Store, type WorkScope } from '../store.js';
import type { SeqName } from '../collections.js';
import { StoreBase, type Opened } from '../backend.js';
import { cleanupFailed } from '../../domain/side_paths.js';

/** The store only warns. */
type Logger = Pick<FullLogger, 'warn'>;

export type JsonStoreOptions =
  | { memory: true }
  | {
      file: string;
      repair?: boolean;
      /** The log `file` is written through: a LogFile of it unless given (a test's, whose disk refuses a write). */
      log?: LogFile;
    };

export class JsonStore extends StoreBase implements Store {
  private tables: TableSet;
  readonly files: FileArea;
  readonly location: string;
  private undoSeq = 0;
  /** Work with changes not yet on disk: running, or waiting for its append. */
  private readonly live = new Set<JsonWork>();
  /** The store as its units of work see it (json_work.ts). */
  private readonly host: WorkHost;
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
    protected readonly logger: Logger,
    private readonly ownership?: Ownership,
  ) {
    super();
    this.tables = buildTables(data);
    this.files = files;
    this.location = log ? log.path : 'memory';
    this.seqs = { steps: 0, sandboxes: 0 };
    this.seqsPast(data);
    this.host = {
      tables: () => this.tables,
      setTables: (tables) => (this.tables = tables),
      files,
      nextUndo: () => this.undoSeq++,
      isLive: (work) => void this.live.add(work),
      nextSeq: (name) => this.nextSeq(name),
      seqsPast: (d) => this.seqsPast(d),
      keepReferencedFiles: () => this.keepReferencedFiles(),
      state: () => this.state(),
    };
    this.reader = new JsonWork(this.host, true, false);
  }

  /** Opens the store; a file that is not a store, or damaged, is refused (StoreRefused). */
  static async open(opts: JsonStoreOptions, logger: Logger): Promise<JsonStore> {
    if ('memory' in opts) return new JsonStore(emptyDb(), true, null, new MemoryFiles(), logger);
    const log = opts.log ?? new LogFile(opts.file, (m) => logger.warn(m));
    // the folder is this process's before anything of it is read: one store has one owner
    const ownership = await makeDirs(dirname(opts.file))
      .then(() => own(dirname(opts.file)))
      .catch((e: unknown) => {
        throw inaccessible(opts.file, e);
      });
    try {
      const { state, warnings } = await readRepaired(log, opts.repair ?? false);
      for (const w of warnings) logger.warn(w);
      const files = new DiskFiles(join(dirname(opts.file), 'files'));
      const store = refuseDuplicates(
        opts.file,
        () => new JsonStore(state ?? emptyDb(), state === null, log, files, logger, ownership),
      );
      // files whose record never committed (a crash between the two) are not kept
      await store.keepReferencedFiles();
      return store;
    } catch (e) {
      await ownership.release();
      throw e;
    }
  }

  /** The snapshot's and the log's bytes on disk; undefined in memory. */
  async size(): Promise<number | undefined> {
    if (!this.log) return undefined;
    let total = 0;
    for (const file of [this.log.path, this.log.logPath])
      total += await stat(file).then(
        (s) => s.size,
        () => 0,
      );
    return total;
  }

  /** Tells a process that would open this store too where this one serves. */
  serving(url: string): void {
    this.ownership?.describe(url);
  }

  /** Moves the counters past every value `data` holds (on open, and when the state is replaced). */
  private seqsPast(data: DbData): void {
    const max = (xs: number[]) => xs.reduce((m, x) => Math.max(m, x), -1) + 1;
    this.seqs.steps = Math.max(this.seqs.steps, max(data.steps.map((s) => s.seq)));
    this.seqs.sandboxes = Math.max(this.seqs.sandboxes, max(data.accounts.map((a) => a.sandbox_block ?? -1)));
  }

  private nextSeq(name: SeqName): number {
    return this.seqs[name]++;
  }

  /**
   * A unit of work of the embedded store: a read is the one shared reader (no lock, no undo); a write
   * takes its account's lock or the whole state's; its commit queues it for the next append, lets the
   * lock go, and resolves once on disk.
   */
  protected async open(scope: WorkScope): Promise<Opened> {
    if ('read' in scope)
      return {
        work: this.reader,
        // a read waits only for what it may have seen to be durable
        commit: async () => void (await this.writing),
        abort: async () => undefined,
        hooks: [],
      };
    const release: Release = 'account' in scope ? await this.locks.account(scope.account) : await this.locks.global();
    return this.opened(new JsonWork(this.host, false, 'global' in scope), () => release());
  }

  /** A write's ends: committed (the lock goes once the work is queued, the answer once it is durable) or undone. */
  private opened(work: JsonWork, release: () => void): Opened {
    return {
      work: work,
      commit: async () => {
        const durable = this.commit(work);
        // the next work of the account may start now; it is durable only after this one
        release();
        await durable;
      },
      abort: async () => {
        await this.abort(work);
        release();
      },
      hooks: work.commitHooks,
    };
  }

  /** A file of a work that was not kept, which could not be removed: said, and removed at the next start (keepReferencedFiles). */
  private readonly fileKept = (e: unknown): void =>
    this.logger.warn(
      `store: a file of a work not kept stays until the next start: ${(e as Error)?.message ?? String(e)}`,
    );

  private async abort(work: JsonWork): Promise<void> {
    work.rollback();
    this.live.delete(work);
    for (const undo of work.onAbort) await undo().catch(this.fileKept);
  }

  /** Queues the work for the next append; resolves once it is on disk. */
  private commit(work: JsonWork): Promise<void> {
    if (work.poison) return Promise.reject(new StorageUnavailable(work.poison));
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
      w.poison = cause;
      w.durable.reject(error);
      for (const undo of w.onAbort) void undo().catch(this.fileKept);
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
  private state(durable: Set<JsonWork> = new Set(this.live)): DbData {
    const pending = [...this.live].filter((w) => !durable.has(w));
    const data = emptyLists();
    if (!pending.length) {
      for (const name of COLLECTION_NAMES) data[name] = this.tables[name].all();
      return stateOf(data);
    }
    const entries = pending.flatMap((w) => w.undo).sort((a, b) => b.seq - a.seq);
    const touched = new Set(entries.map((u) => u.table));
    for (const name of COLLECTION_NAMES) {
      if (!touched.has(name)) {
        data[name] = this.tables[name].all();
        continue;
      }
      const copy = new MemoryTable<AnyRow>(name, SCHEMA[name] as never, this.tables[name].all());
      // cast: undoOne touches the table its entries name, and these entries name this one only
      const tables = { [name]: copy } as unknown as TableSet;
      for (const u of entries) if (u.table === name) undoOne(tables, u);
      data[name] = copy.all();
    }
    return stateOf(data);
  }

  /** Removes document and result files no record names (after a reset, a restore or a crash). */
  private async keepReferencedFiles(): Promise<void> {
    await this.files.keepOnly(new Set(namedFiles(this.tables.documents.all(), this.tables.bulk_dip_tasks.all())));
  }

  async close(): Promise<void> {
    // a failed append was said by fail(); close only waits for it
    while (this.writing) await this.writing.catch(cleanupFailed);
    await this.ownership?.release();
  }
}
