/**
 * Slots held over every instance of one database (Peers.slots): a listener takes one of its account's, under the
 * account's advisory lock, so two instances opening the sixth at once cannot both have it. A slot an instance no
 * longer keeps (it stopped, or crashed) lapses after its time to live.
 */
import pg from 'pg';
import { cleanupFailed } from '../../domain/side_paths.js';
import { StorageUnavailable, type Slots } from '../store.js';

export class PgSlots implements Slots {
  constructor(private readonly pool: pg.Pool) {}

  async take(kind: string, account: string, id: string, limit: number, ttlMs: number): Promise<boolean> {
    const client = await this.pool.connect().catch((e: unknown) => {
      throw new StorageUnavailable(e);
    });
    try {
      await client.query('BEGIN');
      await client.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`slot ${kind} ${account}`]);
      await client.query(
        'DELETE FROM slots WHERE kind = $1 AND account_id = $2 AND kept_at < clock_timestamp() - make_interval(secs => $3)',
        [kind, account, ttlMs / 1000],
      );
      const held = await client.query<{ n: number }>(
        'SELECT count(*)::int AS n FROM slots WHERE kind = $1 AND account_id = $2',
        [kind, account],
      );
      if ((held.rows[0]?.n ?? 0) >= limit) {
        await client.query('ROLLBACK');
        return false;
      }
      await client.query('INSERT INTO slots (id, kind, account_id, kept_at) VALUES ($1, $2, $3, clock_timestamp())', [
        id,
        kind,
        account,
      ]);
      await client.query('COMMIT');
      return true;
    } catch (e) {
      // the transaction is given up whatever its state; the error said is the statement's
      await client.query('ROLLBACK').catch(cleanupFailed);
      throw new StorageUnavailable(e);
    } finally {
      client.release();
    }
  }

  async give(id: string): Promise<void> {
    await this.pool.query('DELETE FROM slots WHERE id = $1', [id]);
  }

  async keep(ids: readonly string[]): Promise<void> {
    if (ids.length) await this.pool.query('UPDATE slots SET kept_at = clock_timestamp() WHERE id = ANY($1)', [ids]);
  }
}
