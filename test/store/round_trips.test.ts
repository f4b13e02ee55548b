/**
 * The round trips one call of the simulated API costs on PostgreSQL (BENCHMARKS.md): the caller's rows
 * come from the instance's copy (src/store/postgres/callers.ts), a read costs its reads and a write's
 * work begins with its locks and clock in one round trip. Counted as the statements the server's
 * connections send while the call is answered.
 */
import pg from 'pg';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadContract, type OperationId } from '../../src/contract.js';
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
  async function tripsOf(method: string, path: string, body?: (n: number) => unknown, status = 300): Promise<number> {
    await server.call(method, path, { body: body?.(1) });
    sent = 0;
    const res = await server.call(method, path, { body: body?.(2) });
    expect(res.status, `${path}: ${JSON.stringify(res.body)}`).toBeLessThan(status);
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

  it('every GET of one record or of a page costs 2 once its operation was called', async () => {
    // a GET of one record or one page costs that read and the journal's
    const contract = loadContract();
    const costs: Record<string, number> = {};
    for (const id of READ_FIRST) {
      const meta = contract.operations.get(id)!;
      let path = meta.path;
      if (!/^list/.test(id)) {
        for (const name of [...path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!))
          path = path.replace(`{${name}}`, idFor(contract.document, meta.path, name));
        costs[id] = await tripsOf('GET', path, undefined, 500);
      } else costs[id] = await tripsOf('GET', `${path}?first=5`);
    }
    expect(Object.entries(costs).filter(([, n]) => n !== 2)).toEqual([]);
  });
});

/** The GETs whose first read is one record by a path parameter, or one page of the account's list. */
const READ_FIRST: OperationId[] = [
  'getApiKey',
  'getSecretKey',
  'getUser',
  'getSwitch',
  'getAutoResponse',
  'getCart',
  'getOrder',
  'getCartRequest',
  'getRequest',
  'getBulkDipTask',
  'getCallDataWebhook',
  'getEventSubscription',
  'listApiKeys',
  'listSecretKeys',
  'listUsers',
  'listSwitches',
  'listNumbers',
  'listAutoResponses',
  'listOptoutItems',
  'listCarts',
  'listOrders',
  'listBulkDipTasks',
  'listCallDataWebhooks',
  'listEventSubscriptions',
];

/** An id no record has, in the format the path parameter takes (a ULID or a UUID). */
function idFor(document: unknown, path: string, name: string): string {
  const doc = document as { paths: Record<string, { parameters?: unknown[]; get?: { parameters?: unknown[] } }> };
  const item = doc.paths[path]!;
  const text = JSON.stringify([...(item.parameters ?? []), ...(item.get?.parameters ?? [])]);
  const refs = [...text.matchAll(/#\/components\/parameters\/(\w+)/g)].map((m) => m[1]);
  const params = (document as { components: { parameters: Record<string, { name: string }> } }).components.parameters;
  const param = refs.map((r) => params[r!]).find((p) => p?.name === name);
  return /uuid/.test(JSON.stringify(param)) ? '0f0f0f0f-0000-4000-8000-00000000f00d' : '01JZZZZZZZZZZZZZZZZZZZZZZZ';
}
