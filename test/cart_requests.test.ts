import { describe, expect, it } from 'vitest';
import { envelope, expectInvalid, useServer } from './helpers.js';

/** A valid request of each of the 13 types. */
const VALID: Record<string, unknown> = {
  ADD_CAMPAIGN_NUMBERS: { numbers: ['+13125550100'], tcr_campaign_id: 'CDEMO01' },
  REMOVE_CAMPAIGN_NUMBERS: { numbers: ['+13125550100'], tcr_campaign_id: 'CDEMO01' },
  ADD_MESSAGING_NUMBERS: { numbers: ['+13125550101'] },
  ADD_VOICE_NUMBERS: { numbers: ['13125550102'] },
  REMOVE_MESSAGING_NUMBERS: { numbers: ['+13125550103'] },
  REMOVE_VOICE_NUMBERS: { numbers: ['+13125550104'] },
  REMOVE_NUMBERS: { numbers: ['+13125550105', '+13125550106'] },
  NEW_NUMBERS: {
    npa: '312',
    nxx: '555',
    state: 'IL',
    city: 'Chicago',
    rate_center: 'CHICAGO',
    number_type: 'TENDLC',
    quantity: '10',
    min_quantity: '5',
  },
  REGISTER_BRAND: {
    display_name: 'Demo Coffee',
    company_name: 'Demo Coffee LLC',
    entity_type: 'PRIVATE_PROFIT',
    country: 'US',
    email: 'brand@demo-coffee.example',
    ein: '36-4829175',
    website: 'https://demo-coffee.example',
  },
  VET_BRAND: { tcr_brand_id: 'BDEMO01', vetting_class: 'STANDARD' },
  UNREGISTER_BRAND: { tcr_brand_id: 'BDEMO01' },
  REGISTER_CAMPAIGN: {
    tcr_brand_id: 'BDEMO01',
    name: 'Loyalty',
    description: 'Points balance alerts for loyalty members.',
    use_case: 'LOYALTY',
    sample_messages: ['Demo Coffee: you have 120 points.'],
  },
  UNREGISTER_CAMPAIGN: { tcr_campaign_id: 'CDEMO01' },
};

describe('cart requests', () => {
  const server = useServer();
  let cartId = '';
  const cart = async () => {
    cartId = (await server().call('POST', '/api/v1/carts', { body: envelope('cart', { name: 'requests' }) })).body.data
      .id;
    return cartId;
  };
  const add = (data: unknown) =>
    server().call('POST', `/api/v1/carts/${cartId}/requests`, { body: envelope('request', data) });

  it('every one of the 13 types is accepted with its own data', async () => {
    await cart();
    for (const [type, data] of Object.entries(VALID)) {
      const res = await add({ name: type.toLowerCase(), type, data });
      expect(res.status, `${type}: ${JSON.stringify(res.body)}`).toBe(201);
      expect(res.body.data).toMatchObject({ type, data });
    }
    expect((await server().call('GET', `/api/v1/carts/${cartId}/requests?first=100`)).body.count).toBe(13);
  });

  it("an unknown type, or data of another type's shape, points into the request", async () => {
    await cart();
    expectInvalid(await add({ type: 'PORT_NUMBERS', data: {} }), '/data/type', 422);
    const res = await add({ type: 'VET_BRAND', data: { numbers: ['+13125550100'] } });
    expect(res.status).toBe(422);
    expect(res.body.errors.map((e: any) => e.source.pointer).sort()).toEqual([
      '/data/data/numbers',
      '/data/data/tcr_brand_id',
    ]);
  });

  it("named numbers must be the account's: the error points at the offending item", async () => {
    await cart();
    expectInvalid(
      await add({ type: 'REMOVE_NUMBERS', data: { numbers: ['+13125550100', '+13125550101', '+13125550200'] } }),
      '/data/data/numbers/2',
      422,
    );
    expectInvalid(
      await add({ type: 'ADD_CAMPAIGN_NUMBERS', data: { numbers: ['+13125550100', 'x'], tcr_campaign_id: 'CDEMO01' } }),
      '/data/data/numbers/1',
      422,
    );
    expectInvalid(
      await add({ type: 'ADD_CAMPAIGN_NUMBERS', data: { numbers: ['+13125550100'], tcr_campaign_id: 'CNOPE01' } }),
      '/data/data/tcr_campaign_id',
      422,
    );
    expectInvalid(
      await add({ type: 'REMOVE_NUMBERS', data: { numbers: ['+13125550100', '13125550100'] } }),
      '/data/data/numbers/1',
      422,
    );
  });

  it('new numbers follow the spec: npa and nxx three digits, state two letters, a valid quantity range', async () => {
    await cart();
    const base = { number_type: 'TENDLC', quantity: '10' };
    expectInvalid(await add({ type: 'NEW_NUMBERS', data: { ...base, npa: '31' } }), '/data/data/npa', 422);
    expectInvalid(await add({ type: 'NEW_NUMBERS', data: { ...base, nxx: '5555' } }), '/data/data/nxx', 422);
    expectInvalid(await add({ type: 'NEW_NUMBERS', data: { ...base, state: 'Illinois' } }), '/data/data/state', 422);
    expectInvalid(
      await add({ type: 'NEW_NUMBERS', data: { ...base, number_type: 'MOBILE' } }),
      '/data/data/number_type',
      422,
    );
    expectInvalid(await add({ type: 'NEW_NUMBERS', data: { ...base, quantity: 10 } }), '/data/data/quantity', 422);
    expectInvalid(
      await add({ type: 'NEW_NUMBERS', data: { ...base, min_quantity: '11' } }),
      '/data/data/min_quantity',
      422,
    );
    expectInvalid(
      await add({ type: 'NEW_NUMBERS', data: { number_type: 'TENDLC', min_quantity: '2' } }),
      '/data/data/quantity',
      422,
    );
    expectInvalid(
      await add({ type: 'NEW_NUMBERS', data: { number_type: 'TOLLFREE', npa: '312', quantity: '1' } }),
      '/data/data/npa',
      422,
    );
    expect(
      (await add({ type: 'NEW_NUMBERS', data: { number_type: 'TOLLFREE', npa: '888', quantity: '1' } })).status,
    ).toBe(201);
    expect((await add({ type: 'NEW_NUMBERS', data: { number_type: 'NONE' } })).status).toBe(201);
  });

  it("update changes name, notes and data, checked against the request's own type", async () => {
    await cart();
    const { id } = (await add({ name: 'r', type: 'REMOVE_NUMBERS', data: { numbers: ['+13125550100'] } })).body.data;
    const path = `/api/v1/carts/${cartId}/requests/${id}`;
    const ok = await server().call('PATCH', path, {
      body: envelope('request', { notes: 'also 101', data: { numbers: ['+13125550100', '+13125550101'] } }),
    });
    expect(ok.status).toBe(200);
    expect(ok.body.data).toMatchObject({
      name: 'r',
      notes: 'also 101',
      data: { numbers: ['+13125550100', '+13125550101'] },
    });
    expectInvalid(
      await server().call('PATCH', path, { body: envelope('request', { data: { numbers: [] } }) }),
      '/data/data/numbers',
      422,
    );
    expectInvalid(
      await server().call('PATCH', path, { body: envelope('request', { data: { numbers: ['+13125550209'] } }) }),
      '/data/data/numbers/0',
      422,
    );
    expectInvalid(
      await server().call('PATCH', path, { body: envelope('request', { type: 'ADD_VOICE_NUMBERS' }) }),
      '/data/type',
      422,
    );
  });

  it('get and delete; a request of another cart is not found', async () => {
    await cart();
    const { id } = (await add({ type: 'UNREGISTER_CAMPAIGN', data: { tcr_campaign_id: 'CDEMO01' } })).body.data;
    expect((await server().call('GET', `/api/v1/carts/${cartId}/requests/${id}`)).body.data.id).toBe(id);
    const other = (await server().call('POST', '/api/v1/carts', { body: envelope('cart', { name: 'other' }) })).body
      .data.id;
    expect((await server().call('GET', `/api/v1/carts/${other}/requests/${id}`)).status).toBe(404);
    expect((await server().call('DELETE', `/api/v1/carts/${cartId}/requests/${id}`)).status).toBe(200);
    expect((await server().call('GET', `/api/v1/carts/${cartId}/requests/${id}`)).status).toBe(404);
  });
});
