/**
 * Contract fuzzing: for every operation, inputs derived from the contract and broken in every way
 * test/fuzz/schema.ts knows. Every answer: no 5xx, the error envelope, valid against the contract
 * (the test server checks each one); a rejected write changes nothing. Replay with FUZZ_SEED.
 */
import { describe, expect, it } from 'vitest';
import { seededRandom } from '../../src/deps.js';
import { loadContract } from '../../src/http/contract.js';
import { DEMO, envelope, startTestServer, type TestServer } from '../helpers.js';
import { deref, mutate, sample, type Schema } from './schema.js';

const SEED = Number(process.env.FUZZ_SEED ?? 20261122);
const REQUESTS = Number(process.env.FUZZ_REQUESTS ?? 10_000);

/** One real record of each kind, so requests reach past the 404s. */
async function seedRecords(s: TestServer): Promise<Record<string, string>> {
  const post = async (path: string, type: string, data: unknown, key?: string) => (await s.call('POST', path, { body: envelope(type, data), key })).body.data;
  const sw = await post('/api/v1/switches', 'switch', { name: 'fuzz' });
  const ar = await post('/api/v1/auto_responses', 'messaging_auto_response', { name: 'fuzz', keywords: [{ keyword: 'HI' }] });
  const sk = await post('/api/v1/secret_keys', 'secret_key', { name: 'fuzz', size: 32, usage: 'ENCRYPTION' });
  const user = await post('/api/v1/users', 'user', { email: 'fuzz@demo-telecom.example' });
  const optout = await post('/api/v1/numbers/+13125550100/optout_items', 'number_optout_item', { remote_number: '+14155550123' });
  const dest = await post('/api/v1/numbers/+13125550100/destinations', 'number_destination', { type: 'TTS', destination: 'BUSY' });
  const cart = await post('/api/v1/carts', 'cart', { name: 'fuzz cart' });
  const req = await post(`/api/v1/carts/${cart.id}/requests`, 'request', { type: 'REMOVE_NUMBERS', data: { numbers: ['+13125550109'] } });
  const form = new FormData();
  form.append('file', new Blob(['%PDF-1.7 fuzz'], { type: 'application/pdf' }), 'f.pdf');
  form.append('name', 'fuzz doc');
  const doc = (await s.call('POST', `/api/v1/carts/${cart.id}/requests/${req.id}/documents`, { form })).body.data;
  const order = await post('/api/v1/carts', 'cart', { name: 'fuzz order' });
  const submitted = await post(`/api/v1/carts/${order.id}/requests`, 'request', { type: 'REMOVE_NUMBERS', data: { numbers: ['+13125550108'] } });
  await s.call('POST', `/api/v1/carts/${order.id}/checkout`);
  const dip = await post('/api/v1/bulk_dip_tasks', 'bulk_dip_task', { type: 'LRN', numbers: ['+13125550100'], reference_id: 'fuzz' });
  const cdr = await post('/api/v1/call_data_webhooks', 'call_data_webhook', { name: 'fuzz', protocol: 'NONE' });
  const sub = await post('/api/v1/event_subscriptions', 'event_subscription', { name: 'fuzz', protocol: 'NONE', topics: ['NONE'] });
  return {
    '/api/v1/api_keys/{id}': '0a0a0a0a-0000-4000-8000-000000000303', '/api/v1/secret_keys/{id}': sk.id, '/api/v1/users/{id}': user.id,
    '/api/v1/switches/{id}': sw.id, switch_id: sw.id, '/api/v1/switches/{switch_id}/mms_encryption_key/{id}': sk.id,
    number_id: '+13125550100', '/api/v1/auto_responses/{id}': ar.id, '/api/v1/optout_items/{id}': optout.id,
    '/api/v1/numbers/{number_id}/destinations/{id}': dest.id, '/api/v1/carts/{id}': cart.id, cart_id: cart.id,
    '/api/v1/carts/{cart_id}/requests/{id}': req.id, request_id: req.id, '/api/v1/carts/{cart_id}/requests/{request_id}/documents/{id}': doc.id,
    '/api/v1/orders/{id}': order.id, '/api/v1/requests/{id}': submitted.id, '/api/v1/requests/{request_id}/documents/{id}': doc.id,
    campaign_id: '01KEAQ8JB0DEM0CAMPA1GN0001', account_id: '0a0a0a0a-0000-4000-8000-000000000002', shared_resource_group_id: '0a0a0a0a-0000-4000-8000-000000000601',
    '/api/v1/bulk_dip_tasks/{id}': dip.id, '/api/v1/call_data_webhooks/{id}': cdr.id, '/api/v1/event_subscriptions/{id}': sub.id,
    '/api/v1/osr/overwrite_requests/{id}': '01KEB0R5R0VERWR1TE00000001', overwrite_request_id: '01KEB0R5R0VERWR1TE00000002',
  };
}

const GARBAGE_IDS = ['x', '0', 'not-a-uuid', '%2e%2e%2f%2e%2e', 'ÿ😀', 'a'.repeat(600), '01KJ00000000000000000000AA', '0a0a0a0a-0000-4000-8000-0000000fffff', '-1', 'null'];
const GARBAGE_QUERY = ['first=0', 'first=101', 'first=abc', 'last=-5', 'after=garbage', 'before=%00', 'first=10&last=10', 'purge=maybe', 'format=xml', 'after=WyJ4IiwiMSIsIjIiXQ'];

describe('contract fuzzing', () => {
  it(`${REQUESTS} generated requests across every operation: no 5xx, the envelope, rejected writes change nothing (seed ${SEED})`, async () => {
    const server = await startTestServer();
    const r = seededRandom(SEED);
    const pick = <T>(xs: readonly T[]): T => xs[Math.floor(r.float() * xs.length)]!;
    const ids = await seedRecords(server);
    const baseline = server.deps.store.snapshot();
    const operations = [...loadContract().operations.values()];
    const document = loadContract().document as { paths: Record<string, Record<string, { requestBody?: Schema }>> };
    const counts = { sent: 0, byStatus: {} as Record<number, number> };
    try {
      for (let i = 0; i < REQUESTS; i++) {
        if (i % 40 === 0) await server.deps.store.replace(baseline);
        const op = pick(operations);
        const template = op.path;
        const path = template.replace(/\{(\w+)\}/g, (_m, name: string) => {
          const real = ids[name] ?? ids[template];
          return encodeURIComponent(real && r.float() < 0.7 ? real : pick(GARBAGE_IDS));
        });
        const query = r.float() < 0.3 ? `?${pick(GARBAGE_QUERY)}` : '';
        const opDoc = document.paths[template]![op.method.toLowerCase()]!;
        const bodySchema = deref(opDoc.requestBody as Schema)?.content?.['application/json']?.schema as Schema | undefined;
        let what = 'valid sample';
        let raw: string | undefined;
        const headers: Record<string, string> = {};
        if (bodySchema) {
          let body = sample(bodySchema, r);
          if (r.float() < 0.9) ({ body, what } = mutate(body, bodySchema, r));
          raw = JSON.stringify(body);
          const twist = r.float();
          if (twist < 0.03) { raw = raw.slice(0, Math.max(1, raw.length - 3)); what += ', truncated JSON'; }
          else if (twist < 0.06) { headers['content-type'] = 'text/plain'; what += ', text/plain'; }
          else if (twist < 0.07) { raw = JSON.stringify({ type: 'x', data: { big: 'y'.repeat(1_200_000) } }); what = 'over 1 MB'; }
          headers['content-type'] ??= 'application/json';
        } else if (op.method !== 'GET' && r.float() < 0.1) {
          raw = '{"unexpected": "body"}';
          headers['content-type'] = 'application/json';
          what = 'a body where none is taken';
        }
        const key = r.float() < 0.05 ? pick([null, 'nope', 'demo-readonly-key', 'partner-admin-key']) : 'demo-admin-key';
        const before = JSON.stringify(server.deps.store.snapshot());
        const res = await server.call(op.method, path + query, { key, raw, headers });
        counts.sent++;
        counts.byStatus[res.status] = (counts.byStatus[res.status] ?? 0) + 1;
        const context = `seed ${SEED}, request ${i}: ${op.method} ${path}${query} (${op.operationId}; ${what}) → ${res.status} ${JSON.stringify(res.body).slice(0, 300)}`;
        expect(res.status, context).toBeLessThan(500);
        if (res.status >= 400) {
          expect(Array.isArray(res.body?.errors) && res.body.errors.length > 0, context).toBe(true);
          expect(JSON.stringify(server.deps.store.snapshot()) === before, `a rejected write changed the store: ${context}`).toBe(true);
        }
        expect(server.app.contractViolations, context).toEqual([]);
        void DEMO;
      }
    } finally {
      await server.close();
      console.info(`fuzzed ${counts.sent} requests (seed ${SEED}): ${JSON.stringify(counts.byStatus)}`);
    }
    expect(counts.sent).toBe(REQUESTS);
  }, 600_000);
});
