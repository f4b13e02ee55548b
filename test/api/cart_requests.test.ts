import { describe, expect, it } from 'vitest';
import { envelope, expectInvalid, useServer } from '../support/helpers.js';

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

  /** Checks the cart out and runs the order to its end; answers each request's status and error_code by name. */
  async function processed(): Promise<Record<string, { status: string; error_code: string }>> {
    const order = await server().call('POST', `/api/v1/carts/${cartId}/checkout`);
    expect(order.status).toBe(200);
    await server().call('POST', '/__sim/clock/advance', { key: null, body: { by: 'PT1H' } });
    const requests = (await server().call('GET', '/api/v1/requests?first=100')).body.results;
    return Object.fromEntries(
      requests.map((r: any) => [r.data.name, { status: r.data.status, error_code: r.data.error_code }]),
    );
  }

  // The spec makes none of these checks synchronous: the request is accepted and fails when processed.
  it('numbers, campaigns and switches a request names are looked up when the order runs', async () => {
    await cart();
    const accepted = [
      { name: 'foreign', type: 'REMOVE_NUMBERS', data: { numbers: ['+13125550100', '+13125550200'] } },
      {
        name: 'campaign',
        type: 'ADD_CAMPAIGN_NUMBERS',
        data: { numbers: ['+13125550101'], tcr_campaign_id: 'no-such-campaign' },
      },
      {
        name: 'switch',
        type: 'ADD_MESSAGING_NUMBERS',
        data: { numbers: ['+13125550102'], switch_id: '0a0a0a0a-0000-4000-8000-00000000ffff' },
      },
      { name: 'twice', type: 'REMOVE_MESSAGING_NUMBERS', data: { numbers: ['+13125550103', '13125550103'] } },
    ];
    for (const r of accepted) expect((await add(r)).status, r.name).toBe(201);
    // the shape is still checked at the edge: 'x' is no tel string
    expectInvalid(
      await add({ type: 'ADD_CAMPAIGN_NUMBERS', data: { numbers: ['+13125550100', 'x'], tcr_campaign_id: 'CDEMO01' } }),
      '/data/data/numbers/1',
      422,
    );
    expect(await processed()).toEqual({
      foreign: { status: 'ERROR', error_code: 'NUMBER_NOT_FOUND' },
      campaign: { status: 'ERROR', error_code: 'CAMPAIGN_NOT_FOUND' },
      switch: { status: 'ERROR', error_code: 'SWITCH_NOT_FOUND' },
      twice: { status: 'COMPLETED', error_code: 'OK' },
    });
    const orders = (await server().call('GET', '/api/v1/orders')).body.results;
    expect(orders[0].data).toMatchObject({ status: 'ERROR', error_code: 'REQUEST_FAILED' });
  });

  it('new numbers: the shape is checked at the edge, the quantity range and NPA class when processed', async () => {
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
    const accepted = [
      { name: 'range', data: { ...base, min_quantity: '11' } },
      { name: 'tollfree', data: { number_type: 'TOLLFREE', npa: '312', quantity: '1' } },
      { name: 'words', data: { ...base, quantity: 'ten' } },
      { name: 'ok', data: { number_type: 'TOLLFREE', npa: '888', quantity: '2' } },
      { name: 'none', data: { number_type: 'NONE' } },
    ];
    for (const r of accepted) expect((await add({ ...r, type: 'NEW_NUMBERS' })).status, r.name).toBe(201);
    expect(await processed()).toEqual({
      range: { status: 'ERROR', error_code: 'INVALID_QUANTITY' },
      tollfree: { status: 'ERROR', error_code: 'INVALID_NPA' },
      words: { status: 'ERROR', error_code: 'INVALID_QUANTITY' },
      ok: { status: 'COMPLETED', error_code: 'OK' },
      none: { status: 'COMPLETED', error_code: 'OK' },
    });
    const tollFree = (await server().call('GET', '/api/v1/numbers?first=100')).body.results.filter((n: any) =>
      n.data.number.startsWith('+1888'),
    );
    expect(tollFree).toHaveLength(2);
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
    // a number of another account is found when the order runs, not here
    expect(
      (await server().call('PATCH', path, { body: envelope('request', { data: { numbers: ['+13125550209'] } }) }))
        .status,
    ).toBe(200);
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
