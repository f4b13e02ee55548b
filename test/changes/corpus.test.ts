/**
 * The diff's rules, one or more changes of each kind made from contract/openapi.yaml, each with the
 * class the field gives it (oasdiff's check and level); and the contract against itself: nothing.
 */
import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { shapeOf } from '../../src/changes/document.js';
import { diff } from '../../src/changes/diff.js';
import type { Change, Level } from '../../src/changes/change.js';
import type { Json } from '../../src/changes/shape.js';

type Doc = any;
const original = parse(readFileSync('contract/openapi.yaml', 'utf8')) as Doc;
const copy = (): Doc => structuredClone(original);
const run = (base: Doc, next: Doc): Change[] => diff(shapeOf(base as Json, 'base'), shapeOf(next as Json, 'next'));

const schema = (d: Doc, name: string) => d.components.schemas[name];
const carts = (d: Doc) => d.paths['/api/v1/carts'];
const createCartBody = (d: Doc) => carts(d).post.requestBody.content['application/json'].schema;

interface Case {
  name: string;
  id: string;
  level: Level;
  next: (d: Doc) => void;
  base?: (d: Doc) => void;
  /** The operation the change must be found on (`METHOD /path`). */
  on?: string;
}

const CASES: Case[] = [
  // operations
  {
    name: 'an operation removed',
    id: 'api-removed-without-deprecation',
    level: 'breaking',
    on: 'POST /api/v1/carts',
    next: (d) => delete carts(d).post,
  },
  {
    name: 'a path removed',
    id: 'api-removed-without-deprecation',
    level: 'breaking',
    on: 'GET /api/v1/carts/{id}',
    next: (d) => delete d.paths['/api/v1/carts/{id}'],
  },
  {
    name: 'a deprecated operation removed',
    id: 'api-removed-after-deprecation',
    level: 'breaking',
    base: (d) => (carts(d).get.deprecated = true),
    next: (d) => delete carts(d).get,
  },
  {
    name: 'an operation added',
    id: 'endpoint-added',
    level: 'safe',
    on: 'POST /api/v1/carts/{id}/archive',
    next: (d) =>
      (d.paths['/api/v1/carts/{id}/archive'] = {
        post: { operationId: 'archiveCart', responses: { '204': { description: 'Archived.' } } },
      }),
  },
  {
    name: 'an operation deprecated',
    id: 'endpoint-deprecated',
    level: 'safe',
    next: (d) => (carts(d).post.deprecated = true),
  },
  {
    name: 'an operationId changed',
    id: 'api-operation-id-updated',
    level: 'may-break',
    next: (d) => (carts(d).post.operationId = 'newCart'),
  },
  // request bodies
  {
    name: 'a request property made required',
    id: 'request-property-became-required',
    level: 'breaking',
    on: 'POST /api/v1/carts',
    next: (d) => schema(d, 'cart_create').required.push('notes'),
  },
  {
    name: 'a required request property added',
    id: 'new-required-request-property',
    level: 'breaking',
    next: (d) => {
      schema(d, 'cart_create').properties.label = { type: 'string' };
      schema(d, 'cart_create').required.push('label');
    },
  },
  {
    name: 'an optional request property added',
    id: 'new-optional-request-property',
    level: 'safe',
    next: (d) => (schema(d, 'cart_create').properties.label = { type: 'string' }),
  },
  {
    name: 'a request property removed',
    id: 'request-property-removed',
    level: 'may-break',
    next: (d) => delete schema(d, 'cart_update').properties.notes,
  },
  {
    name: 'a request property made optional',
    id: 'request-property-became-optional',
    level: 'safe',
    next: (d) => (schema(d, 'cart_create').required = []),
  },
  {
    name: 'a request enumeration narrowed',
    id: 'request-property-enum-value-removed',
    level: 'breaking',
    on: 'POST /api/v1/numbers/{number_id}/destinations',
    next: (d) => (schema(d, 'auth_method').enum = ['NONE', 'BASIC']),
  },
  {
    name: 'a request enumeration widened',
    id: 'request-property-enum-value-added',
    level: 'safe',
    next: (d) => (createCartBody(d).properties.type = { enum: ['cart', 'basket'] }),
  },
  {
    name: 'a request property retyped',
    id: 'request-property-type-changed',
    level: 'breaking',
    next: (d) => (schema(d, 'cart_create').properties.name.type = 'integer'),
  },
  {
    name: 'a request property generalized',
    id: 'request-property-type-generalized',
    level: 'safe',
    next: (d) => (schema(d, 'cart_create').properties.name.type = ['string', 'integer']),
  },
  {
    name: 'a request maxLength lowered',
    id: 'request-property-max-length-decreased',
    level: 'breaking',
    next: (d) => (schema(d, 'cart_create').properties.name.maxLength = 100),
  },
  {
    name: 'a request maxLength raised',
    id: 'request-property-max-length-increased',
    level: 'safe',
    next: (d) => (schema(d, 'cart_create').properties.name.maxLength = 1000),
  },
  {
    name: 'a request minLength raised',
    id: 'request-property-min-length-increased',
    level: 'breaking',
    next: (d) => (schema(d, 'cart_create').properties.name.minLength = 3),
  },
  {
    name: 'a request pattern added',
    id: 'request-property-pattern-added',
    level: 'may-break',
    next: (d) => (schema(d, 'cart_create').properties.name.pattern = '^[a-z ]+$'),
  },
  {
    name: 'a request format added',
    id: 'request-property-format-added',
    level: 'breaking',
    next: (d) => (schema(d, 'cart_create').properties.name.format = 'email'),
  },
  {
    name: 'a request body made required',
    id: 'request-body-became-required',
    level: 'breaking',
    base: (d) => (carts(d).post.requestBody.required = false),
    next: () => undefined,
  },
  {
    name: 'a request media type removed',
    id: 'request-body-media-type-removed',
    level: 'breaking',
    next: (d) => {
      const content = carts(d).post.requestBody.content;
      content['application/xml'] = content['application/json'];
      delete content['application/json'];
    },
  },
  // parameters
  {
    name: 'a required query parameter added',
    id: 'new-required-request-parameter',
    level: 'breaking',
    on: 'GET /api/v1/carts',
    next: (d) =>
      carts(d).get.parameters.push({ name: 'region', in: 'query', required: true, schema: { type: 'string' } }),
  },
  {
    name: 'an optional query parameter added',
    id: 'new-optional-request-parameter',
    level: 'safe',
    next: (d) => carts(d).get.parameters.push({ name: 'region', in: 'query', schema: { type: 'string' } }),
  },
  {
    name: 'a query parameter removed',
    id: 'request-parameter-removed',
    level: 'may-break',
    next: (d) => carts(d).get.parameters.shift(),
  },
  {
    name: 'a query parameter made required',
    id: 'request-parameter-became-required',
    level: 'breaking',
    next: (d) => (d.components.parameters.first.required = true),
  },
  {
    name: "a parameter's maximum lowered",
    id: 'request-parameter-max-decreased',
    level: 'breaking',
    next: (d) => (d.components.parameters.first.schema.maximum = 50),
  },
  {
    name: "a parameter's enumeration narrowed",
    id: 'request-parameter-enum-value-removed',
    level: 'breaking',
    on: 'GET /api/v1/openapi',
    next: (d) => (d.paths['/api/v1/openapi'].get.parameters[0].schema.enum = ['json']),
  },
  {
    name: "a path parameter's pattern changed",
    id: 'request-parameter-pattern-changed',
    level: 'may-break',
    next: (d) => (schema(d, 'ulid').pattern = '^[0-9A-Z]{26}$'),
  },
  // responses
  {
    name: 'a success status removed',
    id: 'response-success-status-removed',
    level: 'breaking',
    next: (d) => delete carts(d).post.responses['201'],
  },
  {
    name: 'an error status removed',
    id: 'response-non-success-status-removed',
    level: 'may-break',
    next: (d) => delete carts(d).post.responses['413'],
  },
  {
    name: 'an error status added',
    id: 'response-non-success-status-added',
    level: 'safe',
    next: (d) => (carts(d).post.responses['409'] = { description: 'Taken.' }),
  },
  {
    name: 'a required response property removed',
    id: 'response-required-property-removed',
    level: 'breaking',
    on: 'GET /api/v1/carts/{id}',
    next: (d) => {
      delete schema(d, 'cart').properties.notes;
      schema(d, 'cart').required = schema(d, 'cart').required.filter((r: string) => r !== 'notes');
    },
  },
  {
    name: 'an optional response property removed',
    id: 'response-optional-property-removed',
    level: 'may-break',
    base: (d) => (schema(d, 'cart').properties.label = { type: 'string' }),
    next: () => undefined,
  },
  {
    name: 'a response property made optional',
    id: 'response-property-became-optional',
    level: 'breaking',
    next: (d) => (schema(d, 'cart').required = ['id', 'name', 'inserted_at', 'updated_at']),
  },
  {
    name: 'a response property added',
    id: 'response-property-added',
    level: 'safe',
    next: (d) => (schema(d, 'cart').properties.label = { type: 'string' }),
  },
  {
    name: 'a response property retyped',
    id: 'response-property-type-changed',
    level: 'breaking',
    next: (d) => (schema(d, 'cart').properties.name.type = 'integer'),
  },
  {
    name: 'a response enumeration widened',
    id: 'response-property-enum-value-added',
    level: 'may-break',
    on: 'GET /api/v1/orders/{id}',
    next: (d) => schema(d, 'order_status').enum.push('ON_HOLD'),
  },
  {
    name: 'a response enumeration narrowed',
    id: 'response-property-enum-value-removed',
    level: 'safe',
    next: (d) => (schema(d, 'order_status').enum = ['NEW', 'PROCESSING', 'COMPLETED', 'ERROR']),
  },
  {
    name: "a response's format changed",
    id: 'response-property-format-changed',
    level: 'breaking',
    next: (d) => (schema(d, 'timestamp').format = 'date'),
  },
  {
    name: "a response's bound loosened",
    id: 'response-property-max-length-increased',
    level: 'may-break',
    next: (d) => (schema(d, 'cart').properties.name.maxLength = 1000),
  },
  {
    name: 'a response media type removed',
    id: 'response-media-type-removed',
    level: 'breaking',
    next: (d) => {
      const content = carts(d).post.responses['201'].content;
      content['text/plain'] = { schema: { type: 'string' } };
      delete content['application/json'];
    },
  },
  // security
  {
    name: 'a way to authenticate removed',
    id: 'api-security-removed',
    level: 'breaking',
    next: (d) => (d.security = [{ bearer: [] }]),
  },
  {
    name: 'authentication required where none was',
    id: 'api-security-added',
    level: 'breaking',
    on: 'GET /api/v1/openapi',
    next: (d) => (d.paths['/api/v1/openapi'].get.security = [{ bearer: [] }]),
  },
  {
    name: 'a security scheme changed',
    id: 'api-security-scheme-changed',
    level: 'breaking',
    next: (d) => (d.components.securitySchemes.bearer.bearerFormat = 'JWT'),
  },
  // webhooks: their payloads are received
  {
    name: "a webhook payload's required field removed",
    id: 'payload-required-property-removed',
    level: 'breaking',
    on: 'webhook event POST',
    next: (d) => {
      const data = schema(d, 'event_delivery').properties.data;
      delete data.properties.occurred_at;
      data.required = data.required.filter((r: string) => r !== 'occurred_at');
    },
  },
  {
    name: "a webhook payload's enumeration widened",
    id: 'payload-property-enum-value-added',
    level: 'may-break',
    on: 'webhook cdr POST',
    next: (d) => schema(d, 'cdr_delivery').properties.data.properties.kind.enum.push('VOICE'),
  },
  { name: 'a webhook removed', id: 'webhook-removed', level: 'may-break', next: (d) => delete d.webhooks.cdr },
];

describe('the diff of two contracts', () => {
  it('finds nothing between the contract and itself', () => {
    expect(run(copy(), copy())).toEqual([]);
  });

  it(`has a corpus of ${CASES.length} changes`, () => {
    expect(CASES.length).toBeGreaterThanOrEqual(30);
  });

  it.each(CASES.map((c) => [c.name, c] as const))('%s', (_name, c) => {
    const base = copy();
    c.base?.(base);
    const next = copy();
    c.next(next);
    const changes = run(base, next);
    const found = changes.filter((x) => x.id === c.id);
    expect(found.length, `${c.id} among ${JSON.stringify(changes.map((x) => x.id))}`).toBeGreaterThan(0);
    expect(new Set(found.map((x) => x.level))).toEqual(new Set([c.level]));
    if (c.on) expect(found.map((x) => x.operation.key)).toContain(c.on);
    // a safe change is safe everywhere it shows
    if (c.level === 'safe') expect(changes.filter((x) => x.level !== 'safe')).toEqual([]);
  });
});
