/**
 * What a unit of work is on every backend (store.ts's UnitOfWork over a WorkBase): the guards (a
 * read-only work writes nothing; only whole-state work replaces the state or removes an account), the
 * table wrappers (a row stored is frozen; an update applies its change to the row as stored now), an
 * account's removal with its named files. A backend adds only its storage: its rows (RowStore), its
 * files, its sequences, replacing and exporting the whole state, dropping an account's rows.
 */
import type { TableOps } from './collections.js';
import { namedFiles } from './files.js';
import { StorageUnavailable, UnitOfWork, type PeerTopic, type SeqName, type WorkFiles } from './store.js';
import { changed, deepFreeze, type Taken } from './table.js';
import type { AnyRow, CollectionName, Collections, DbData } from '../domain/rows.js';

/** A backend's rows of one collection: its reads (as TableOps has them), and the writes the base checked and froze. */
export interface RowStore<R extends AnyRow> extends Omit<TableOps<R>, 'insert' | 'update' | 'remove'> {
  /** The row as stored now, read to change it (locked for the change where the backend locks rows). */
  current(id: string): Promise<R | undefined>;
  /** Stores a new row; a unique key another row holds is refused with `taken`'s error. */
  insert(row: R, taken?: Taken): Promise<void>;
  /** Stores `after` in place of `before` (the row as `current` read it), refused as `insert` is. */
  replace(before: R | undefined, after: R, taken?: Taken): Promise<void>;
  remove(row: R): Promise<void>;
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
      table: (name) => this.table(name) as never,
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

  private table<K extends CollectionName>(name: K): TableOps<Collections[K]> {
    type R = Collections[K];
    const rows = this.rows(name);
    // the reads are the backend's own (its rows' functions close over their work)
    const { get, list, one, many, all, page } = rows;
    return {
      get,
      list,
      one,
      many,
      all,
      page,
      insert: async (row, taken) => {
        this.writable();
        const frozen = deepFreeze(row);
        await rows.insert(frozen, taken);
        return frozen;
      },
      update: async (row, change, taken) => {
        this.writable();
        const current = await rows.current(row.data.id);
        const next: R = changed(name, row.data.id, current, change);
        await rows.replace(current, next, taken);
        return next;
      },
      remove: async (row) => {
        this.writable();
        await rows.remove(row);
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
