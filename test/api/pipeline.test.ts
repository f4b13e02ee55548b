import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { describe, expect, it } from 'vitest';
import { loadContract } from '../../src/contract.js';
import { serverClasses } from '../../src/http/classes.js';
import { envelope, onlyError, useServer, startTestServer } from '../support/helpers.js';

describe('request pipeline', () => {
  const server = useServer();

  it('malformed JSON is invalid_parameter at pointer / (404 for API keys, 422 for users)', async () => {
    const headers = { 'content-type': 'application/json' };
    const keys = await server().call('POST', '/api/v1/api_keys', { raw: '{"type":', headers });
    expect(keys.status).toBe(404);
    expect(onlyError(keys)).toMatchObject({ code: 'invalid_parameter', source: { pointer: '/' } });
    const users = await server().call('POST', '/api/v1/users', { raw: '{"type":', headers });
    expect(users.status).toBe(422);
    expect(onlyError(users).source.pointer).toBe('/');
  });

  it('a wrong envelope type points at /type; a missing data at /data', async () => {
    const wrong = await server().call('POST', '/api/v1/users', { body: envelope('api_key', { email: 'a@b.example' }) });
    expect(wrong.status).toBe(422);
    expect(onlyError(wrong)).toMatchObject({ code: 'invalid_parameter', source: { pointer: '/type' } });
    const missing = await server().call('POST', '/api/v1/users', { body: { type: 'user' } });
    expect(onlyError(missing).source.pointer).toBe('/data');
  });

  it('an empty body reports both missing members', async () => {
    const res = await server().call('POST', '/api/v1/users', {
      raw: '',
      headers: { 'content-type': 'application/json' },
    });
    expect(res.status).toBe(422);
    expect(res.body.errors.map((e: any) => e.source.pointer).sort()).toEqual(['/data', '/type']);
  });

  it('a body that is not JSON by its content type is refused', async () => {
    const res = await server().call('POST', '/api/v1/users', {
      raw: 'email=a@b.example',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(res.status).toBe(422);
    expect(onlyError(res)).toMatchObject({ code: 'invalid_parameter', source: { pointer: '/' } });
  });

  it('a JSON body with no Content-Type is refused on /api/v1, read as JSON on /__sim', async () => {
    const res = await fetch(`${server().base}/api/v1/carts`, {
      method: 'POST',
      headers: { authorization: 'Bearer demo-admin-key' },
      body: new TextEncoder().encode(JSON.stringify({ type: 'cart', data: { name: 'untyped' } })),
    });
    expect(res.status).toBe(422);
    expect(((await res.json()) as { errors: { detail: string; source: unknown }[] }).errors).toEqual([
      expect.objectContaining({ source: { pointer: '/' }, detail: expect.stringContaining('no type for its body') }),
    ]);
    const control = await fetch(`${server().base}/__sim/clock/advance`, {
      method: 'POST',
      body: new TextEncoder().encode(JSON.stringify({ by: 'PT1M' })),
    });
    expect(control.status).toBe(200);
  });

  it('an unknown path answers 404 not_found', async () => {
    const res = await server().call('GET', '/api/v1/no_such_resource');
    expect(res.status).toBe(404);
    expect(onlyError(res).code).toBe('not_found');
  });

  it('a JSON answer says its type with its charset and its length in bytes', async () => {
    const made = await server().call('POST', '/api/v1/carts', { body: envelope('cart', { name: 'Café № 5' }) });
    const res = await fetch(`${server().base}/api/v1/carts/${made.body.data.id}`, {
      headers: { authorization: 'Bearer demo-admin-key' },
    });
    const bytes = Buffer.from(await res.arrayBuffer());
    expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(Number(res.headers.get('content-length'))).toBe(bytes.length);
    expect(JSON.parse(bytes.toString('utf8')).data.name).toBe('Café № 5');
  });

  it('the root points a browser at the dashboard', async () => {
    const root = await fetch(`${server().base}/`, { redirect: 'manual' });
    expect(root.status).toBe(302);
    expect(root.headers.get('location')).toBe('/__sim/ui');
  });

  it('a body over 1 MB answers 413 payload_too_large and nothing is written', async () => {
    const before = (await server().call('GET', '/api/v1/api_keys')).body.count;
    const res = await server().call('POST', '/api/v1/api_keys', {
      body: envelope('api_key', { name: 'big', notes: 'n'.repeat(1_100_000) }),
    });
    expect(res.status).toBe(413);
    expect(onlyError(res).code).toBe('payload_too_large');
    expect((await server().call('GET', '/api/v1/api_keys')).body.count).toBe(before);
  });

  it('undeclared query parameters are ignored', async () => {
    const res = await server().call('GET', '/api/v1/api_keys/0a0a0a0a-0000-4000-8000-000000000301?cachebust=1');
    expect(res.status).toBe(200);
  });

  it("the status of invalid_parameter is read from each operation's declared errors", () => {
    const ops = loadContract().operations;
    expect(ops.get('createApiKey')?.invalidStatus).toBe(404);
    expect(ops.get('deleteApiKey')?.invalidStatus).toBe(404);
    expect(ops.get('createUser')?.invalidStatus).toBe(422);
    expect(ops.get('createCart')?.invalidStatus).toBe(422);
    expect(ops.get('createBulkDipTask')?.invalidStatus).toBe(422);
    expect(ops.get('createCallDataWebhook')?.invalidStatus).toBe(422);
    expect(ops.get('createSwitch')?.invalidStatus).toBe(404);
    expect(ops.get('deleteAutoResponse')?.invalidStatus).toBe(404);
  });

  it('__proto__ in a body is just an unknown field', async () => {
    const res = await server().call('POST', '/api/v1/api_keys', {
      raw: '{"type":"api_key","data":{"name":"proto","__proto__":{"active":false}}}',
      headers: { 'content-type': 'application/json' },
    });
    expect(res.status).toBe(404);
    expect(onlyError(res).source.pointer).toBe('/data/__proto__');
  });
});

describe('operations without a handler', () => {
  it('answer 501 not_implemented in the error envelope', async () => {
    const server = await startTestServer({ handlers: {} });
    const res = await server.call('GET', '/api/v1/api_keys');
    await server.close();
    expect(res.status).toBe(501);
    expect(onlyError(res).code).toBe('not_implemented');
    expect(server.app.contractViolations).toEqual([]);
  });
});

describe('response validation', () => {
  it('an answer that leaves the contract is caught, so the suite cannot drift from it', async () => {
    const server = await startTestServer({
      handlers: { listApiKeys: () => ({ status: 200, body: { count: 'many' } as never }) },
    });
    await server.call('GET', '/api/v1/api_keys');
    await server.close();
    expect(server.app.contractViolations).toHaveLength(1);
    expect(server.app.contractViolations[0]).toContain('listApiKeys answered 200 off contract');
  });
});

describe("Node's request and response, as express's (src/http/classes.ts)", () => {
  it("are made with the app's own prototypes, so express's change of them is none, and express works on them", async () => {
    const app = express();
    app.use((req, res) => void res.json({ app: req.app === app, path: req.path, query: req.query }));
    const made: boolean[] = [];
    // what express is handed, before it sets any prototype
    const server = createServer(serverClasses(app), (req, res) => {
      made.push(Object.getPrototypeOf(req) === app.request, Object.getPrototypeOf(res) === app.response);
      app(req, res);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const res = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/x?a=1`);
      expect(await res.json()).toEqual({ app: true, path: '/x', query: { a: '1' } });
      expect(made).toEqual([true, true]);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
