import { describe, expect, it } from 'vitest';
import { DEMO, envelope, onlyError, useServer } from '../support/helpers.js';

describe('API keys', () => {
  const server = useServer();
  const create = (data: unknown, key?: string) =>
    server().call('POST', '/api/v1/api_keys', { body: envelope('api_key', data), key });

  it('creating a key answers 201 with the record, its secret and the misspelled smpp_secert', async () => {
    const res = await create({ name: 'billing sync', notes: 'nightly job' });
    expect(res.status).toBe(201);
    expect(res.body.type).toBe('api_key');
    expect(res.body.data).toMatchObject({ name: 'billing sync', notes: 'nightly job', active: true });
    expect(res.body.data.secret).toEqual(expect.any(String));
    expect(res.body.data.smpp_secert).toEqual(expect.any(String));
    expect(res.body.data).not.toHaveProperty('smpp_secret');
    expect(res.body.data.smpp_secert.length).toBeLessThanOrEqual(9);
    expect(res.body.data.inserted_at).toBe('2026-03-01T12:00:00.000Z');
  });

  it('secrets are returned only at creation, never by get or list', async () => {
    const created = (await create({ name: 'one-time' })).body.data;
    const got = await server().call('GET', `/api/v1/api_keys/${created.id}`);
    expect(got.status).toBe(200);
    expect(got.body.data).not.toHaveProperty('secret');
    expect(got.body.data).not.toHaveProperty('smpp_secert');
    const list = await server().call('GET', '/api/v1/api_keys?first=100');
    const text = JSON.stringify(list.body);
    expect(text).not.toContain(created.secret);
    expect(text).not.toContain(created.smpp_secert);
  });

  it('the new key works as a bearer key and, with its secret, as basic auth', async () => {
    const created = (await create({ name: 'new standard key' })).body.data;
    const bearer = await server().call('POST', '/api/v1/bulk_dip_tasks', {
      key: created.key,
      body: envelope('bulk_dip_task', { type: 'LRN', numbers: [], reference_id: 'x' }),
    });
    expect(bearer.status).not.toBe(403);
    const basic = Buffer.from(`${created.identity}:${created.secret}`).toString('base64');
    const viaBasic = await server().call('GET', '/api/v1/api_keys', {
      key: null,
      headers: { authorization: `Basic ${basic}` },
    });
    // a key created through the API is a standard key: it may not list keys
    expect(onlyError(viaBasic).code).toBe('access_denied.no_scope');
  });

  it('a key created by an impersonated key is a standard key', async () => {
    const created = (await create({ name: 'standard by admin' })).body.data;
    const res = await server().call('GET', '/api/v1/users', { key: created.key });
    expect(res.status).toBe(403);
    expect(onlyError(res)).toMatchObject({
      code: 'access_denied.no_scope',
      sub_code: 'none',
      params: { action: 'list', level: 'account', resource: 'user' },
    });
  });

  it('name must be 3 to 255 characters; notes at most 65535', async () => {
    for (const [data, pointer] of [
      [{ name: 'ab' }, '/data/name'],
      [{ name: 'x'.repeat(256) }, '/data/name'],
      [{ name: 'okay', notes: 'n'.repeat(65536) }, '/data/notes'],
      [{}, '/data/name'],
      [{ name: 42 }, '/data/name'],
      [{ name: 'okay', active: 'yes' }, '/data/active'],
    ] as const) {
      const res = await create(data);
      expect(res.status, JSON.stringify(data)).toBe(404);
      expect(onlyError(res)).toMatchObject({ code: 'invalid_parameter', source: { pointer } });
    }
    expect((await create({ name: 'abc', notes: 'n'.repeat(65535) })).status).toBe(201);
  });

  it('updating sets active, name and notes', async () => {
    const created = (await create({ name: 'to update' })).body.data;
    const res = await server().call('PATCH', `/api/v1/api_keys/${created.id}`, {
      body: envelope('api_key', { active: false, name: 'renamed' }),
    });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ active: false, name: 'renamed', id: created.id });
    const denied = await server().call('GET', '/api/v1/bulk_dip_tasks', { key: created.key });
    expect(onlyError(denied)).toMatchObject({ code: 'access_denied.unauthenticated', sub_code: 'inactive_key' });
  });

  it('deleting answers 200 with the deleted record, after which it is gone', async () => {
    const created = (await create({ name: 'to delete' })).body.data;
    const res = await server().call('DELETE', `/api/v1/api_keys/${created.id}`);
    expect(res.status).toBe(200);
    expect(res.body.data.id).toBe(created.id);
    const again = await server().call('GET', `/api/v1/api_keys/${created.id}`);
    expect(again.status).toBe(404);
    expect(onlyError(again)).toMatchObject({
      code: 'not_found',
      params: { resource: { id: created.id, type: 'api_key' } },
    });
  });

  it('a key used by a number cannot be deleted (422 resource_in_use)', async () => {
    const created = (await create({ name: 'bound key' })).body.data;
    await server().write(async (w) => {
      const number = (await w.view(DEMO).numbers.list())[0]!;
      await w.numbers.update(number, (d) => (d.api_key_id = created.id));
    });
    const res = await server().call('DELETE', `/api/v1/api_keys/${created.id}`);
    expect(res.status).toBe(422);
    expect(onlyError(res).code).toBe('resource_in_use');
    expect((await server().call('GET', `/api/v1/api_keys/${created.id}`)).status).toBe(200);
  });

  it('a bad id answers invalid_parameter with 404, the status API key operations use', async () => {
    const res = await server().call('GET', '/api/v1/api_keys/not-a-uuid');
    expect(res.status).toBe(404);
    expect(onlyError(res)).toMatchObject({ code: 'invalid_parameter', source: { parameter: 'id' } });
  });

  it('the operator may read keys but not write them; read-only may only read', async () => {
    expect((await server().call('GET', '/api/v1/api_keys', { key: 'demo-operator-key' })).status).toBe(200);
    expect((await create({ name: 'by operator' }, 'demo-operator-key')).status).toBe(403);
    expect((await create({ name: 'by reader' }, 'demo-readonly-key')).status).toBe(403);
    expect((await server().call('GET', '/api/v1/api_keys', { key: 'demo-readonly-key' })).status).toBe(200);
  });
});
