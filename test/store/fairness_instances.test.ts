/**
 * Fair admission on two instances over one PostgreSQL database (docs/hosted.md, "A neighbour's flood"): each
 * instance admits the calls it holds, so on each a quiet account's call goes ahead of a busy account's backlog.
 * Held by order, not by time: the busy account's calls are each held 1 s by a fault, so under a plain turn order
 * the quiet call would end after all of them.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { startCli, type Running } from '../support/cli_process.js';
import { callAt } from '../support/helpers.js';
import { usePostgres } from '../support/pg.js';

type Instance = Running & { base: string };
const started: Instance[] = [];
afterAll(() => Promise.all(started.map((s) => s.stop())));

describe('fair admission on two instances over PostgreSQL', () => {
  const pg = usePostgres();

  it("on each instance, a quiet account's call ends before the busy account's waiting calls", async () => {
    const url = await pg().database();
    // one call in the works at a time on each instance: the rest wait their account's turn
    const flags = ['--store', url, '--port', '0', '--calls-in-flight', '1', '--account-in-flight', '1'];
    for (let i = 0; i < 2; i++) started.push(await startCli([...flags, '--seed', String(40 + i)]));
    const [a, b] = started as [Instance, Instance];
    const made = async (name: string) =>
      (await callAt(a.base, 'POST', '/__sim/accounts', { key: null, body: { name } })).body.keys.admin as string;
    const busy = await made('busy');
    const quiet = await made('quiet');
    // the rule is shared by the instances: every busy listing is held 1 s
    await callAt(b.base, 'POST', '/__sim/faults', {
      key: busy,
      body: { match: { operation_id: 'listCarts' }, effect: { delay_ms: 1000 } },
    });

    const order = async (at: Instance) => {
      const ended: string[] = [];
      const call = (who: string, key: string) =>
        callAt(at.base, 'GET', '/api/v1/carts', { key }).then((r) => {
          expect(r.status).toBe(200);
          ended.push(who);
        });
      const first = call('busy1', busy);
      // the busy account's first call is in the works before the others come
      await new Promise((r) => setTimeout(r, 100));
      const rest = [call('busy2', busy), call('busy3', busy)];
      await new Promise((r) => setTimeout(r, 50));
      await Promise.all([first, ...rest, call('quiet', quiet)]);
      return ended;
    };
    const [onA, onB] = await Promise.all([order(a), order(b)]);
    expect(onA).toEqual(['busy1', 'quiet', 'busy2', 'busy3']);
    expect(onB).toEqual(['busy1', 'quiet', 'busy2', 'busy3']);
  });
});
