import { describe, expect, it } from 'vitest';
import { DEMO, envelope, onlyError, useServer } from '../support/helpers.js';

describe('authentication and tenancy', () => {
  const server = useServer();

  it('a missing key answers 403 access_denied.unauthenticated / missing_key, never 401', async () => {
    const res = await server().call('GET', '/api/v1/api_keys', { key: null });
    expect(res.status).toBe(403);
    expect(onlyError(res)).toMatchObject({ code: 'access_denied.unauthenticated', sub_code: 'missing_key' });
  });

  it('an unknown key answers unknown_key; an inactive one inactive_key', async () => {
    const unknown = await server().call('GET', '/api/v1/api_keys', { key: 'no-such-key' });
    expect(onlyError(unknown)).toMatchObject({ code: 'access_denied.unauthenticated', sub_code: 'unknown_key' });
    await server().write(async (w) =>
      w.apiKeys.update((await w.apiKeys.byKey('demo-operator-key'))!, (d) => (d.data.active = false)),
    );
    const inactive = await server().call('GET', '/api/v1/api_keys', { key: 'demo-operator-key' });
    expect(inactive.status).toBe(403);
    expect(onlyError(inactive).sub_code).toBe('inactive_key');
    // refused before any account is known: the server's journal alone; for an account's inactive key: its too
    const journaled = (await server().call('GET', '/__sim/requests?operation_id=listApiKeys', { key: null })).body;
    expect(journaled.requests.map((e: { account_id: string | null }) => e.account_id)).toEqual([DEMO, null]);
    const own = (await server().call('GET', '/__sim/requests?operation_id=listApiKeys', { key: 'demo-admin-key' }))
      .body;
    expect(own.count).toBe(1);
  });

  it('basic auth takes identity and secret; a wrong secret is unknown_key', async () => {
    const good = Buffer.from('demo-admin:demo-admin-secret').toString('base64');
    expect(
      (await server().call('GET', '/api/v1/api_keys', { key: null, headers: { authorization: `Basic ${good}` } }))
        .status,
    ).toBe(200);
    const bad = Buffer.from('demo-admin:guess').toString('base64');
    const res = await server().call('GET', '/api/v1/api_keys', {
      key: null,
      headers: { authorization: `Basic ${bad}` },
    });
    expect(onlyError(res)).toMatchObject({ code: 'access_denied.unauthenticated', sub_code: 'unknown_key' });
  });

  it('the standard key may use bulk dip tasks and nothing else', async () => {
    const res = await server().call('GET', '/api/v1/secret_keys', { key: 'demo-standard-key' });
    expect(res.status).toBe(403);
    expect(onlyError(res)).toMatchObject({
      code: 'access_denied.no_scope',
      sub_code: 'none',
      params: { action: 'list', level: 'account', resource: 'secret_key' },
    });
    const dip = await server().call('GET', '/api/v1/bulk_dip_tasks', { key: 'demo-standard-key' });
    expect(dip.status).not.toBe(403);
  });

  it('read_only may list and get, and nothing else', async () => {
    expect((await server().call('GET', '/api/v1/users', { key: 'demo-readonly-key' })).status).toBe(200);
    const res = await server().call('POST', '/api/v1/carts', {
      key: 'demo-readonly-key',
      body: envelope('cart', { name: 'x' }),
    });
    expect(res.status).toBe(403);
    expect(onlyError(res).params).toEqual({ action: 'create', level: 'account', resource: 'cart' });
  });

  it('the operator may do everything but write credentials', async () => {
    const res = await server().call('PATCH', '/api/v1/users/0a0a0a0a-0000-4000-8000-000000000103', {
      key: 'demo-operator-key',
      body: envelope('user', { title: 'x' }),
    });
    expect(onlyError(res).params).toEqual({ action: 'update', level: 'account', resource: 'user' });
    expect((await server().call('GET', '/api/v1/users', { key: 'demo-operator-key' })).status).toBe(200);
    const cart = await server().call('POST', '/api/v1/carts', {
      key: 'demo-operator-key',
      body: envelope('cart', { name: 'x' }),
    });
    expect(cart.status).not.toBe(403);
  });

  it("a suspended user's key loses every scope but bulk dip tasks", async () => {
    await server().write(async (w) =>
      w.users.update((await w.users.get('0a0a0a0a-0000-4000-8000-000000000101'))!, (d) => (d.suspended = true)),
    );
    const res = await server().call('GET', '/api/v1/api_keys');
    expect(onlyError(res).code).toBe('access_denied.no_scope');
    expect((await server().call('GET', '/api/v1/bulk_dip_tasks')).status).not.toBe(403);
  });

  it('scope is checked before the body: a forbidden caller with a bad body gets 403', async () => {
    const res = await server().call('POST', '/api/v1/api_keys', {
      key: 'demo-readonly-key',
      raw: '{not json',
      headers: { 'content-type': 'application/json' },
    });
    expect(res.status).toBe(403);
  });

  it("another account's record answers 404 on get, update and delete, and stays unchanged", async () => {
    const partnerKeyId = '0a0a0a0a-0000-4000-8000-000000000305';
    expect((await server().call('GET', `/api/v1/api_keys/${partnerKeyId}`)).status).toBe(404);
    expect(
      (
        await server().call('PATCH', `/api/v1/api_keys/${partnerKeyId}`, {
          body: envelope('api_key', { active: false }),
        })
      ).status,
    ).toBe(404);
    expect((await server().call('DELETE', `/api/v1/api_keys/${partnerKeyId}`)).status).toBe(404);
    const own = await server().call('GET', `/api/v1/api_keys/${partnerKeyId}`, { key: 'partner-admin-key' });
    expect(own.body.data.active).toBe(true);
  });

  it('lists never mix accounts', async () => {
    const demo = await server().call('GET', '/api/v1/api_keys');
    const partner = await server().call('GET', '/api/v1/api_keys', { key: 'partner-admin-key' });
    expect(demo.body.results.map((r: any) => r.data.key).sort()).toEqual([
      'demo-admin-key',
      'demo-operator-key',
      'demo-readonly-key',
      'demo-standard-key',
    ]);
    expect(partner.body.results.map((r: any) => r.data.key)).toEqual(['partner-admin-key']);
  });
});
