import { describe, expect, it } from 'vitest';
import { loadContract } from '../../src/contract.js';
import { seededRandom } from '../../src/deps.js';
import { deref, sample, type Schema } from '../fuzz/schema.js';
import { seedRecords } from '../fuzz/records.js';
import { DEMO, startTestServer } from '../support/helpers.js';

describe('tenancy matrix', () => {
  it('every operation with an id in its path: the Partner key on a Demo record answers 404 and changes nothing', async () => {
    const server = await startTestServer();
    try {
      const ids = await seedRecords(server);
      const document = loadContract().document as { paths: Record<string, Record<string, { requestBody?: Schema }>> };
      const operations = [...loadContract().operations.values()].filter((op) => op.path.includes('{') && op.scope);
      const r = seededRandom(9);
      let checked = 0;
      for (const op of operations) {
        const path = op.path.replace(/\{(\w+)\}/g, (_m, name: string) =>
          encodeURIComponent((name === 'account_id' ? DEMO : (ids[name] ?? ids[op.path]))!),
        );
        const bodySchema = deref(document.paths[op.path]![op.method.toLowerCase()]!.requestBody as Schema)?.content?.[
          'application/json'
        ]?.schema as Schema | undefined;
        let form: FormData | undefined;
        if (op.multipart) {
          form = new FormData();
          form.append('file', new Blob(['x'], { type: 'text/plain' }), 'x.txt');
          form.append('name', 'tenancy');
        }
        const before = JSON.stringify(await server.state());
        const res = await server.call(op.method, path, {
          key: 'partner-admin-key',
          body: bodySchema ? sample(bodySchema, r) : undefined,
          form,
        });
        const context = `${op.operationId} ${op.method} ${path} → ${res.status} ${JSON.stringify(res.body).slice(0, 200)}`;
        expect(res.status, context).toBe(404);
        expect(res.body.errors[0].code, context).toBe('not_found');
        expect(JSON.stringify(await server.state()) === before, `changed the Demo record: ${context}`).toBe(true);
        checked++;
      }
      expect(checked).toBeGreaterThan(40);
      for (const path of [
        '/api/v1/api_keys',
        '/api/v1/numbers',
        '/api/v1/carts',
        '/api/v1/orders',
        '/api/v1/switches',
        '/api/v1/optout_items',
        '/api/v1/osr/overwrite_requests',
        '/api/v1/bulk_dip_tasks',
        '/api/v1/event_subscriptions',
      ]) {
        const demo = await server.call('GET', `${path}?first=100`);
        const partner = await server.call('GET', `${path}?first=100`, { key: 'partner-admin-key' });
        const demoIds = new Set(demo.body.results.map((x: { data: { id: string } }) => x.data.id));
        expect(
          partner.body.results.filter((x: { data: { id: string } }) => demoIds.has(x.data.id)),
          path,
        ).toEqual([]);
      }
    } finally {
      await server.close();
    }
  }, 60_000);
});
