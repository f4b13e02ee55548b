import { describe, expect, it } from 'vitest';
import { envelope, expectInvalid, onlyError, useServer } from '../support/helpers.js';

describe('call data webhook', () => {
  const server = useServer();
  const create = (data: unknown, key?: string) =>
    server().call('POST', '/api/v1/call_data_webhooks', { key, body: envelope('call_data_webhook', data) });
  const hook = {
    name: 'CDR collector',
    protocol: 'HTTP',
    data: 'https://billing.example.com/cdrs',
    auth_method: 'BASIC',
    auth_identity: 'cdr',
    auth_secret: 'cdr-pass-1',
    custom_headers: [{ key: 'X-Tenant', value: 'demo' }],
    custom_query_params: [{ key: 'source', value: 'dipswitch' }],
  };

  it('create answers 201 with the record; auth_secret only then', async () => {
    const res = await create(hook);
    expect(res.status).toBe(201);
    expect(res.body.type).toBe('call_data_webhook');
    expect(res.body.data).toMatchObject({
      name: 'CDR collector',
      protocol: 'HTTP',
      data: hook.data,
      auth_secret: 'cdr-pass-1',
      custom_headers: hook.custom_headers,
    });
    const got = await server().call('GET', `/api/v1/call_data_webhooks/${res.body.data.id}`);
    expect(got.body.data).not.toHaveProperty('auth_secret');
    expect(JSON.stringify((await server().call('GET', '/api/v1/call_data_webhooks')).body)).not.toContain('cdr-pass-1');
  });

  it('one per account: a second answers 422 limit_reached', async () => {
    await create(hook);
    const res = await create({ ...hook, name: 'second' });
    expect(res.status).toBe(422);
    expect(onlyError(res).code).toBe('limit_reached');
    expect((await create(hook, 'partner-admin-key')).status).toBe(201);
  });

  it('data depends on protocol: http(s) URL for HTTP, sftp URL or host[:port] for SFTP', async () => {
    expectInvalid(await create({ ...hook, data: 'sftp://x.example.com' }), '/data/data', 422);
    for (const data of ['sftp://files.example.com/cdr', 'files.example.com', 'files.example.com:2222']) {
      const res = await create({ name: 'sftp', protocol: 'SFTP', data, auth_method: 'BEARER', auth_secret: 'k' });
      expect(res.status, data).toBe(201);
      await server().call('DELETE', `/api/v1/call_data_webhooks/${res.body.data.id}`);
    }
    expectInvalid(
      await create({ name: 'sftp', protocol: 'SFTP', data: 'https://files.example.com' }),
      '/data/data',
      422,
    );
    expect((await create({ name: 'off', protocol: 'NONE' })).status).toBe(201);
  });

  it('nothing is required (the spec marks nothing with !); name is 1..255; headers are key/value pairs', async () => {
    const bare = await create({});
    expect(bare.status).toBe(201);
    expect(bare.body.data).toMatchObject({ name: null, protocol: 'NONE', data: null });
    await server().call('DELETE', `/api/v1/call_data_webhooks/${bare.body.data.id}`);
    const noIdentity = await create({ ...hook, auth_identity: undefined, auth_secret: undefined });
    expect(noIdentity.status).toBe(201);
    await server().call('DELETE', `/api/v1/call_data_webhooks/${noIdentity.body.data.id}`);
    expectInvalid(await create({ ...hook, name: '' }), '/data/name', 422);
    expectInvalid(
      await create({ ...hook, custom_headers: [{ key: 'X-Tenant' }] }),
      '/data/custom_headers/0/value',
      422,
    );
  });

  it('update merges and re-checks; delete removes; another account cannot see it', async () => {
    const { id } = (await create(hook)).body.data;
    const res = await server().call('PATCH', `/api/v1/call_data_webhooks/${id}`, {
      body: envelope('call_data_webhook', { notes: 'moved', data: 'https://billing2.example.com/cdrs' }),
    });
    expect(res.body.data).toMatchObject({
      notes: 'moved',
      data: 'https://billing2.example.com/cdrs',
      auth_method: 'BASIC',
    });
    expectInvalid(
      await server().call('PATCH', `/api/v1/call_data_webhooks/${id}`, {
        body: envelope('call_data_webhook', { protocol: 'SFTP' }),
      }),
      '/data/data',
      422,
    );
    expect((await server().call('GET', `/api/v1/call_data_webhooks/${id}`, { key: 'partner-admin-key' })).status).toBe(
      404,
    );
    expect((await server().call('DELETE', `/api/v1/call_data_webhooks/${id}`)).status).toBe(200);
    expect((await create(hook)).status).toBe(201);
  });
});
