import { describe, expect, it } from 'vitest';
import { envelope, expectInvalid, useServer } from '../support/helpers.js';

describe('event subscriptions', () => {
  const server = useServer();
  const create = (data: unknown) =>
    server().call('POST', '/api/v1/event_subscriptions', { body: envelope('event_subscription', data) });
  const sub = {
    name: 'Order events',
    protocol: 'HTTP',
    data: 'https://hooks.example.com/events',
    topics: ['ORDER', 'REQUEST'],
    auth_method: 'BEARER',
    auth_secret: 'ev-token-3',
  };

  it('create answers 201 with the record, enabled by default; auth_secret is never returned', async () => {
    const res = await create(sub);
    expect(res.status).toBe(201);
    expect(res.body.type).toBe('event_subscription');
    expect(res.body.data).toMatchObject({
      name: 'Order events',
      enabled: true,
      protocol: 'HTTP',
      topics: ['ORDER', 'REQUEST'],
    });
    expect(JSON.stringify(res.body)).not.toContain('ev-token-3');
    expect(
      JSON.stringify((await server().call('GET', `/api/v1/event_subscriptions/${res.body.data.id}`)).body),
    ).not.toContain('ev-token-3');
  });

  it("topics come from the spec's list, at least one, each once", async () => {
    expectInvalid(await create({ ...sub, topics: [] }), '/data/topics');
    expectInvalid(await create({ ...sub, topics: ['ORDER', 'INVOICE'] }), '/data/topics/1');
    expectInvalid(await create({ ...sub, topics: ['ORDER', 'ORDER'] }), '/data/topics');
    expectInvalid(await create({ name: 'x', protocol: 'HTTP', data: sub.data }), '/data/topics');
  });

  it('SMTP and EMAIL are refused as unavailable', async () => {
    for (const protocol of ['SMTP', 'EMAIL']) {
      const res = await create({ ...sub, protocol, data: 'relay.example.com' });
      expectInvalid(res, '/data/protocol');
      expect(res.body.errors[0].detail).toContain('unavailable');
    }
  });

  it('data is required and checked for HTTP and SFTP; recipient is only for SMTP', async () => {
    expectInvalid(await create({ ...sub, data: undefined }), '/data/data');
    expectInvalid(await create({ ...sub, data: 'ftp://hooks.example.com' }), '/data/data');
    expect((await create({ ...sub, protocol: 'SFTP', data: 'sftp://files.example.com/events' })).status).toBe(201);
    expectInvalid(await create({ ...sub, recipient: 'ops@example.com' }), '/data/recipient');
    expect((await create({ name: 'noop', protocol: 'NONE', topics: ['NONE'] })).status).toBe(201);
  });

  it('name up to 255, notes up to 65535', async () => {
    expectInvalid(await create({ ...sub, name: 'n'.repeat(256) }), '/data/name');
    expectInvalid(await create({ ...sub, notes: 'n'.repeat(65536) }), '/data/notes');
  });

  it('PATCH toggles enabled and re-checks; list, get and delete', async () => {
    const { id } = (await create(sub)).body.data;
    const off = await server().call('PATCH', `/api/v1/event_subscriptions/${id}`, {
      body: envelope('event_subscription', { enabled: false }),
    });
    expect(off.body.data.enabled).toBe(false);
    expectInvalid(
      await server().call('PATCH', `/api/v1/event_subscriptions/${id}`, {
        body: envelope('event_subscription', { protocol: 'EMAIL' }),
      }),
      '/data/protocol',
    );
    expect((await server().call('GET', '/api/v1/event_subscriptions')).body.count).toBe(1);
    expect((await server().call('GET', '/api/v1/event_subscriptions', { key: 'partner-admin-key' })).body.count).toBe(
      0,
    );
    expect((await server().call('DELETE', `/api/v1/event_subscriptions/${id}`)).status).toBe(200);
    expect((await server().call('GET', `/api/v1/event_subscriptions/${id}`)).status).toBe(404);
  });
});
