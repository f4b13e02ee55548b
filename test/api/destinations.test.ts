import { describe, expect, it } from 'vitest';
import { envelope, expectInvalid, onlyError, useServer } from '../support/helpers.js';

describe('DID destinations', () => {
  const server = useServer();
  const path = '/api/v1/numbers/+13125550106/destinations';
  const create = (data: unknown) => server().call('POST', path, { body: envelope('number_destination', data) });

  it('creates a VOIP destination with associations', async () => {
    const res = await create({ type: 'VOIP', destination: '1001@pbx.example.com:5060', priority: 1, wait_time: 20 });
    expect(res.status).toBe(201);
    expect(res.body.type).toBe('number_destination');
    expect(res.body.data).toMatchObject({
      type: 'VOIP',
      destination: '1001@pbx.example.com:5060',
      priority: 1,
      wait_time: 20,
      activated: true,
      auth_method: 'NONE',
    });
    expect(res.body.associations).toEqual({
      did: { id: '0a0a0a0a-0000-4000-8000-000000000406' },
      tts_message_set: null,
    });
  });

  it('destination is checked by type', async () => {
    expect((await create({ type: 'PSTN', destination: '+13125550177,13125550178' })).status).toBe(201);
    expectInvalid(await create({ type: 'PSTN', destination: '+13125550177;x' }), '/data/destination');
    expectInvalid(await create({ type: 'VOIP', destination: 'pbx.example.com' }), '/data/destination');
    expectInvalid(await create({ type: 'VOIP', destination: '1001@pbx.example.com:99999' }), '/data/destination');
    expect((await create({ type: 'HTTP_ROUTE', destination: 'https://route.example.com/calls' })).status).toBe(201);
    expectInvalid(await create({ type: 'HTTP_ROUTE', destination: 'sip:1001@pbx' }), '/data/destination');
    for (const tts of ['DISCONNECTED', 'TEXT_ONLY', 'BUSY', 'CONGESTION'])
      expect((await create({ type: 'TTS', destination: tts })).status).toBe(201);
    expectInvalid(await create({ type: 'TTS', destination: 'RINGING' }), '/data/destination');
    expect((await create({ type: 'TTS_CUSTOM', destination: 'Thanks for calling Demo Coffee.' })).status).toBe(201);
    expectInvalid(await create({ type: 'TTS_CUSTOM', destination: '   ' }), '/data/destination');
  });

  it('TTS_MESSAGE_SET stores UNUSED whatever is sent, and needs tts_message_set_id', async () => {
    const set = '0a0a0a0a-0000-4000-8000-00000000aaaa';
    const res = await create({ type: 'TTS_MESSAGE_SET', destination: 'play set 4', tts_message_set_id: set });
    expect(res.status).toBe(201);
    expect(res.body.data.destination).toBe('UNUSED');
    expect(res.body.associations.tts_message_set).toEqual({ id: set });
    expectInvalid(await create({ type: 'TTS_MESSAGE_SET' }), '/data/tts_message_set_id');
  });

  it('priority is 1 to 9', async () => {
    expectInvalid(await create({ type: 'TTS', destination: 'BUSY', priority: 0 }), '/data/priority');
    expectInvalid(await create({ type: 'TTS', destination: 'BUSY', priority: 10 }), '/data/priority');
  });

  it('credentials are not required (found when the route is called); the secret is never returned after create', async () => {
    const route = { type: 'HTTP_ROUTE', destination: 'https://route.example.com/calls' };
    expect((await create({ ...route, auth_method: 'BASIC', auth_secret: 'pw' })).status).toBe(201);
    expect((await create({ ...route, auth_method: 'BEARER' })).status).toBe(201);
    const ok = await create({ ...route, auth_method: 'BEARER', auth_secret: 'route-token-1' });
    expect(ok.body.data.auth_secret).toBe('route-token-1');
    const list = await server().call('GET', path);
    expect(JSON.stringify(list.body)).not.toContain('route-token-1');
    // the provider's client reads one destination by id (interface.md section 9)
    const one = await server().call('GET', `${path}/${ok.body.data.id}`);
    expect(one.status).toBe(200);
    expect(one.body).toMatchObject({
      type: 'number_destination',
      data: { id: ok.body.data.id, auth_method: 'BEARER' },
    });
    expect(JSON.stringify(one.body)).not.toContain('route-token-1');
    expect((await server().call('GET', `${path}/${ok.body.data.id}`, { key: 'partner-admin-key' })).status).toBe(404);
  });

  it('update re-checks the whole destination; delete removes it', async () => {
    const { id } = (await create({ type: 'TTS', destination: 'BUSY' })).body.data;
    const res = await server().call('PATCH', `${path}/${id}`, {
      body: envelope('number_destination', { priority: 2, activated: false }),
    });
    expect(res.body.data).toMatchObject({ priority: 2, activated: false, destination: 'BUSY' });
    expectInvalid(
      await server().call('PATCH', `${path}/${id}`, { body: envelope('number_destination', { type: 'VOIP' }) }),
      '/data/destination',
    );
    expect((await server().call('DELETE', `${path}/${id}`)).status).toBe(200);
    expect((await server().call('GET', path)).body.count).toBe(0);
  });

  it('a destination of another number answers 404', async () => {
    const { id } = (await create({ type: 'TTS', destination: 'BUSY' })).body.data;
    const res = await server().call('DELETE', `/api/v1/numbers/+13125550107/destinations/${id}`);
    expect(res.status).toBe(404);
    expect(onlyError(res).code).toBe('not_found');
    expect((await server().call('GET', '/api/v1/numbers/+13125550200/destinations')).status).toBe(404);
  });
});
