/**
 * What every backend shares, written once. Its `run` (Store.run, StoreBase): the backend opens a unit
 * of work (its locks, its transaction), `fn` runs in it, and it is committed (durable) or ended
 * keeping nothing; once durable, its after-commit hooks run, and one that fails is logged, never the
 * answer (the work is durable). Its unit of work (WorkBase, the UnitOfWork the rest of dipswitch
 * sees): the guards (a read-only work writes nothing; only whole-state work replaces the state or
 * removes an account; a collection's writes are checked against them: collections.ts), an account's
 * removal with its named files. A backend supplies only how a unit of work opens, commits and ends
 * (`Opened`), what its failures become, and its storage: its rows (RowStore), its files, its
 * sequences, replacing and exporting the whole state, dropping an account's rows.
 */
import type { RowStore } from './collections.js';
import { namedFiles } from './files.js';
import {
  StorageUnavailable,
  UnitOfWork,
  type CallerRows,
  type KeyLookup,
  type PeerTopic,
  type SeqName,
  type WorkFiles,
  type WorkScope,
} from './store.js';
import type { CollectionName, Collections, DbData } from '../domain/rows.js';

/** A unit of work a backend opened. */
export interface Opened {
  readonly work: UnitOfWork;
  /** Makes the work durable, resolving once it is; a commit that fails has ended the work itself. */
  commit(): Promise<void>;
  /** Ends the work keeping nothing of it (`fn` failed). */
  abort(): Promise<void>;
  /** What runs once the work is durable, in order. */
  readonly hooks: readonly (() => void | Promise<void>)[];
}

export abstract class StoreBase {
  protected abstract readonly logger: { warn(message: string): void };

  /** Opens a unit of work of `scope`, its locks taken. */
  protected abstract open(scope: WorkScope): Promise<Opened>;

  /** What a failure of a unit of work becomes for its caller (a backend's own: StorageUnavailable). */
  protected failure(e: unknown): unknown {
    return e;
  }

  async run<T>(scope: WorkScope, fn: (work: UnitOfWork) => Promise<T>): Promise<T> {
    let opened: Opened;
    try {
      opened = await this.open(scope);
    } catch (e) {
      throw this.failure(e);
    }
    let result: T;
    try {
      result = await fn(opened.work);
    } catch (e) {
      await opened.abort();
      throw this.failure(e);
    }
    try {
      await opened.commit();
    } catch (e) {
      throw this.failure(e);
    }
    for (const hook of opened.hooks) {
      try {
        await hook();
      } catch (e) {
        this.logger.warn(`store: after a commit: ${(e as Error).message}`);
      }
    }
    return result;
  }

  /** The rows a caller's key names, read in a unit of work of their own (Store.caller). */
  caller(lookup: KeyLookup): Promise<CallerRows> {
    return this.run({ read: true }, (w) => readCaller(w, lookup));
  }
}

/** The rows a caller's key names, read one table at a time. */
export async function readCaller(w: UnitOfWork, lookup: KeyLookup): Promise<CallerRows> {
  const key = await w.apiKeys[lookup.index === 'key' ? 'byKey' : 'byIdentity'](lookup.value);
  if (!key) return { key, user: undefined, clock: undefined };
  const user = key.user_id ? await w.users.get(key.account_id, key.user_id) : undefined;
  return { key, user, clock: await w.clocks.getAnyAccount(key.account_id) };
}

export abstract class WorkBase {
  private made?: UnitOfWork;

  constructor(
    protected readonly readOnly: boolean,
    protected readonly global: boolean,
  ) {}

  /** The work as the rest of dipswitch sees it (made at first use, once the backend's fields are set). */
  get uow(): UnitOfWork {
    return (this.made ??= this.unitOfWork());
  }

  private unitOfWork(): UnitOfWork {
    const tell = this.tell?.bind(this);
    return new UnitOfWork({
      rows: (name) => this.rows(name),
      writable: () => this.writable(),
      tell:
        tell &&
        (async (topic, payload) => {
          this.writable();
          await tell(topic, payload);
        }),
      files: this.guardedFiles(),
      afterCommit: (fn) => {
        this.writable();
        this.afterCommit(fn);
      },
      nextSeq: (name) => this.nextSeq(name),
      replaceAll: async (data) => {
        this.wholeState();
        await this.replaceState(data);
      },
      removeAccount: async (accountId) => {
        this.wholeState();
        const { documents, bulkDipTasks } = this.uow;
        const files = namedFiles(await documents.list(accountId), await bulkDipTasks.list(accountId));
        await this.dropAccount(accountId);
        for (const id of files) this.uow.files.remove(id);
      },
      exportState: () => this.exportState(),
    });
  }

  /** Why this work may write nothing more (the disk refused one of its store's writes), if it may not. */
  protected poisoned(): unknown {
    return null;
  }

  protected writable(): void {
    const poison = this.poisoned();
    if (poison) throw new StorageUnavailable(poison);
    if (this.readOnly) throw new Error('this unit of work only reads');
  }

  protected wholeState(): void {
    this.writable();
    if (!this.global) throw new Error('only whole-state work may do this');
  }

  private guardedFiles(): WorkFiles {
    const files = this.files();
    return {
      put: async (id, bytes) => {
        this.writable();
        await files.put(id, bytes);
      },
      get: (id) => files.get(id),
      remove: (id) => {
        this.writable();
        files.remove(id);
      },
    };
  }

  /** The backend's rows of a collection. */
  protected abstract rows<K extends CollectionName>(name: K): RowStore<Collections[K]>;
  /** The backend's files: a file put is kept only if the work commits; one removed goes only then. */
  protected abstract files(): WorkFiles;
  /** Runs `fn` once the work is durable. */
  protected abstract afterCommit(fn: () => void | Promise<void>): void;
  protected abstract nextSeq(name: SeqName): Promise<number>;
  protected abstract replaceState(data: DbData): Promise<void>;
  /** Removes every row of the account (its files are the base's). */
  protected abstract dropAccount(accountId: string): Promise<void>;
  protected abstract exportState(): Promise<DbData>;
  /** Tells the other instances, once the work commits (a store several instances share). */
  protected tell?(topic: PeerTopic, payload: string): Promise<void>;
}
