/** Coverage kept past its account, in PostgreSQL (the instances share it): the table `tallies` (sql.ts). */
import type { KeptTally, Tally, TallyStore } from '../shared.js';
import type { PgStore } from './store.js';

/**
 * Coverage kept past its account, shared by the instances: a tally is added to in one transaction
 * holding the account's row, so two instances keeping the same account's coverage add up.
 */
export class PgTallyStore implements TallyStore {
  constructor(
    private readonly db: PgStore,
    private readonly bound: number,
    private readonly add_: (into: Tally, from: Tally) => Tally,
  ) {}

  async add(k: KeptTally): Promise<void> {
    await this.db.transaction(async (query) => {
      // the row made if missing, then locked, so two instances keeping one account's coverage add up
      await query(
        `INSERT INTO tallies (account_id, run, tally) VALUES ($1, $2, '{"calls":{},"deliveries":{},"faults":{}}')
         ON CONFLICT (account_id) DO NOTHING`,
        [k.account_id, k.run],
      );
      const found = (await query('SELECT tally FROM tallies WHERE account_id = $1 FOR UPDATE', [k.account_id])) as {
        rows: { tally: string }[];
      };
      const tally = this.add_(
        JSON.parse(found.rows[0]?.tally ?? '{"calls":{},"deliveries":{},"faults":{}}') as Tally,
        k.tally,
      );
      await query(
        `UPDATE tallies SET tally = $2, run = coalesce($3, run), seq = nextval(pg_get_serial_sequence('tallies', 'seq'))
         WHERE account_id = $1`,
        [k.account_id, JSON.stringify(tally), k.run],
      );
      await query('DELETE FROM tallies WHERE seq <= (SELECT max(seq) FROM tallies) - $1', [this.bound]);
    });
  }

  async list(f: { account_id?: string; run?: string }): Promise<KeptTally[]> {
    const rows = await this.db.query<{ account_id: string; run: string | null; tally: string }>(
      `SELECT account_id, run, tally FROM tallies
       WHERE ($1::text IS NULL OR account_id = $1) AND ($2::text IS NULL OR run = $2) ORDER BY seq`,
      [f.account_id ?? null, f.run ?? null],
    );
    return rows.map((r) => ({ account_id: r.account_id, run: r.run, tally: JSON.parse(r.tally) as Tally }));
  }

  async clear(): Promise<void> {
    await this.db.query('DELETE FROM tallies');
  }
}
