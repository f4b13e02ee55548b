import { describe, expect, it } from 'vitest';
import { envelope, useServer, useReceiver } from '../support/helpers.js';
import { expectConforms } from '../support/conformance.js';

describe('order lifecycle', () => {
  const server = useServer();
  const receiver = useReceiver();

  const subscribe = (topics: string[]) =>
    server().call('POST', '/api/v1/event_subscriptions', {
      body: envelope('event_subscription', {
        name: 'events',
        protocol: 'HTTP',
        data: `${receiver().url}/events`,
        topics,
        auth_method: 'BASIC',
        auth_identity: 'hook',
        auth_secret: 'hook-pw',
        custom_headers: [{ key: 'X-Tenant', value: 'demo' }],
        custom_query_params: [{ key: 'src', value: 'sim' }],
      }),
    });
  async function order(requests: Record<string, unknown>[]): Promise<{ id: string; requestIds: string[] }> {
    const id = (
      await server().call('POST', '/api/v1/carts', { body: envelope('cart', { name: `cart ${Math.random()}` }) })
    ).body.data.id;
    const requestIds: string[] = [];
    for (const r of requests)
      requestIds.push(
        (await server().call('POST', `/api/v1/carts/${id}/requests`, { body: envelope('request', r) })).body.data.id,
      );
    await server().call('POST', `/api/v1/carts/${id}/checkout`);
    // the events go out after the answer; advancing by nothing waits for them
    await server().settle();
    return { id, requestIds };
  }
  const advance = (by: string) => server().call('POST', '/__sim/clock/advance', { key: null, body: { by } });
  const get = async (path: string) => (await server().call('GET', path)).body.data;
  const events = () => receiver().received.map((r) => r.json().data);

  it('NEW → PROCESSING → COMPLETED, with events to the subscription (auth, headers, query)', async () => {
    await subscribe(['ORDER', 'REQUEST']);
    const { id, requestIds } = await order([
      {
        name: 'campaign',
        type: 'ADD_CAMPAIGN_NUMBERS',
        data: { numbers: ['+13125550100'], tcr_campaign_id: 'CDEMO01' },
      },
    ]);
    expect(events().map((e) => e.kind)).toEqual(['order.created']);
    const first = receiver().received[0]!;
    expect(first.headers.authorization).toBe(`Basic ${Buffer.from('hook:hook-pw').toString('base64')}`);
    expect(first.headers['x-tenant']).toBe('demo');
    expect(first.query.get('src')).toBe('sim');
    expect(first.json()).toMatchObject({
      type: 'event',
      data: { topic: 'ORDER', kind: 'order.created', resource: { type: 'order', data: { id, status: 'NEW' } } },
    });
    await advance('PT5S');
    expect((await get(`/api/v1/orders/${id}`)).status).toBe('PROCESSING');
    expect((await get(`/api/v1/requests/${requestIds[0]}`)).status).toBe('PROCESSING');
    await advance('PT35S');
    expect(await get(`/api/v1/orders/${id}`)).toMatchObject({ status: 'COMPLETED', error_code: 'OK' });
    expect(await get(`/api/v1/requests/${requestIds[0]}`)).toMatchObject({ status: 'COMPLETED', error_code: 'OK' });
    expect(events().map((e) => e.kind)).toEqual([
      'order.created',
      'request.updated',
      'order.updated',
      'request.completed',
      'order.completed',
    ]);
    for (const r of receiver().received) expectConforms('event_delivery', r.json());
    expect((await server().call('GET', '/api/v1/numbers/+13125550100')).body.associations.campaign).toEqual({
      id: '01KEAQ8JB0DEM0CAMPA1GN0001',
      tcr_campaign_id: 'CDEMO01',
    });
  });

  it('NEW_NUMBERS adds quantity numbers in the NPA and state asked; DID events announce them', async () => {
    await subscribe(['DID']);
    await order([
      {
        type: 'NEW_NUMBERS',
        data: { npa: '415', state: 'CA', rate_center: 'SAN FRANCISCO', number_type: 'TENDLC', quantity: '3' },
      },
    ]);
    await advance('PT1M');
    const list = (await server().call('GET', '/api/v1/numbers?first=100')).body.results.map((r: any) => r.data);
    const added = list.filter((n: any) => n.number.startsWith('+1415'));
    expect(added).toHaveLength(3);
    expect(added[0]).toMatchObject({ state: 'CA', rate_center: 'SAN FRANCISCO' });
    expect(events().filter((e) => e.kind === 'did.created')).toHaveLength(3);
    for (const r of receiver().received) expectConforms('event_delivery', r.json());
  });

  it('REMOVE_NUMBERS removes them; messaging and voice requests change the numbers', async () => {
    await order([
      { type: 'REMOVE_NUMBERS', data: { numbers: ['+13125550109'] } },
      { type: 'REMOVE_VOICE_NUMBERS', data: { numbers: ['+13125550108'] } },
      { type: 'REMOVE_MESSAGING_NUMBERS', data: { numbers: ['+13125550107'] } },
    ]);
    await advance('PT1M');
    expect((await server().call('GET', '/api/v1/numbers/+13125550109')).status).toBe(404);
    expect((await get('/api/v1/numbers/+13125550108')).voice_enabled).toBe(false);
    expect((await get('/api/v1/numbers/+13125550107')).sms_enabled).toBe(false);
  });

  it('a request naming a number that vanished meanwhile ends ERROR, and the order with it', async () => {
    const first = await order([{ type: 'REMOVE_NUMBERS', data: { numbers: ['+13125550105'] } }]);
    const second = await order([{ type: 'ADD_VOICE_NUMBERS', data: { numbers: ['+13125550105'] } }]);
    await advance('PT1M');
    expect((await get(`/api/v1/orders/${first.id}`)).status).toBe('COMPLETED');
    expect(await get(`/api/v1/requests/${second.requestIds[0]}`)).toMatchObject({
      status: 'ERROR',
      error_code: 'NUMBER_NOT_FOUND',
    });
    expect(await get(`/api/v1/orders/${second.id}`)).toMatchObject({ status: 'ERROR', error_code: 'REQUEST_FAILED' });
  });

  it('a request whose name starts fail- ends ERROR', async () => {
    const { id, requestIds } = await order([
      { name: 'fail-please', type: 'UNREGISTER_CAMPAIGN', data: { tcr_campaign_id: 'CDEMO01' } },
    ]);
    await advance('PT1M');
    expect((await get(`/api/v1/requests/${requestIds[0]}`)).status).toBe('ERROR');
    expect((await get(`/api/v1/orders/${id}`)).status).toBe('ERROR');
  });

  it('a disabled subscription, or one without the topic, gets nothing', async () => {
    const sub = (await subscribe(['DID'])).body.data;
    await order([{ type: 'UNREGISTER_CAMPAIGN', data: { tcr_campaign_id: 'CDEMO01' } }]);
    await server().call('PATCH', `/api/v1/event_subscriptions/${sub.id}`, {
      body: envelope('event_subscription', { enabled: false }),
    });
    await server().call('PATCH', '/api/v1/numbers/+13125550101', {
      body: envelope('did', { auto_response_id: null }),
    });
    await advance('PT1M');
    expect(receiver().received).toHaveLength(0);
  });
});

describe('OSR lifecycle', () => {
  const server = useServer();

  it('a raised request is NEW; unreviewed past expires_at it becomes STALE', async () => {
    const raised = await server().call('POST', '/__sim/osr/overwrite_requests', {
      key: null,
      body: { number: '+13125550104', service_provider: 'Tailspin Texting (NNID 112233)' },
    });
    expect(raised.status).toBe(201);
    const { id, expires_at } = raised.body.data;
    expect(raised.body.data).toMatchObject({
      tn: '+13125550104',
      status: 'NEW',
      review_status: 'NONE',
      is_stale: false,
    });
    const got = await server().call('GET', `/api/v1/osr/overwrite_requests/${id}`);
    expect(got.body.associations.new_nnid_entry).toEqual({ service_provider: 'Tailspin Texting (NNID 112233)' });
    const res = await server().call('POST', '/__sim/clock/advance', { key: null, body: { to: expires_at } });
    expect(res.body.fired).toEqual([
      expect.objectContaining({ kind: 'osr_expire', what: 'overwrite request NEW → STALE' }),
    ]);
    expect((await server().call('GET', `/api/v1/osr/overwrite_requests/${id}`)).body.data).toMatchObject({
      status: 'STALE',
      is_stale: true,
    });
  });

  it('a reviewed request does not go stale', async () => {
    const { id } = (
      await server().call('POST', '/__sim/osr/overwrite_requests', { key: null, body: { number: '13125550104' } })
    ).body.data;
    await server().call('POST', `/api/v1/osr/overwrite_requests/${id}/review`, {
      body: envelope('osr_overwrite_request', { review_status: 'REJECTED' }),
    });
    await server().call('POST', '/__sim/clock/advance', { key: null, body: { by: 'P8D' } });
    expect((await server().call('GET', `/api/v1/osr/overwrite_requests/${id}`)).body.data.status).toBe('REJECTED');
  });

  it("only the account's own numbers", async () => {
    const res = await server().call('POST', '/__sim/osr/overwrite_requests', {
      key: null,
      body: { number: '+13125550200' },
    });
    expect(res.status).toBe(422);
    expect(res.body.errors[0].source.pointer).toBe('/number');
  });
});
