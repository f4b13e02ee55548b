/**
 * Valid-input properties: bodies generated from each create operation's schema (kept within the
 * domain rules the schema cannot say) are accepted, and reading the record back gives what was sent,
 * but for what the server sets, normalizes or hides.
 */
import { describe, expect, it } from 'vitest';
import { seededRandom } from '../../src/deps.js';
import { loadContract } from '../../src/contract.js';
import { deref, sample, type Schema } from '../fuzz/schema.js';
import { startTestServer } from '../support/helpers.js';

type Fix = (data: Record<string, any>, i: number) => void;

interface Case {
  path: string;
  /** Where the created record is read back. */
  get: (created: any) => string;
  /** The domain rules a schema cannot state. */
  fix?: Fix;
  /** Fields the server sets, normalizes or never shows again. */
  ignore: string[];
}

const NONE_PROTOCOLS: Fix = (d) =>
  Object.assign(d, {
    sms_protocol: 'NONE',
    mms_protocol: 'NONE',
    voice_protocol: 'NONE',
    sms_auth_method: 'NONE',
    mms_auth_method: 'NONE',
  });

const CASES: Record<string, Case> = {
  createApiKey: { path: '/api/v1/api_keys', get: (c) => `/api/v1/api_keys/${c.id}`, ignore: [] },
  createSecretKey: {
    path: '/api/v1/secret_keys',
    get: (c) => `/api/v1/secret_keys/${c.id}`,
    fix: (d) => {
      if (d.usage === 'NONE') d.usage = 'SIGNING';
    },
    ignore: [],
  },
  createUser: {
    path: '/api/v1/users',
    get: (c) => `/api/v1/users/${c.id}`,
    fix: (d, i) => {
      d.email = `gen${i}@demo-telecom.example`;
      delete d.password;
      delete d.password_confirmation;
    },
    ignore: [],
  },
  createSwitch: {
    path: '/api/v1/switches',
    get: (c) => `/api/v1/switches/${c.id}`,
    fix: (d, i) => {
      NONE_PROTOCOLS(d, i);
      delete d.api_key_id;
    },
    ignore: ['sms_secret', 'mms_secret', 'voice_secret', 'sms_options', 'mms_options'],
  },
  createAutoResponse: {
    path: '/api/v1/auto_responses',
    get: (c) => `/api/v1/auto_responses/${c.id}`,
    fix: (d) => {
      d.keywords = [];
    },
    ignore: [],
  },
  createCart: {
    path: '/api/v1/carts',
    get: (c) => `/api/v1/carts/${c.id}`,
    fix: (d, i) => {
      d.name = `generated ${i}`;
    },
    ignore: [],
  },
  createBulkDipTask: {
    path: '/api/v1/bulk_dip_tasks',
    get: (c) => `/api/v1/bulk_dip_tasks/${c.id}`,
    fix: (d, i) => {
      d.reference_id = `gen-${i}`;
      if (d.type !== 'LRN') {
        d.enhanced = false;
        d.messaging_lookup = false;
      }
      d.on_done_actions = [];
    },
    ignore: ['numbers'],
  },
  createCallDataWebhook: {
    path: '/api/v1/call_data_webhooks',
    get: (c) => `/api/v1/call_data_webhooks/${c.id}`,
    fix: (d) => {
      d.protocol = 'NONE';
      d.auth_method = 'NONE';
    },
    ignore: ['auth_secret'],
  },
  createEventSubscription: {
    path: '/api/v1/event_subscriptions',
    get: (c) => `/api/v1/event_subscriptions/${c.id}`,
    fix: (d) => {
      d.protocol = 'NONE';
      d.auth_method = 'NONE';
      delete d.recipient;
    },
    ignore: ['auth_secret'],
  },
  createOptoutItem: {
    path: '/api/v1/numbers/+13125550101/optout_items',
    get: (c) => `/api/v1/optout_items/${c.id}`,
    fix: (d, i) => {
      d.remote_number = `+1415555${String(1000 + i)}`;
      delete d.host_number;
    },
    ignore: [],
  },
};

describe('valid inputs', () => {
  it('generated bodies for every create operation are accepted, and GET returns what was sent', async () => {
    const server = await startTestServer();
    const document = loadContract().document as { paths: Record<string, Record<string, { requestBody?: Schema }>> };
    const r = seededRandom(31);
    let created = 0;
    try {
      for (const [operationId, c] of Object.entries(CASES)) {
        const op = loadContract().operations.get(operationId as never)!;
        const schema = deref(document.paths[op.path]!.post!.requestBody as Schema).content['application/json']
          .schema as Schema;
        for (let i = 0; i < 15; i++) {
          // the callDataWebhook allows one per account: delete the last one first
          if (operationId === 'createCallDataWebhook') {
            for (const w of (await server.call('GET', '/api/v1/call_data_webhooks')).body.results)
              await server.call('DELETE', `/api/v1/call_data_webhooks/${w.data.id}`);
          }
          const body = sample(schema, r) as { type: string; data: Record<string, any> };
          c.fix?.(body.data, i);
          const res = await server.call('POST', c.path, { body });
          const context = `${operationId} #${i}: ${JSON.stringify(body).slice(0, 300)} → ${res.status} ${JSON.stringify(res.body).slice(0, 300)}`;
          expect(res.status, context).toBe(201);
          const got = await server.call('GET', c.get(res.body.data));
          expect(got.status, context).toBe(200);
          for (const [field, value] of Object.entries(body.data)) {
            if (c.ignore.includes(field) || value === undefined) continue;
            expect(got.body.data[field], `${context}: field ${field}`).toEqual(value);
          }
          created++;
        }
      }
    } finally {
      await server.close();
    }
    expect(created).toBe(Object.keys(CASES).length * 15);
  });
});
