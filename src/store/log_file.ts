/**
 * A lowdb adapter whose writes cost what they change, not what the store holds: each commit
 * appends its changed rows to `db.json.log` (one JSON line, fsynced); from time to time the whole
 * state is written to `db.json` (temporary file, fsync, rename) and the log starts over.
 * Reading takes the snapshot and replays the log; a torn last line (a crash mid-append) is dropped.
 */
import { mkdir, open, readFile, rename, stat, truncate } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { Adapter } from 'lowdb';

/** One change: a row put or deleted (by id) in a collection, or a top-level value set whole. */
export type Change = ['put', string, { data: { id: string } }] | ['del', string, string] | ['set', string, unknown];

/** Compact once the log holds this many bytes. */
const COMPACT_AT_BYTES = 32 * 1024 * 1024;

export class LogFile<T extends object> implements Adapter<T> {
  readonly logPath: string;
  private logBytes = 0;

  constructor(readonly path: string) {
    this.logPath = `${path}.log`;
  }

  async read(): Promise<T | null> {
    let data: Record<string, unknown> | null = null;
    try {
      const text = await readFile(this.path, 'utf8');
      data = text.trim() ? (JSON.parse(text) as Record<string, unknown>) : null;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
    }
    let log = '';
    try {
      log = await readFile(this.logPath, 'utf8');
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
    }
    if (!log) return data as T | null;
    data ??= {};
    const indexes = new Map<string, Map<string, number>>();
    const indexOf = (collection: string): Map<string, number> => {
      let index = indexes.get(collection);
      if (!index) {
        const rows = (data![collection] as { data: { id: string } }[] | undefined) ?? [];
        data![collection] = rows;
        index = new Map(rows.map((r, i) => [r.data.id, i]));
        indexes.set(collection, index);
      }
      return index;
    };
    let good = 0;
    for (const line of log.split('\n')) {
      if (!line) {
        good += 1;
        continue;
      }
      let changes: Change[];
      try {
        changes = JSON.parse(line) as Change[];
      } catch {
        break; // a torn tail: everything before it was acknowledged, this was not
      }
      for (const [op, key, value] of changes) {
        if (op === 'set') {
          data[key] = value;
          indexes.delete(key);
          continue;
        }
        const rows = data[key] as ({ data: { id: string } } | null)[];
        const index = indexOf(key);
        const id = op === 'put' ? value.data.id : value;
        const at = index.get(id);
        if (op === 'put') {
          if (at === undefined) {
            index.set(id, rows.length);
            rows.push(value);
          } else rows[at] = value;
        } else if (at !== undefined) {
          rows[at] = null;
          index.delete(id);
        }
      }
      good += Buffer.byteLength(line) + 1;
    }
    for (const [collection] of indexes) data[collection] = (data[collection] as unknown[]).filter((r) => r !== null);
    if (good < Buffer.byteLength(log)) await truncate(this.logPath, Math.min(good, Buffer.byteLength(log)));
    this.logBytes = Math.min(good, Buffer.byteLength(log));
    return data as T;
  }

  /** Appends one commit's changes, durably. */
  async append(changes: Change[]): Promise<void> {
    if (!changes.length) return;
    await mkdir(dirname(this.path), { recursive: true });
    const line = `${JSON.stringify(changes)}\n`;
    const fh = await open(this.logPath, 'a');
    try {
      await fh.writeFile(line);
      await fh.sync();
    } finally {
      await fh.close();
    }
    this.logBytes += Buffer.byteLength(line);
  }

  get needsCompaction(): boolean {
    return this.logBytes > COMPACT_AT_BYTES;
  }

  /** The whole state as the new snapshot; then the log starts over. */
  async write(data: T): Promise<void> {
    await mkdir(dirname(this.path), { recursive: true });
    const tmp = `${this.path}.tmp`;
    const fh = await open(tmp, 'w');
    try {
      await fh.writeFile(JSON.stringify(data));
      await fh.sync();
    } finally {
      await fh.close();
    }
    await rename(tmp, this.path);
    try {
      if ((await stat(this.logPath)).size > 0) await truncate(this.logPath, 0);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
    }
    this.logBytes = 0;
  }
}
