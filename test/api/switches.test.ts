import { describe, expect, it } from 'vitest';
import { envelope, expectInvalid, onlyError, useServer } from '../support/helpers.js';

describe('switches', () => {
  const server = useServer();
  const create = (data: unknown) => server().call('POST', '/api/v1/switches', { body: envelope('switch', data) });
  const update = (id: string, data: unknown) =>
    server().call('PATCH', `/api/v1/switches/${id}`, { body: envelope('switch', data) });

  it('only name is required; the answer is 201 with every field and associations all null', async () => {
    const res = await create({ name: 'Chicago PBX' });
    expect(res.status).toBe(201);
    expect(res.body.type).toBe('switch');
    expect(res.body.data).toMatchObject({
      name: 'Chicago PBX',
      sms_enabled: false,
      sms_protocol: 'NONE',
      mms_protocol: 'NONE',
      voice_protocol: 'NONE',
      sms_options: { dlr_on_sent: false, forward_dlr: false, pad_shortcodes: false },
    });
    expect(res.body.associations).toEqual({
      api_key: null,
      mms_encryption_key: null,
      mms_signing_key: null,
      sms_encryption_key: null,
      sms_signing_key: null,
    });
    expectInvalid(await create({ notes: 'no name' }), '/data/name');
  });

  it('an HTTP switch needs an http or https URL; path and query are allowed', async () => {
    const ok = await create({
      name: 'web',
      sms_enabled: true,
      sms_protocol: 'HTTP',
      sms_data: 'https://hooks.example.com/sms/inbound?tenant=7',
    });
    expect(ok.status).toBe(201);
    expectInvalid(
      await create({ name: 'web', sms_protocol: 'HTTP', sms_data: 'ftp://hooks.example.com' }),
      '/data/sms_data',
    );
    expectInvalid(await create({ name: 'web', sms_protocol: 'HTTP' }), '/data/sms_data');
    expectInvalid(await create({ name: 'web', mms_protocol: 'HTTP', mms_data: 'not a url' }), '/data/mms_data');
  });

  it('FORWARD needs an E.164 number, plus optional; SERVICE_CHAT the value UNUSED', async () => {
    expect((await create({ name: 'fwd', sms_protocol: 'FORWARD', sms_data: '13125550177' })).status).toBe(201);
    expect((await create({ name: 'fwd', mms_protocol: 'FORWARD', mms_data: '+13125550177' })).status).toBe(201);
    expectInvalid(await create({ name: 'fwd', sms_protocol: 'FORWARD', sms_data: '555-0177' }), '/data/sms_data');
    expect((await create({ name: 'chat', sms_protocol: 'SERVICE_CHAT', sms_data: 'UNUSED' })).status).toBe(201);
    expectInvalid(
      await create({ name: 'chat', sms_protocol: 'SERVICE_CHAT', sms_data: 'https://chat.example.com' }),
      '/data/sms_data',
    );
  });

  it('MM4 needs a URL without a path, scheme mm4, mm4+s or mm4s, and only BASIC auth', async () => {
    for (const scheme of ['mm4', 'mm4+s', 'mm4s']) {
      const res = await create({
        name: 'mm4',
        mms_protocol: 'MM4',
        mms_data: `${scheme}://mm4.carrier.example:465`,
        mms_identity: 'peer',
        mms_secret: 's3cret',
      });
      expect(res.status, scheme).toBe(201);
      expect(res.body.data.mms_auth_method).toBe('BASIC');
    }
    expectInvalid(
      await create({
        name: 'mm4',
        mms_protocol: 'MM4',
        mms_data: 'mm4s://mm4.carrier.example/inbox',
        mms_identity: 'p',
        mms_secret: 's',
      }),
      '/data/mms_data',
    );
    expectInvalid(
      await create({
        name: 'mm4',
        mms_protocol: 'MM4',
        mms_data: 'smtp://mm4.carrier.example',
        mms_identity: 'p',
        mms_secret: 's',
      }),
      '/data/mms_data',
    );
    expectInvalid(
      await create({
        name: 'mm4',
        mms_protocol: 'MM4',
        mms_data: 'mm4://mm4.carrier.example',
        mms_auth_method: 'BEARER',
        mms_secret: 's',
      }),
      '/data/mms_auth_method',
    );
  });

  it('SFTP needs the sftp scheme; NONE and SMPP ignore the data', async () => {
    expect(
      (await create({ name: 'sftp', mms_protocol: 'SFTP', mms_data: 'sftp://files.example.com/mms/in' })).status,
    ).toBe(201);
    expectInvalid(
      await create({ name: 'sftp', mms_protocol: 'SFTP', mms_data: 'https://files.example.com' }),
      '/data/mms_data',
    );
    expect((await create({ name: 'none', sms_protocol: 'NONE', sms_data: 'anything at all' })).status).toBe(201);
  });

  // spec: "The only required field on create is `name`; all others may be left empty."
  it("SMPP without an API key is accepted; a bound key must be the account's own", async () => {
    expect((await create({ name: 'smpp', sms_protocol: 'SMPP' })).status).toBe(201);
    const ok = await create({ name: 'smpp', sms_protocol: 'SMPP', api_key_id: '0a0a0a0a-0000-4000-8000-000000000304' });
    expect(ok.status).toBe(201);
    expect(ok.body.associations.api_key).toEqual({ id: '0a0a0a0a-0000-4000-8000-000000000304' });
    expectInvalid(
      await create({ name: 'smpp', sms_protocol: 'SMPP', api_key_id: '0a0a0a0a-0000-4000-8000-000000000305' }),
      '/data/api_key_id',
    );
    expect((await update(ok.body.data.id, { api_key_id: null })).status).toBe(200);
  });

  it('an auth method without its identity or secret is accepted (found when a message is delivered)', async () => {
    const http = { name: 'auth', sms_protocol: 'HTTP', sms_data: 'https://hooks.example.com/sms' };
    expect((await create({ ...http, sms_auth_method: 'BASIC', sms_secret: 'pw' })).status).toBe(201);
    expect((await create({ ...http, sms_auth_method: 'HMAC_SHA256' })).status).toBe(201);
    expect(
      (
        await create({
          name: 'v',
          voice_protocol: 'HTTP_ROUTE',
          voice_data: 'https://r.example.com',
          voice_auth_method: 'BEARER',
        })
      ).status,
    ).toBe(201);
    expect((await create({ name: 'm', mms_protocol: 'MM4', mms_data: 'mm4://mmsc.example.com' })).status).toBe(201);
  });

  it('secrets are shown in the create answer and never again', async () => {
    const res = await create({
      name: 'secretive',
      sms_protocol: 'HTTP',
      sms_data: 'https://hooks.example.com',
      sms_auth_method: 'BEARER',
      sms_secret: 'tok-123456',
    });
    expect(res.body.data.sms_secret).toBe('tok-123456');
    const got = await server().call('GET', `/api/v1/switches/${res.body.data.id}`);
    expect(JSON.stringify(got.body)).not.toContain('tok-123456');
    const list = await server().call('GET', '/api/v1/switches');
    expect(JSON.stringify(list.body)).not.toContain('tok-123456');
  });

  it('voice data follows the voice protocol', async () => {
    expect(
      (
        await create({
          name: 'v',
          voice_enabled: true,
          voice_protocol: 'VOIP',
          voice_data: '1001@pbx.example.com:5060',
        })
      ).status,
    ).toBe(201);
    expectInvalid(
      await create({ name: 'v', voice_protocol: 'VOIP', voice_data: 'pbx.example.com' }),
      '/data/voice_data',
    );
    expectInvalid(await create({ name: 'v', voice_protocol: 'TTS', voice_data: 'HELLO' }), '/data/voice_data');
  });

  it('update merges fields and options, and is checked as a whole', async () => {
    const { id } = (await create({ name: 'merge', sms_options: { dlr_on_sent: true } })).body.data;
    const res = await update(id, { notes: 'edge router', sms_options: { pad_shortcodes: true } });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({
      name: 'merge',
      notes: 'edge router',
      sms_options: { dlr_on_sent: true, forward_dlr: false, pad_shortcodes: true },
    });
    expectInvalid(await update(id, { sms_protocol: 'HTTP' }), '/data/sms_data');
    expect((await server().call('GET', `/api/v1/switches/${id}`)).body.data.sms_protocol).toBe('NONE');
  });

  it('get, list and delete; a switch routing a number cannot be deleted', async () => {
    const { id } = (await create({ name: 'routing' })).body.data;
    expect((await server().call('GET', '/api/v1/switches')).body.count).toBe(1);
    await server().call('PATCH', '/api/v1/numbers/+13125550100', { body: envelope('did', { switch_id: id }) });
    const refused = await server().call('DELETE', `/api/v1/switches/${id}`);
    expect(refused.status).toBe(422);
    expect(onlyError(refused).code).toBe('resource_in_use');
    await server().call('PATCH', '/api/v1/numbers/+13125550100', { body: envelope('did', { switch_id: null }) });
    const del = await server().call('DELETE', `/api/v1/switches/${id}`);
    expect(del.status).toBe(200);
    expect((await server().call('GET', `/api/v1/switches/${id}`)).status).toBe(404);
  });

  it('an API key bound to a switch cannot be deleted', async () => {
    const key = (await server().call('POST', '/api/v1/api_keys', { body: envelope('api_key', { name: 'smpp key' }) }))
      .body.data;
    await create({ name: 'smpp', sms_protocol: 'SMPP', api_key_id: key.id });
    const res = await server().call('DELETE', `/api/v1/api_keys/${key.id}`);
    expect(res.status).toBe(422);
    expect(onlyError(res).code).toBe('resource_in_use');
  });

  it('another account cannot see or change the switch', async () => {
    const { id } = (await create({ name: 'demo only' })).body.data;
    for (const [method, body] of [
      ['GET', undefined],
      ['PATCH', envelope('switch', { name: 'x' })],
      ['DELETE', undefined],
    ] as const) {
      const res = await server().call(method, `/api/v1/switches/${id}`, { key: 'partner-admin-key', body });
      expect(res.status).toBe(404);
      expect(onlyError(res).code).toBe('not_found');
    }
    expect((await server().call('GET', `/api/v1/switches/${id}`)).body.data.name).toBe('demo only');
  });
});

describe('MMS encryption key on a switch', () => {
  const server = useServer();
  const key = (usage: string) =>
    server().call('POST', '/api/v1/secret_keys', {
      body: envelope('secret_key', { name: `${usage} key`, size: 32, usage }),
    });

  it('PUT attaches an ENCRYPTION key and answers the key; DELETE detaches it', async () => {
    const sw = (await server().call('POST', '/api/v1/switches', { body: envelope('switch', { name: 'mms' }) })).body
      .data;
    const k = (await key('ENCRYPTION')).body.data;
    const put = await server().call('PUT', `/api/v1/switches/${sw.id}/mms_encryption_key/${k.id}`, {
      body: envelope('switch', { mms_encryption_method: 'AES_256_GCM' }),
    });
    expect(put.status).toBe(200);
    expect(put.body).toMatchObject({ type: 'secret_key', data: { id: k.id, usage: 'ENCRYPTION' } });
    const got = await server().call('GET', `/api/v1/switches/${sw.id}`);
    expect(got.body.associations.mms_encryption_key).toEqual({ id: k.id });
    expect(got.body.data.mms_encryption_method).toBe('AES_256_GCM');
    const del = await server().call('DELETE', `/api/v1/switches/${sw.id}/mms_encryption_key`);
    expect(del.status).toBe(200);
    expect(del.body.data.id).toBe(k.id);
    expect((await server().call('GET', `/api/v1/switches/${sw.id}`)).body.associations.mms_encryption_key).toBeNull();
    expect((await server().call('DELETE', `/api/v1/switches/${sw.id}/mms_encryption_key`)).status).toBe(404);
    expect((await server().call('DELETE', `/api/v1/secret_keys/${k.id}`)).status).toBe(200);
  });

  it('a SIGNING key cannot be attached for encryption', async () => {
    const sw = (await server().call('POST', '/api/v1/switches', { body: envelope('switch', { name: 'mms' }) })).body
      .data;
    const k = (await key('SIGNING')).body.data;
    const res = await server().call('PUT', `/api/v1/switches/${sw.id}/mms_encryption_key/${k.id}`, {
      body: envelope('switch', {}),
    });
    expect(res.status).toBe(404);
    expect(onlyError(res)).toMatchObject({ code: 'invalid_parameter', source: { parameter: 'id' } });
  });

  it('an unknown key or switch answers 404 not_found', async () => {
    const sw = (await server().call('POST', '/api/v1/switches', { body: envelope('switch', { name: 'mms' }) })).body
      .data;
    const res = await server().call(
      'PUT',
      `/api/v1/switches/${sw.id}/mms_encryption_key/0a0a0a0a-0000-4000-8000-00000000dead`,
      { body: envelope('switch', {}) },
    );
    expect(onlyError(res)).toMatchObject({ code: 'not_found', params: { resource: { type: 'secret_key' } } });
  });
});
