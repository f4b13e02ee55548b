/**
 * A call's cost follows what it asks, not what the store holds (docs/architecture.md, "What a call reads"):
 * one sandbox's calls beside 10 and beside 60 other sandboxes, each with work waiting on its clock, read no
 * account but their own. On PostgreSQL, counted as the statements the server's connections send while the calls
 * are answered (the same beside 10 and 60); on the embedded store, as its whole-collection reads (none).
 */
import pg from 'pg';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MemoryTable } from '../../src/store/embedded/memory_table.js';
import { envelope, startTestServer, type TestServer } from '../support/helpers.js';

const onPostgres = process.env.DIPSWITCH_TEST_STORE === 'postgres';

describe('one sandbox beside many with work waiting', () => {
  let server: TestServer;
  let sent = 0;
  let whole = 0;
  let carts = 0;
  const query = pg.Client.prototype.query;
  const all = MemoryTable.prototype.all;
  const accounts = MemoryTable.prototype.accounts;
  beforeEach(async () => {
    server = await startTestServer();
    pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
      sent++;
      return (query as (...a: unknown[]) => unknown).apply(this, args);
    } as typeof query;
    MemoryTable.prototype.all = function (this: MemoryTable<never>) {
      whole++;
      return all.call(this);
    };
    MemoryTable.prototype.accounts = function (this: MemoryTable<never>) {
      whole++;
      return accounts.call(this);
    };
  });
  afterEach(async () => {
    pg.Client.prototype.query = query;
    MemoryTable.prototype.all = all;
    MemoryTable.prototype.accounts = accounts;
    await server.close();
  });

  /** A sandbox with a bulk dip waiting on its clock: its standard and admin keys. */
  async function busySandbox(name: string): Promise<{ admin: string; standard: string }> {
    const made = await server.call('POST', '/__sim/accounts', { key: null, body: { name } });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    const keys = made.body.keys as { admin: string; standard: string };
    const task = await server.call('POST', '/api/v1/bulk_dip_tasks', {
      key: keys.standard,
      body: envelope('bulk_dip_task', { type: 'CNAM', numbers: ['+13125550100'], reference_id: name }),
    });
    expect(task.status, JSON.stringify(task.body)).toBe(201);
    return keys;
  }

  /** What one round of the sandbox's calls costs: a GET, a cart made, its clock advanced, a GET after. */
  async function round(keys: { admin: string }, n: number): Promise<{ statements: number; wholeReads: number }> {
    const calls = async () => {
      expect((await server.call('GET', '/api/v1/numbers?first=5', { key: keys.admin })).status).toBe(200);
      const cart = await server.call('POST', '/api/v1/carts', {
        key: keys.admin,
        body: envelope('cart', { name: `cart ${n}.${carts++}` }),
      });
      expect(cart.status).toBe(201);
      const moved = await server.call('POST', '/__sim/clock/advance', { key: keys.admin, body: { by: 'PT1M' } });
      expect(moved.status).toBe(200);
      expect((await server.call('GET', `/api/v1/carts/${cart.body.data.id}`, { key: keys.admin })).status).toBe(200);
    };
    // the first round prepares the statements; the second is counted
    await calls();
    sent = 0;
    whole = 0;
    await calls();
    return { statements: sent, wholeReads: whole };
  }

  it('costs the same beside 10 and beside 60, and reads no other account', async () => {
    const ours = await busySandbox('ours');
    for (let i = 0; i < 10; i++) await busySandbox(`other ${i}`);
    const beside10 = await round(ours, 1);
    for (let i = 10; i < 60; i++) await busySandbox(`other ${i}`);
    const beside60 = await round(ours, 3);
    if (onPostgres) expect(beside60.statements).toBe(beside10.statements);
    else expect([beside10.wholeReads, beside60.wholeReads]).toEqual([0, 0]);
  });
});
