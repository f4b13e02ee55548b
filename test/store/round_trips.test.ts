/**
 * The round trips one call of the simulated API costs on PostgreSQL (BENCHMARKS.md): the store reads
 * what the call reads with the caller's key, and a write's work begins in the same round trip.
 * Counted as the statements the server's connections send while the call is answered.
 */
import pg from 'pg';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { envelope, startTestServer, type TestServer } from '../support/helpers.js';

const onPostgres = process.env.DIPSWITCH_TEST_STORE === 'postgres';

describe.runIf(onPostgres)('the round trips of a call (PostgreSQL)', () => {
  let server: TestServer;
  let sent = 0;
  const query = pg.Client.prototype.query;
  beforeEach(async () => {
    server = await startTestServer();
    const counted = function (this: pg.Client, ...args: unknown[]) {
      sent++;
      return (query as (...a: unknown[]) => unknown).apply(this, args);
    };
    pg.Client.prototype.query = counted as typeof query;
  });
  afterEach(async () => {
    pg.Client.prototype.query = query;
    await server.close();
  });

  /** The statements sent while the call is answered (its second run: the first prepares its statements). */
  async function tripsOf(method: string, path: string, body?: (n: number) => unknown): Promise<number> {
    await server.call(method, path, { body: body?.(1) });
    sent = 0;
    const res = await server.call(method, path, { body: body?.(2) });
    expect(res.status, JSON.stringify(res.body)).toBeLessThan(300);
    return sent;
  }

  it('a GET of a record, a list and a create cost 2, 2 and 3', async () => {
    const made = await server.call('POST', '/api/v1/carts', { body: envelope('cart', { name: 'trips' }) });
    const trips = {
      get: await tripsOf('GET', `/api/v1/carts/${made.body.data.id}`),
      list: await tripsOf('GET', '/api/v1/carts?first=5'),
      create: await tripsOf('POST', '/api/v1/carts', (n) => envelope('cart', { name: `another ${n}` })),
    };
    expect(trips).toEqual({ get: 2, list: 2, create: 3 });
  });
});
