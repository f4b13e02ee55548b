/**
 * What a unit of work is on every backend (store.ts's UnitOfWork over a WorkBase): the guards (a
 * read-only work writes nothing; only whole-state work replaces the state or removes an account; a
 * collection's writes are checked against them: collections.ts), an account's removal with its named
 * files. A backend adds only its storage: its rows (RowStore), its files, its sequences, replacing and
 * exporting the whole state, dropping an account's rows.
 */
import type { RowStore } from './collections.js';
import { namedFiles } from './files.js';
import { StorageUnavailable, UnitOfWork, type PeerTopic, type SeqName, type WorkFiles } from './store.js';
import type { CollectionName, Collections, DbData } from '../domain/rows.js';

export type { RowStore } from './collections.js';

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
