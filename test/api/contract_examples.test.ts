// Every request body of both contracts has an example (what a newcomer copies first): the operation's own
// validator accepts it, and a fresh server answers it with a 2xx, sent in the order below (each record
// an example creates is the one the next examples address).
import { describe, expect, it } from 'vitest';
import { loadContract, type ApiName } from '../../src/contract.js';
import { backend } from '../../src/http/backend.js';
import { useServer } from '../support/helpers.js';

interface Operation {
  api: ApiName;
  operationId: string;
  method: string;
  path: string;
  contentType: string;
  example: unknown;
}

type Content = Record<string, { example?: unknown }>;
type RawOperation = { operationId: string; requestBody?: { $ref?: string; content?: Content } };

/** Every operation of a contract that takes a body, with the body's example (undefined when it has none). */
function bodies(api: ApiName): Operation[] {
  const document = loadContract(api as 'sim').document as {
    paths: Record<string, Record<string, RawOperation>>;
    components: { requestBodies?: Record<string, { content: Content }> };
  };
  const out: Operation[] = [];
  for (const [path, item] of Object.entries(document.paths))
    for (const [method, op] of Object.entries(item)) {
      if (!op?.requestBody) continue;
      const body = op.requestBody.$ref
        ? document.components.requestBodies?.[op.requestBody.$ref.split('/').pop() ?? '']
        : op.requestBody;
      const [contentType, media] = Object.entries(body?.content ?? {})[0] ?? ['', {}];
      out.push({ api, operationId: op.operationId, method, path, contentType, example: media.example });
    }
  return out;
}

const ALL = [...bodies('openapi'), ...bodies('sim')];
const NUMBER = '+13125550100';
const FIXTURE_OSR = '01KEB0R5R0VERWR1TE00000001';

/**
 * The order the examples are sent in, and what fills each path's parameters: the id of the record an
 * earlier example created (by its operation), or a fixture's; a call without a body (a path naming the
 * operations whose records it addresses) readies what the next example needs.
 */
const PLAN: (string | { call: string; path: string })[] = [
  'createApiKey',
  'updateApiKey',
  'createSecretKey',
  'updateSecretKey',
  'createUser',
  'updateUser',
  'createSwitch',
  'updateSwitch',
  'attachMmsEncryptionKey',
  'updateNumber',
  'createAutoResponse',
  'updateAutoResponse',
  'createOptoutItem',
  'createDestination',
  'updateDestination',
  'createCart',
  'updateCart',
  'createCartRequest',
  'updateCartRequest',
  'uploadCartRequestDocument',
  // the two document examples are one (a request's documents have unique names): the first goes again
  {
    call: 'DELETE',
    path: '/api/v1/carts/{createCart}/requests/{createCartRequest}/documents/{uploadCartRequestDocument}',
  },
  { call: 'POST', path: '/api/v1/carts/{createCart}/checkout' },
  'updateRequest',
  'uploadRequestDocument',
  'updateOrder',
  'createBulkDipTask',
  'createCallDataWebhook',
  'updateCallDataWebhook',
  'createEventSubscription',
  'updateEventSubscription',
  'reviewOverwriteRequest',
  'simCreateSandbox',
  'simSaveSnapshot',
  // before the advance, which would complete the order and the bulk dip
  'simMoveRequest',
  'simMoveOrder',
  'simScheduleBulkDip',
  'simAdvance',
  'simInboundSms',
  'simInboundMms',
  'simInboundCall',
  'simRaiseOverwrite',
  'simCreateGroup',
  'simVerifyRequests',
  'simVerifyDeliveries',
  'simMcp',
  // an answer for no delivery in flight: taken, and ignored
  'simListenAnswer',
  // it answers the next GET of the numbers with a 503
  'simAddFault',
  // last: back to the fixtures (with Demo's key: Demo alone)
  'simReset',
];

/** The record each path parameter names, by the operation that created it. */
const PARAMETERS: Record<string, Record<string, string>> = {
  '/api/v1/api_keys/{id}': { id: 'createApiKey' },
  '/api/v1/secret_keys/{id}': { id: 'createSecretKey' },
  '/api/v1/users/{id}': { id: 'createUser' },
  '/api/v1/switches/{id}': { id: 'createSwitch' },
  '/api/v1/switches/{switch_id}/mms_encryption_key/{id}': { switch_id: 'createSwitch', id: 'createSecretKey' },
  '/api/v1/auto_responses/{id}': { id: 'createAutoResponse' },
  '/api/v1/call_data_webhooks/{id}': { id: 'createCallDataWebhook' },
  '/api/v1/event_subscriptions/{id}': { id: 'createEventSubscription' },
  '/api/v1/numbers/{number_id}/destinations/{id}': { id: 'createDestination' },
  '/api/v1/carts/{id}': { id: 'createCart' },
  '/api/v1/carts/{cart_id}/requests': { cart_id: 'createCart' },
  '/api/v1/carts/{cart_id}/requests/{id}': { cart_id: 'createCart', id: 'createCartRequest' },
  '/api/v1/carts/{cart_id}/requests/{request_id}/documents': {
    cart_id: 'createCart',
    request_id: 'createCartRequest',
  },
  '/api/v1/requests/{id}': { id: 'createCartRequest' },
  '/api/v1/requests/{request_id}/documents': { request_id: 'createCartRequest' },
  '/api/v1/orders/{id}': { id: 'createCart' },
  '/__sim/orders/{id}/status': { id: 'createCart' },
  '/__sim/requests/{id}/status': { id: 'createCartRequest' },
  '/__sim/bulk_dip_tasks/{id}/schedule': { id: 'createBulkDipTask' },
};

describe('the examples of both contracts', () => {
  it('every request body has an example, and the plan below sends each of them', () => {
    expect(ALL.filter((o) => o.example === undefined).map((o) => o.operationId)).toEqual([]);
    expect(PLAN.filter((p) => typeof p === 'string').sort()).toEqual(ALL.map((o) => o.operationId).sort());
  });

  it("each example passes its operation's validator", async () => {
    expect(ALL, 'something to check').not.toHaveLength(0);
    for (const op of ALL) {
      const api = await backend(op.api);
      const validators = api.validator.getRequestValidatorsForOperation(op.operationId) ?? [];
      const params = Object.fromEntries([...op.path.matchAll(/\{(\w+)\}/g)].map((m) => [m[1], 'x']));
      const body =
        op.contentType === 'application/json' ? op.example : { ...(op.example as object), file: 'the bytes' };
      // path parameters are the plan's business; the body is the example's
      const errors = validators
        .flatMap((v) => (v({ path: params, query: {}, header: {}, requestBody: body }) ? [] : (v.errors ?? [])))
        .filter((e) => e.instancePath.startsWith('/requestBody'));
      expect(errors, op.operationId).toEqual([]);
    }
  });

  const server = useServer();
  it('a fresh server answers every example with a 2xx', async () => {
    const created: Record<string, string> = {};
    const fill = (path: string) =>
      path.replace(/\{(\w+)\}/g, (_, name: string) => {
        if (name === 'number_id') return NUMBER;
        if (name === 'overwrite_request_id') return FIXTURE_OSR;
        // the checkout step names the operation in its path
        const id = created[PARAMETERS[path]?.[name] ?? name];
        if (!id) throw new Error(`nothing fills {${name}} of ${path}`);
        return id;
      });
    for (const step of PLAN) {
      const op = typeof step === 'string' ? ALL.find((o) => o.operationId === step)! : undefined;
      const method = op ? op.method.toUpperCase() : (step as { call: string }).call;
      const path = fill(op ? op.path : (step as { path: string }).path);
      let answer;
      if (op?.contentType === 'multipart/form-data') {
        const form = new FormData();
        for (const [k, v] of Object.entries(op.example as Record<string, string>))
          if (k === 'file') form.append('file', new Blob([Buffer.from('%PDF-1.4\n%%EOF\n')]), 'loa.pdf');
          else form.append(k, v);
        const res = await fetch(`${server().base}${path}`, {
          method,
          headers: { authorization: 'Bearer demo-admin-key' },
          body: form,
        });
        answer = { status: res.status, body: (await res.json()) as { data?: { id?: string } } };
      } else answer = await server().call(method, path, op ? { body: op.example } : {});
      expect(answer.status, `${method} ${path}: ${JSON.stringify(answer.body)}`).toBeLessThan(300);
      if (op && typeof answer.body?.data?.id === 'string') created[op.operationId] = answer.body.data.id;
    }
  });
});
