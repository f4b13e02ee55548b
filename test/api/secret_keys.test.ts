import { describe, expect, it } from 'vitest';
import { envelope, onlyError, useServer } from '../support/helpers.js';

describe('secret keys', () => {
  const server = useServer();
  const create = (data: unknown) =>
    server().call('POST', '/api/v1/secret_keys', { body: envelope('secret_key', data) });

  it('creating a key answers 201 with key material of `size` bytes, once', async () => {
    for (const size of [16, 24, 32, 48, 64]) {
      const res = await create({ name: `key ${size}`, size, usage: 'SIGNING' });
      expect(res.status).toBe(201);
      expect(res.body.type).toBe('secret_key');
      expect(Buffer.from(res.body.data.data, 'base64')).toHaveLength(size);
      const got = await server().call('GET', `/api/v1/secret_keys/${res.body.data.id}`);
      expect(got.body.data).not.toHaveProperty('data');
      expect(got.body.data).toMatchObject({ size, usage: 'SIGNING', name: `key ${size}` });
    }
  });

  it('size must be one of 16, 24, 32, 48, 64 and usage SIGNING or ENCRYPTION', async () => {
    const badSize = await create({ name: 'bad size', size: 20, usage: 'SIGNING' });
    expect(badSize.status).toBe(404);
    expect(onlyError(badSize)).toMatchObject({ code: 'invalid_parameter', source: { pointer: '/data/size' } });
    const badUsage = await create({ name: 'bad usage', size: 32, usage: 'HASHING' });
    expect(onlyError(badUsage).source.pointer).toBe('/data/usage');
    const reserved = await create({ name: 'reserved', size: 32, usage: 'NONE' });
    expect(reserved.status).toBe(404);
    expect(onlyError(reserved)).toMatchObject({ code: 'invalid_parameter', source: { pointer: '/data/usage' } });
  });

  it('several violations give one error each', async () => {
    const res = await create({ name: 'x', size: 'big', usage: 'SIGNING', extra: true });
    expect(res.status).toBe(404);
    const pointers = res.body.errors.map((e: { source: { pointer: string } }) => e.source.pointer).sort();
    expect(pointers).toEqual(['/data/extra', '/data/name', '/data/size']);
  });

  it('update accepts active, name and notes; the record keeps its fields', async () => {
    const { id } = (await create({ name: 'rotating', size: 32, usage: 'ENCRYPTION' })).body.data;
    const res = await server().call('PATCH', `/api/v1/secret_keys/${id}`, {
      body: envelope('secret_key', { active: false, name: 'retired', notes: 'rotated 2026-03' }),
    });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({
      id,
      name: 'retired',
      notes: 'rotated 2026-03',
      size: 32,
      usage: 'ENCRYPTION',
    });
  });

  it('size and usage cannot be changed by update', async () => {
    const { id } = (await create({ name: 'fixed', size: 32, usage: 'ENCRYPTION' })).body.data;
    const res = await server().call('PATCH', `/api/v1/secret_keys/${id}`, {
      body: envelope('secret_key', { size: 64 }),
    });
    expect(onlyError(res).source.pointer).toBe('/data/size');
  });

  it('a key used by a switch cannot be deleted; an unused one can', async () => {
    const { id } = (await create({ name: 'attached', size: 32, usage: 'ENCRYPTION' })).body.data;
    const sw = (await server().call('POST', '/api/v1/switches', { body: envelope('switch', { name: 'mms gateway' }) }))
      .body.data;
    expect(
      (
        await server().call('PUT', `/api/v1/switches/${sw.id}/mms_encryption_key/${id}`, {
          body: envelope('switch', {}),
        })
      ).status,
    ).toBe(200);
    const res = await server().call('DELETE', `/api/v1/secret_keys/${id}`);
    expect(res.status).toBe(422);
    expect(onlyError(res).code).toBe('resource_in_use');
    const other = (await create({ name: 'free', size: 16, usage: 'SIGNING' })).body.data;
    const ok = await server().call('DELETE', `/api/v1/secret_keys/${other.id}`);
    expect(ok.status).toBe(200);
    expect(ok.body.data.id).toBe(other.id);
  });

  it("lists only the caller's account", async () => {
    await create({ name: 'demo key', size: 16, usage: 'SIGNING' });
    const partner = await server().call('GET', '/api/v1/secret_keys', { key: 'partner-admin-key' });
    expect(partner.body.count).toBe(0);
    const demo = await server().call('GET', '/api/v1/secret_keys');
    expect(demo.body.count).toBe(1);
  });
});
