/**
 * A unit of work's writes on PostgreSQL, held and sent together in one round trip: before its next
 * read (which must see them), or with its COMMIT. Each carries its values as literals in its text.
 */
import pg from 'pg';
import { duplicateError, type OnDuplicate } from '../collections.js';
import type { AnyRow, CollectionName } from '../schema.js';
import { indexKeys } from './index_keys.js';
import type { Queries } from './statements.js';
import { violationOf } from './answers.js';
import { countedIn, sortOf, table } from './sql.js';

/** Writes a unit of work holds before it sends them on anyway (a whole state replaced): statements, and bytes. */
const PENDING_STATEMENTS = 500;
const PENDING_BYTES = 1 << 20;

/** A value as an SQL literal (the statements sent in one round trip carry their values in their text). */
export const literal = (value: string): string => pg.escapeLiteral(value);

export class PendingWrites {
  private statements: string[] = [];
  private bytes = 0;
  /** The errors its writes asked for, by collection, should an index refuse one (`OnDuplicate`). */
  private readonly onDuplicate = new Map<CollectionName, OnDuplicate>();

  constructor(private readonly db: Queries) {}

  onDuplicateOf(name: CollectionName, onDuplicate: OnDuplicate | undefined): void {
    if (onDuplicate) this.onDuplicate.set(name, { ...this.onDuplicate.get(name), ...onDuplicate });
  }

  /** Sends the writes not sent yet, in one round trip; an index's refusal is the write's `OnDuplicate` error. */
  async flush(): Promise<void> {
    if (!this.statements.length) return;
    const text = this.statements.join(';\n');
    this.statements = [];
    this.bytes = 0;
    await this.db.batch(text).catch((e: unknown) => {
      const violation = violationOf(e);
      throw violation ? duplicateError(violation, this.onDuplicate.get(violation.collection as CollectionName)) : e;
    });
  }

  /** Queues statements; a long queue (a whole state replaced) is sent on, not held to the end. */
  async later(...statements: string[]): Promise<void> {
    this.statements.push(...statements);
    this.bytes += statements.reduce((n, sql) => n + sql.length, 0);
    if (this.statements.length >= PENDING_STATEMENTS || this.bytes >= PENDING_BYTES) await this.flush();
  }

  /**
   * Writes a row and its index keys: a new row is inserted, refused with its keys if its id is
   * onDuplicate; a changed one replaces the stored row and its old keys. A unique key another row holds is
   * refused by the index's constraint. A refusal ends the work, when the statements are sent, with
   * UniqueViolation (`violationOf`). `counted`: the row counts in its account's list.
   */
  async row(name: CollectionName, row: AnyRow, fresh: boolean, counted: boolean): Promise<void> {
    const [id, sort] = [literal(row.data.id), literal(sortOf(name, row))];
    const values = `(${id}, ${literal(row.account_id)}, ${sort}, ${literal(JSON.stringify(row))})`;
    const { keys } = indexKeys(name, row);
    const keyRows = keys.map(
      (k) => `(${literal(name)}, ${literal(k.index)}, ${literal(k.key)}, ${id}, ${sort}, ${k.unique})`,
    );
    const insertKeys = keyRows.length
      ? [`INSERT INTO row_index (collection, index_name, key, id, sort, is_unique) VALUES ${keyRows.join(', ')}`]
      : [];
    const insert = `INSERT INTO ${table(name)} (id, account_id, sort, row) VALUES ${values}`;
    if (fresh) return this.later(insert, ...insertKeys, ...(counted ? [countedIn(name, literal(row.account_id))] : []));
    await this.later(
      `${insert} ON CONFLICT (id) DO UPDATE SET account_id = excluded.account_id, sort = excluded.sort, row = excluded.row`,
      `DELETE FROM row_index WHERE collection = ${literal(name)} AND id = ${id}`,
      ...insertKeys,
    );
  }
}
