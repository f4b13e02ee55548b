/**
 * Where document files live: beside the JSON store (`files/` next to `db.json`), never inside it,
 * or in memory for an in-memory store. A file is on disk (fsynced) before its record is committed.
 */
import { mkdir, open, readdir, readFile, rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { syncFolder } from './embedded/dirs.js';

/** The file holding a bulk dip task's results. */
export const resultFileId = (taskId: string): string => `result-${taskId}`;

/** The files records name: each document's own, and each bulk dip task's results. */
export function namedFiles(
  documents: readonly { data: { id: string } }[],
  tasks: readonly { data: { id: string } }[],
): string[] {
  return [...documents.map((d) => d.data.id), ...tasks.map((t) => resultFileId(t.data.id))];
}

export interface FileArea {
  put(id: string, bytes: Buffer): Promise<void>;
  get(id: string): Promise<Buffer | undefined>;
  remove(id: string): Promise<void>;
  /** Removes every file whose id is not in `ids` (after a reset or restore). */
  keepOnly(ids: Set<string>): Promise<void>;
}

export class MemoryFiles implements FileArea {
  private readonly files = new Map<string, Buffer>();
  async put(id: string, bytes: Buffer): Promise<void> {
    this.files.set(id, bytes);
  }
  async get(id: string): Promise<Buffer | undefined> {
    return this.files.get(id);
  }
  async remove(id: string): Promise<void> {
    this.files.delete(id);
  }
  async keepOnly(ids: Set<string>): Promise<void> {
    for (const id of [...this.files.keys()]) if (!ids.has(id)) this.files.delete(id);
  }
  /** How many files there are (tests look for orphans). */
  get size(): number {
    return this.files.size;
  }
}

const SAFE_ID = /^[0-9A-Za-z-]+$/;

export class DiskFiles implements FileArea {
  constructor(private readonly dir: string) {}

  private path(id: string): string {
    if (!SAFE_ID.test(id)) throw new Error(`unsafe file id ${id}`);
    return join(this.dir, id);
  }

  async put(id: string, bytes: Buffer): Promise<void> {
    await mkdir(this.dir, { recursive: true });
    const tmp = `${this.path(id)}.tmp`;
    const fh = await open(tmp, 'w');
    try {
      await fh.writeFile(bytes);
      await fh.sync();
    } finally {
      await fh.close();
    }
    await rename(tmp, this.path(id));
    await syncFolder(this.dir);
  }

  async get(id: string): Promise<Buffer | undefined> {
    try {
      return await readFile(this.path(id));
    } catch (e) {
      // a file never written (or removed) is none; a disk that cannot be read is the caller's failure
      if (missing(e)) return undefined;
      throw e;
    }
  }

  async remove(id: string): Promise<void> {
    await rm(this.path(id), { force: true });
  }

  async keepOnly(ids: Set<string>): Promise<void> {
    let names: string[];
    try {
      names = await readdir(this.dir);
    } catch (e) {
      if (missing(e)) return;
      throw e;
    }
    await Promise.all(names.filter((n) => !ids.has(n)).map((n) => rm(join(this.dir, n), { force: true })));
  }

  async list(): Promise<string[]> {
    try {
      return await readdir(this.dir);
    } catch (e) {
      if (missing(e)) return [];
      throw e;
    }
  }
}

/** Whether a file system error says the file or folder is not there (and nothing worse). */
const missing = (e: unknown): boolean => (e as NodeJS.ErrnoException)?.code === 'ENOENT';
