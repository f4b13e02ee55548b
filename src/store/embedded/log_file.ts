/**
 * The embedded store on disk: `db.json`, a snapshot of the whole state marked as a dipswitch store,
 * and `db.json.log`, an append-only change log. Each commit appends one line holding the rows it
 * changed, with the line's length and CRC-32 (log_line.ts), and fsyncs it; from time to time the
 * whole state is written as the new snapshot (temporary file, fsync, rename) and the log starts over.
 * A file's name is durable only once its folder is fsynced too: after the rename (before the log is
 * cut, so a power cut leaves either the old snapshot with its whole log or the new one), after the
 * log's first line, and after a file kept aside.
 *
 * Reading tells a torn write from damage: a bad *last* line was never acknowledged (a crash
 * mid-append) and is dropped with a warning; a bad line with good lines after it is damage, and the
 * store refuses to open (StoreRefused, `damaged`: refusals.ts) unless asked to repair, which moves
 * the file aside and keeps the valid prefix (the repairs of a store are repair.ts's). A file that
 * is not a dipswitch store is refused, never overwritten; a store of the first format is read
 * through log_v1.ts and rewritten in this one.
 */
import { upgradeDid } from '../../domain/numbers.js';
import { copyFile, open, readFile, rename, rm, stat, truncate } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { exists, makeDirs, onlyFiles, syncFolder } from './dirs.js';
import { fromV1, replayV1 } from './log_v1.js';
import { COLLECTION_NAMES, emptyLists, stateOf, type AnyRow, type CollectionName, type DbData } from '../schema.js';
import { lostWith, type Warn } from '../../domain/side_paths.js';
import { logLine, parseLine, type Change } from './log_line.js';
import { StoreRefused } from './refusals.js';

export const STORE_FORMAT = 'dipswitch-store';
export const STORE_VERSION = 2;
const LOG_HEADER = `#dipswitch-log ${STORE_VERSION}\n`;

/** Compact once the log holds this many bytes. */
const COMPACT_AT_BYTES = 32 * 1024 * 1024;

export interface ReadResult {
  /** null: there is no store here yet. */
  state: DbData | null;
  warnings: string[];
  /** The snapshot was an older format and has been rewritten. */
  migrated: boolean;
}

export class LogFile {
  readonly logPath: string;
  private logBytes = 0;

  constructor(
    readonly path: string,
    private readonly warn: Warn = () => {},
  ) {
    this.logPath = `${path}.log`;
  }

  /** Makes the store folder's entries (a file created, renamed) durable. */
  protected async syncFolder(): Promise<void> {
    await syncFolder(dirname(this.path));
  }

  get needsCompaction(): boolean {
    return this.logBytes > COMPACT_AT_BYTES;
  }

  /**
   * Fails (with the operating system's error) unless the store's folder, snapshot and log can be
   * written: a store opened read-only would accept nothing, so it is found at start.
   */
  async checkWritable(): Promise<void> {
    const dir = dirname(this.path);
    await makeDirs(dir);
    const probe = join(dir, `.dipswitch-probe-${process.pid}`);
    await open(probe, 'w').then(
      (fh) => fh.close(),
      (e: NodeJS.ErrnoException) => {
        // the folder is what cannot be written
        e.path = dir;
        throw e;
      },
    );
    await rm(probe, { force: true });
    for (const file of [this.path, this.logPath]) if (await exists(file)) await (await open(file, 'r+')).close();
  }

  /** Reads the snapshot and replays the log; `repair` keeps the valid prefix of a damaged log. */
  async read(opts: { repair?: boolean } = {}): Promise<ReadResult> {
    const warnings: string[] = [];
    await onlyFiles([this.path, this.logPath]);
    const snapshot = await this.readSnapshot();
    if (snapshot === null) {
      if (await exists(this.logPath)) {
        throw new StoreRefused(
          `${this.logPath} exists without its snapshot ${this.path}; refusing to start on half a store.`,
          'damaged',
        );
      }
      return { state: null, warnings, migrated: false };
    }
    const { tables, version } = snapshot;
    let text = '';
    try {
      text = await readFile(this.logPath, 'utf8');
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
    }
    if (version === 1) {
      replayV1(tables, text);
      const state = toDb(tables);
      await this.write(state);
      return { state, warnings: [`${this.path}: upgraded from store format 1 to ${STORE_VERSION}`], migrated: true };
    }
    if (text && LOG_HEADER.startsWith(text)) {
      warnings.push(
        `${this.logPath}: dropped a torn first write (${Buffer.byteLength(text)} bytes); it was never acknowledged.`,
      );
      await truncate(this.logPath, 0);
      text = '';
    }
    if (text && !text.startsWith(LOG_HEADER)) {
      if (!opts.repair)
        throw new StoreRefused(
          `${this.logPath} is not a dipswitch change log (its first line is not "${LOG_HEADER.trim()}"). Move it aside, or start with --repair to drop it.`,
          'damaged',
        );
      await this.moveAside(text, 0, warnings);
      text = '';
    }
    this.logBytes = await this.replay(tables, text, opts.repair ?? false, warnings);
    return { state: toDb(tables), warnings, migrated: false };
  }

  /**
   * Applies the log's lines to the tables; answers the bytes kept. A bad last line was never
   * acknowledged (a crash mid-append) and is cut off; a bad line with good ones after it is damage:
   * refused, or with `repair` the log is copied aside and cut back to the writes before it.
   */
  private async replay(tables: Tables, text: string, repair: boolean, warnings: string[]): Promise<number> {
    let offset = text ? Buffer.byteLength(LOG_HEADER) : 0;
    const lines = text ? text.slice(LOG_HEADER.length).split('\n') : [];
    // the piece after the last newline is a line only if the file does not end with one
    if (lines[lines.length - 1] === '') lines.pop();
    for (const [i, line] of lines.entries()) {
      // a second header is a second writer's first append: it holds no write of its own
      if (line === LOG_HEADER.trim() && repair) {
        warnings.push(
          `${this.logPath}: skipped a second log header at line ${i + 2}: two processes appended to this log.`,
        );
        offset += Buffer.byteLength(line) + 1;
        continue;
      }
      const changes = parseLine(line);
      if (!changes) {
        const following = lines.slice(i + 1).filter((l) => parseLine(l) !== null).length;
        if (following === 0) {
          warnings.push(
            `${this.logPath}: dropped a torn last write at byte ${offset} (line ${i + 2}, ${Buffer.byteLength(text) - offset} bytes); it was never acknowledged.`,
          );
          await truncate(this.logPath, offset);
          break;
        }
        if (!repair) {
          const twice = line === LOG_HEADER.trim() ? ' (a second header: two processes appended to this log)' : '';
          throw new StoreRefused(
            `${this.logPath} is damaged at line ${i + 2} (byte ${offset})${twice}: ${following} acknowledged write(s) follow it. ` +
              'Start with --repair (or run `dipswitch store repair`) to move the file aside and keep the writes before the damage.',
            'damaged',
          );
        }
        await this.moveAside(text, offset, warnings);
        warnings.push(
          `${this.logPath}: repaired; kept the writes before byte ${offset}, dropped ${following + 1} line(s).`,
        );
        break;
      }
      applyChanges(tables, changes);
      offset += Buffer.byteLength(line) + 1;
    }
    return offset;
  }

  /** Keeps a damaged log beside the store, and leaves its first `keep` bytes as the log. */
  private async moveAside(text: string, keep: number, warnings: string[]): Promise<void> {
    const aside = `${this.logPath}.damaged-${process.pid}-${Buffer.byteLength(text)}`;
    await copyFile(this.logPath, aside);
    const copy = await open(aside, 'r+');
    await copy.sync().finally(() => copy.close());
    await this.syncFolder();
    await truncate(this.logPath, keep);
    warnings.push(`${this.logPath}: the damaged log was copied to ${aside}.`);
  }

  /** Writes rows a repair set aside to a file beside the store; answers its path. */
  async keepAside(rows: unknown[]): Promise<string> {
    const aside = `${this.path}.conflicts-${process.pid}-${rows.length}.json`;
    const fh = await open(aside, 'w');
    try {
      await fh.writeFile(JSON.stringify(rows, null, 1));
      await fh.sync();
    } finally {
      await fh.close();
    }
    await this.syncFolder();
    return aside;
  }

  private async readSnapshot(): Promise<{ tables: Tables; version: number } | null> {
    let text: string;
    try {
      text = await readFile(this.path, 'utf8');
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw e;
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch (e) {
      throw new StoreRefused(
        `${this.path} is not valid JSON (${(e as Error).message.split('\n')[0]}); the snapshot is damaged. Restore it from a backup; dipswitch will not overwrite it.`,
        'damaged',
      );
    }
    const doc = parsed as Record<string, unknown> | null;
    if (doc && doc.format === STORE_FORMAT) {
      if (typeof doc.version !== 'number' || doc.version > STORE_VERSION) {
        throw new StoreRefused(
          `${this.path} is a dipswitch store of format version ${String(doc.version)}; this dipswitch reads version ${STORE_VERSION}.`,
          'newer',
        );
      }
      const collections = doc.collections as Record<string, unknown> | undefined;
      if (!collections || typeof collections !== 'object')
        throw new StoreRefused(`${this.path} has no collections; the snapshot is damaged.`, 'damaged');
      return { tables: fromDb(collections, this.path), version: STORE_VERSION };
    }
    if (doc && doc.version === 1 && Array.isArray(doc.accounts) && Array.isArray(doc.schedule)) {
      return { tables: fromDb(fromV1(doc), 'format 1 snapshot'), version: 1 };
    }
    throw new StoreRefused(
      `${this.path} is not a dipswitch store (no "format": "${STORE_FORMAT}" marker); refusing to overwrite it. Point --data at a new file.`,
      'not_a_store',
    );
  }

  /** Appends one commit's changes, durably; on failure the log is cut back to what it held. */
  async append(changes: Change[]): Promise<void> {
    if (!changes.length) return;
    await makeDirs(dirname(this.path));
    const line = (this.logBytes === 0 ? LOG_HEADER : '') + logLine(changes);
    const before = this.logBytes;
    const fh = await open(this.logPath, 'a');
    try {
      await fh.writeFile(line);
      await fh.sync();
    } catch (e) {
      // a partial line would read as damage once later lines follow it
      await fh
        .truncate(before)
        .catch(
          lostWith(this.warn, `${this.logPath}: cutting back a failed append (the next start drops its torn line)`),
        );
      throw e;
    } finally {
      await fh.close();
    }
    // the log's first line may have made the file: its name is durable once the folder is
    if (before === 0) await this.syncFolder();
    this.logBytes = before + Buffer.byteLength(line);
  }

  /** The whole state as the new snapshot; then the log starts over. */
  async write(data: DbData): Promise<void> {
    await makeDirs(dirname(this.path));
    const tmp = `${this.path}.tmp`;
    const fh = await open(tmp, 'w');
    try {
      await fh.writeFile(JSON.stringify({ format: STORE_FORMAT, version: STORE_VERSION, collections: data }));
      await fh.sync();
    } catch (e) {
      await fh.close();
      await rm(tmp, { force: true });
      throw e;
    }
    await fh.close();
    await rename(tmp, this.path);
    // the new snapshot's name durable before the log it replaces is cut
    await this.syncFolder();
    try {
      if ((await stat(this.logPath)).size > 0) await truncate(this.logPath, 0);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
    }
    this.logBytes = 0;
  }
}

/** Each collection's rows by id, in the order they came. */
type Tables = Map<CollectionName, Map<string, AnyRow>>;

function fromDb(collections: Record<string, unknown>, path: string): Tables {
  const tables: Tables = new Map();
  for (const name of COLLECTION_NAMES) {
    const rows = collections[name] ?? [];
    if (!Array.isArray(rows))
      throw new StoreRefused(`${path}: collection ${name} is not a list; the snapshot is damaged.`, 'damaged');
    tables.set(name, new Map((rows as AnyRow[]).map((r) => [r.data.id, r])));
  }
  return tables;
}

function toDb(tables: Tables): DbData {
  const db = emptyLists();
  for (const [name, rows] of tables) db[name] = [...rows.values()];
  const state = stateOf(db);
  // records stored before a field was renamed read as they are now (rewritten at the next compaction)
  return { ...state, numbers: state.numbers.map((n) => ({ ...n, data: upgradeDid(n.data) })) };
}

function applyChanges(tables: Tables, changes: Change[]): void {
  for (const [op, name, value] of changes) {
    const rows = tables.get(name);
    if (!rows) continue;
    if (op === 'put') rows.set(value.data.id, value);
    else rows.delete(value);
  }
}
