import { describe, expect, it } from 'vitest';
import { envelope, expectInvalid, onlyError, useServer } from '../support/helpers.js';

describe('carts and checkout', () => {
  const server = useServer();
  const createCart = (data: unknown, key?: string) =>
    server().call('POST', '/api/v1/carts', { body: envelope('cart', data), key });
  const addRequest = (cartId: string, data: unknown) =>
    server().call('POST', `/api/v1/carts/${cartId}/requests`, { body: envelope('request', data) });
  const campaignRequest = {
    name: 'Add to Demo Coffee',
    type: 'ADD_CAMPAIGN_NUMBERS',
    data: { numbers: ['+13125550100', '13125550101'], tcr_campaign_id: 'CDEMO01' },
  };

  it('a cart is created with a ULID, name and notes', async () => {
    const res = await createCart({ name: 'March numbers', notes: 'for the Chicago launch' });
    expect(res.status).toBe(201);
    expect(res.body.type).toBe('cart');
    expect(res.body.data.id).toMatch(/^[0-7][0-9A-HJKMNP-TV-Z]{25}$/);
    expect(res.body.data).toMatchObject({ name: 'March numbers', notes: 'for the Chicago launch' });
  });

  it('name is required and unique in the account (422 at /data/name)', async () => {
    expectInvalid(await createCart({ notes: 'no name' }), '/data/name', 422);
    expectInvalid(await createCart({ name: '' }), '/data/name', 422);
    await createCart({ name: 'dup' });
    expectInvalid(await createCart({ name: 'dup' }), '/data/name', 422);
    expect((await createCart({ name: 'dup' }, 'partner-admin-key')).status).toBe(201);
    expectInvalid(await createCart({ name: 'x', status: 'NEW' }), '/data/status', 422);
    // a rename to another cart's name is refused and changes nothing; to its own name, it goes through
    const other = (await createCart({ name: 'other' })).body.data.id as string;
    const rename = await server().call('PATCH', `/api/v1/carts/${other}`, {
      body: envelope('cart', { name: 'dup', notes: 'renamed' }),
    });
    expectInvalid(rename, '/data/name', 422);
    expect(rename.body.errors[0].detail).toBe('A cart named dup exists in the account.');
    expect((await server().call('GET', `/api/v1/carts/${other}`)).body.data).toMatchObject({
      name: 'other',
      notes: null,
    });
    const same = await server().call('PATCH', `/api/v1/carts/${other}`, { body: envelope('cart', { name: 'other' }) });
    expect(same.status).toBe(200);
    const names = (await server().call('GET', '/api/v1/carts')).body.results.map(
      (c: { data: { name: string } }) => c.data.name,
    );
    expect(names.sort()).toEqual(['dup', 'other']);
  });

  it('get, list, update; only name and notes are accepted', async () => {
    const { id } = (await createCart({ name: 'a' })).body.data;
    expect((await server().call('GET', `/api/v1/carts/${id}`)).body.data.name).toBe('a');
    const res = await server().call('PATCH', `/api/v1/carts/${id}`, {
      body: envelope('cart', { name: 'b', notes: 'n' }),
    });
    expect(res.body.data).toMatchObject({ name: 'b', notes: 'n' });
    expect((await server().call('GET', '/api/v1/carts')).body.count).toBe(1);
    expect((await server().call('GET', '/api/v1/carts/not-a-ulid')).status).toBe(422);
  });

  it('deleting a cart with requests needs purge, which removes the requests too', async () => {
    const { id } = (await createCart({ name: 'to purge' })).body.data;
    const req = (await addRequest(id, campaignRequest)).body.data;
    const refused = await server().call('DELETE', `/api/v1/carts/${id}`);
    expect(refused.status).toBe(422);
    expect(onlyError(refused).code).toBe('resource_in_use');
    expect((await server().call('DELETE', `/api/v1/carts/${id}?purge=false`)).status).toBe(422);
    const purged = await server().call('DELETE', `/api/v1/carts/${id}?purge=true`);
    expect(purged.status).toBe(200);
    expect(purged.body.data.id).toBe(id);
    expect(await server().read((w) => w.requests.get(req.id))).toBeUndefined();
    const empty = (await createCart({ name: 'empty' })).body.data;
    expect((await server().call('DELETE', `/api/v1/carts/${empty.id}`)).status).toBe(200);
  });

  it('checkout answers 200 with the order at once: same id, status NEW, error_code OK', async () => {
    const cart = (await createCart({ name: 'checkout me', notes: 'n' })).body.data;
    await addRequest(cart.id, campaignRequest);
    const res = await server().call('POST', `/api/v1/carts/${cart.id}/checkout`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      type: 'order',
      data: { id: cart.id, name: 'checkout me', notes: 'n', status: 'NEW', error_code: 'OK' },
    });
  });

  it('after checkout the cart is no longer a cart and cannot change', async () => {
    const cart = (await createCart({ name: 'frozen' })).body.data;
    const req = (await addRequest(cart.id, campaignRequest)).body.data;
    await server().call('POST', `/api/v1/carts/${cart.id}/checkout`);
    expect((await server().call('GET', `/api/v1/carts/${cart.id}`)).status).toBe(404);
    expect((await server().call('GET', '/api/v1/carts')).body.count).toBe(0);
    for (const [method, path, body] of [
      ['PATCH', `/api/v1/carts/${cart.id}`, envelope('cart', { name: 'changed' })],
      ['DELETE', `/api/v1/carts/${cart.id}?purge=true`, undefined],
      ['POST', `/api/v1/carts/${cart.id}/checkout`, undefined],
      ['POST', `/api/v1/carts/${cart.id}/requests`, envelope('request', campaignRequest)],
      ['PATCH', `/api/v1/carts/${cart.id}/requests/${req.id}`, envelope('request', { name: 'changed' })],
      ['DELETE', `/api/v1/carts/${cart.id}/requests/${req.id}`, undefined],
    ] as const) {
      const res = await server().call(method, path, { body });
      expect(res.status, `${method} ${path}`).toBe(422);
      expect(onlyError(res).code).toBe('cart_checked_out');
    }
  });

  it("the order's requests become submitted requests with their own status", async () => {
    const cart = (await createCart({ name: 'submitted' })).body.data;
    const req = (await addRequest(cart.id, campaignRequest)).body.data;
    expect(req).not.toHaveProperty('status');
    expect((await server().call('GET', `/api/v1/requests/${req.id}`)).status).toBe(404);
    await server().call('POST', `/api/v1/carts/${cart.id}/checkout`);
    const got = await server().call('GET', `/api/v1/requests/${req.id}`);
    expect(got.status).toBe(200);
    expect(got.body.data).toMatchObject({ id: req.id, type: 'ADD_CAMPAIGN_NUMBERS', status: 'NEW', error_code: 'OK' });
  });

  it('orders are listed and read; another account sees none of them', async () => {
    const cart = (await createCart({ name: 'o' })).body.data;
    await server().call('POST', `/api/v1/carts/${cart.id}/checkout`);
    expect((await server().call('GET', '/api/v1/orders')).body.results.map((r: any) => r.data.id)).toEqual([cart.id]);
    expect((await server().call('GET', `/api/v1/orders/${cart.id}`)).body.data.status).toBe('NEW');
    expect((await server().call('GET', '/api/v1/orders', { key: 'partner-admin-key' })).body.count).toBe(0);
    expect((await server().call('GET', `/api/v1/orders/${cart.id}`, { key: 'partner-admin-key' })).status).toBe(404);
  });

  it('the standard key and read-only users cannot order', async () => {
    expect(onlyError(await createCart({ name: 'no' }, 'demo-standard-key')).code).toBe('access_denied.no_scope');
    const { id } = (await createCart({ name: 'reader' })).body.data;
    const res = await server().call('POST', `/api/v1/carts/${id}/checkout`, { key: 'demo-readonly-key' });
    expect(onlyError(res).params).toEqual({ action: 'checkout', level: 'account', resource: 'cart' });
  });
});
