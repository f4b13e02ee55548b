/**
 * Every state the spec names can be produced from a test through the control API, and then used
 * (issue 15): manual request stages with the document rule, cancelled orders, scheduled and
 * aborted bulk dips, suspended users, a second shared resource group, stale fixture overwrite requests.
 */
import { describe, expect, it } from 'vitest';
import { startReceiver } from '../../src/testing/receiver.js';
import { expectConforms } from '../support/conformance.js';
import { envelope, onlyError, useServer } from '../support/helpers.js';

const pdf = () => new Blob([Buffer.from('%PDF-1.4\n%…\n')], { type: 'application/pdf' });

describe('every state reachable', () => {
  const server = useServer();
  const sim = (path: string, body?: unknown) => server().call('POST', `/__sim${path}`, { key: null, body });

  /** A checked-out cart with one request; answers the order and request ids. */
  async function submitted(type = 'REMOVE_MESSAGING_NUMBERS', data: unknown = { numbers: ['+13125550104'] }) {
    const cart = (
      await server().call('POST', '/api/v1/carts', { body: envelope('cart', { name: `c${Math.random()}` }) })
    ).body.data;
    const request = (
      await server().call('POST', `/api/v1/carts/${cart.id}/requests`, {
        body: envelope('request', { name: 'r', type, data }),
      })
    ).body.data;
    const order = (await server().call('POST', `/api/v1/carts/${cart.id}/checkout`)).body.data;
    return { orderId: order.id as string, requestId: request.id as string };
  }
  const request = async (id: string) => (await server().call('GET', `/api/v1/requests/${id}`)).body.data;
  const order = async (id: string) => (await server().call('GET', `/api/v1/orders/${id}`)).body.data;

  it('a request in REVIEW takes documents (the spec rule), holds its order, and goes on when moved back', async () => {
    const { orderId, requestId } = await submitted();
    await server().call('POST', '/__sim/clock/advance', { key: null, body: { by: 'PT10S' } }); // NEW → PROCESSING
    expect((await sim(`/requests/${requestId}/status`, { status: 'REVIEW' })).body.data.status).toBe('REVIEW');
    const form = new FormData();
    form.append('file', pdf(), 'loa.pdf');
    form.append('name', 'LOA');
    expect((await server().call('POST', `/api/v1/requests/${requestId}/documents`, { form })).status).toBe(201);
    await server().call('POST', '/__sim/clock/advance', { key: null, body: { by: 'PT1H' } });
    expect((await order(orderId)).status).toBe('PROCESSING'); // it waits for the request in review
    expect((await sim(`/requests/${requestId}/status`, { status: 'AUTHOR_REVIEW' })).status).toBe(200);
    const refused = await sim(`/requests/${requestId}/status`, { status: 'COMPLETED' });
    expect(refused.status).toBe(422);
    expect(onlyError(refused).detail).toContain('from AUTHOR_REVIEW it may move to REVIEW, PROCESSING, CANCELLED');
    expect((await sim(`/requests/${requestId}/status`, { status: 'PROCESSING' })).status).toBe(200);
    await server().call('POST', '/__sim/clock/advance', { key: null, body: { by: 'PT1M' } });
    expect(await request(requestId)).toMatchObject({ status: 'COMPLETED', error_code: 'OK' });
    expect((await order(orderId)).status).toBe('COMPLETED');
    expect((await server().call('GET', '/api/v1/numbers/+13125550104')).body.data.sms_enabled).toBe(false);
  });

  it('a request moved to ERROR fails its order with the given error_code', async () => {
    const { orderId, requestId } = await submitted();
    await server().call('POST', '/__sim/clock/advance', { key: null, body: { by: 'PT10S' } });
    await sim(`/requests/${requestId}/status`, { status: 'MANUAL' });
    const failed = await sim(`/requests/${requestId}/status`, { status: 'ERROR', error_code: 'LOA_REJECTED' });
    expect(failed.body.data).toMatchObject({ status: 'ERROR', error_code: 'LOA_REJECTED' });
    expect(await order(orderId)).toMatchObject({ status: 'ERROR', error_code: 'REQUEST_FAILED' });
  });

  it('an order is CANCELLED from NEW with its requests, and then nothing runs', async () => {
    const { orderId, requestId } = await submitted();
    const cancelled = await sim(`/orders/${orderId}/status`, { status: 'CANCELLED' });
    expect(cancelled.body).toMatchObject({ type: 'order', data: { status: 'CANCELLED' } });
    await server().call('POST', '/__sim/clock/advance', { key: null, body: { by: 'PT1H' } });
    expect((await order(orderId)).status).toBe('CANCELLED');
    expect((await request(requestId)).status).toBe('CANCELLED');
    expect((await server().call('GET', '/api/v1/numbers/+13125550104')).body.data.sms_enabled).toBe(true);
    expect((await sim(`/orders/${orderId}/status`, { status: 'PROCESSING' })).status).toBe(422);
  });

  it('a bulk dip is held SCHEDULED until its time, and another is ABORTED', async () => {
    const task = (n: string) =>
      server().call('POST', '/api/v1/bulk_dip_tasks', {
        body: envelope('bulk_dip_task', { type: 'CNAM', numbers: ['+13125550100'], reference_id: n }),
      });
    const held = (await task('held')).body.data;
    const until = '2026-03-01T18:00:00.000Z';
    expect((await sim(`/bulk_dip_tasks/${held.id}/schedule`, { until })).body.data.status).toBe('SCHEDULED');
    const aborted = (await task('aborted')).body.data;
    expect((await sim(`/bulk_dip_tasks/${aborted.id}/abort`)).body.data.status).toBe('ABORTED');
    await server().call('POST', '/__sim/clock/advance', { key: null, body: { by: 'PT1H' } });
    const get = async (id: string) => (await server().call('GET', `/api/v1/bulk_dip_tasks/${id}`)).body.data;
    expect((await get(held.id)).status).toBe('SCHEDULED');
    expect((await get(aborted.id)).status).toBe('ABORTED');
    await server().call('POST', '/__sim/clock/advance', { key: null, body: { to: '2026-03-01T18:01:00.000Z' } });
    expect((await get(held.id)).status).toBe('COMPLETED');
    expect((await sim(`/bulk_dip_tasks/${aborted.id}/abort`)).status).toBe(422);
  });

  it("a suspended user's key is refused for ordering but accepted for bulk dips; reinstated, it orders again", async () => {
    const operator = '0a0a0a0a-0000-4000-8000-000000000102';
    expect((await sim(`/users/${operator}/suspend`)).status).toBe(200);
    const cart = await server().call('POST', '/api/v1/carts', {
      key: 'demo-operator-key',
      body: envelope('cart', { name: 'suspended' }),
    });
    expect(cart.status).toBe(403);
    expect(onlyError(cart).code).toBe('access_denied.no_scope');
    const dip = await server().call('POST', '/api/v1/bulk_dip_tasks', {
      key: 'demo-operator-key',
      body: envelope('bulk_dip_task', { type: 'LRN', numbers: [], reference_id: 'while-suspended' }),
    });
    expect(dip.status).toBe(201);
    await sim(`/users/${operator}/reinstate`);
    expect(
      (
        await server().call('POST', '/api/v1/carts', {
          key: 'demo-operator-key',
          body: envelope('cart', { name: 'back' }),
        })
      ).status,
    ).toBe(201);
  });

  it('a second shared resource group makes the 409 on changing groups reachable', async () => {
    const campaign = '01KEAQ8JB0DEM0CAMPA1GN0001';
    const first = '0a0a0a0a-0000-4000-8000-000000000601';
    const share = (group: string) =>
      server().call('POST', `/api/v1/campaigns/${campaign}/share_with/shared_resource_groups/${group}`);
    expect((await share(first)).status).toBe(200);
    const second = await sim('/shared_resource_groups', { name: 'Second brand family' });
    expect(second.status).toBe(201);
    const conflict = await share(second.body.id);
    expect(conflict.status).toBe(409);
    expect(onlyError(conflict).code).toBe('conflict.changing_shared_resource_group');
  });

  it('fixture overwrite requests go STALE at expires_at like raised ones', async () => {
    const pending = (await server().call('GET', '/__sim/clock', { key: null })).body.pending;
    expect(pending.filter((s: { kind: string }) => s.kind === 'osr_expire')).toHaveLength(3);
    await server().call('POST', '/__sim/clock/advance', { key: null, body: { to: '2036-02-11T00:00:00.000Z' } });
    const list = (await server().call('GET', '/api/v1/osr/overwrite_requests')).body.results.map(
      (r: { data: { status: string } }) => r.data.status,
    );
    expect(list.sort()).toEqual(['NEW', 'NEW', 'STALE']);
  });
});

describe('registry requests have effects', () => {
  const server = useServer();

  async function order(requests: { name: string; type: string; data: unknown }[]) {
    const cart = (await server().call('POST', '/api/v1/carts', { body: envelope('cart', { name: 'registry' }) })).body
      .data;
    for (const r of requests)
      expect(
        (await server().call('POST', `/api/v1/carts/${cart.id}/requests`, { body: envelope('request', r) })).status,
      ).toBe(201);
    await server().call('POST', `/api/v1/carts/${cart.id}/checkout`);
    await server().call('POST', '/__sim/clock/advance', { key: null, body: { by: 'PT2M' } });
    const all = (await server().call('GET', '/api/v1/requests?first=100')).body.results;
    return Object.fromEntries(all.map((r: any) => [r.data.name, r.data]));
  }

  it('REGISTER_CAMPAIGN makes a PENDING campaign with a registry id that turns ACTIVE; UNREGISTER_CAMPAIGN ends it', async () => {
    const done = await order([
      {
        name: 'campaign',
        type: 'REGISTER_CAMPAIGN',
        data: {
          tcr_brand_id: 'BDEMO01',
          name: 'Loyalty',
          description: 'Points balance alerts for loyalty members.',
          use_case: 'LOYALTY',
          sample_messages: ['Demo Coffee: you have 120 points.'],
        },
      },
      {
        name: 'orphan',
        type: 'REGISTER_CAMPAIGN',
        data: { tcr_brand_id: 'BNOPE01', name: 'x', description: 'x', use_case: 'LOYALTY' },
      },
    ]);
    expect(done.campaign).toMatchObject({ status: 'COMPLETED' });
    expect(done.orphan).toMatchObject({ status: 'ERROR', error_code: 'BRAND_NOT_FOUND' });
    const campaigns = (await server().call('GET', '/api/v1/campaigns')).body.results.map((c: any) => c.data);
    const made = campaigns.find((c: any) => c.name === 'Loyalty');
    expect(made).toMatchObject({ tcr_status: 'PENDING', tcr_brand_id: 'BDEMO01', shared: 'OWNED' });
    expect(made.tcr_campaign_id).toMatch(/^C[A-Z0-9]{6}$/);
    await server().call('POST', '/__sim/clock/advance', { key: null, body: { by: 'PT1H' } });
    expect((await server().call('GET', `/api/v1/campaigns/${made.id}`)).body.data.tcr_status).toBe('ACTIVE');
    // the new campaign is usable by the other requests at once
    const again = await order([
      {
        name: 'numbers',
        type: 'ADD_CAMPAIGN_NUMBERS',
        data: { numbers: ['+13125550108'], tcr_campaign_id: made.tcr_campaign_id },
      },
      { name: 'end', type: 'UNREGISTER_CAMPAIGN', data: { tcr_campaign_id: made.tcr_campaign_id } },
    ]);
    expect(again.numbers.status).toBe('COMPLETED');
    expect(again.end.status).toBe('COMPLETED');
    expect((await server().call('GET', `/api/v1/campaigns/${made.id}`)).body.data.tcr_status).toBe('EXPIRED');
  });

  it('REGISTER_BRAND, VET_BRAND and UNREGISTER_BRAND send brand events with the record', async () => {
    const receiver = await startReceiver();
    try {
      await server().call('POST', '/api/v1/event_subscriptions', {
        body: envelope('event_subscription', { protocol: 'HTTP', data: `${receiver.url}/e`, topics: ['CSP_BRAND'] }),
      });
      await order([
        {
          name: 'brand',
          type: 'REGISTER_BRAND',
          data: {
            display_name: 'Demo Tea',
            company_name: 'Demo Tea LLC',
            entity_type: 'PRIVATE_PROFIT',
            country: 'US',
            email: 'brand@demo-tea.example',
          },
        },
        { name: 'vet', type: 'VET_BRAND', data: { tcr_brand_id: 'BDEMO01', vetting_class: 'ENHANCED' } },
      ]);
      await server().call('POST', '/__sim/clock/advance', { key: null, body: { by: 'PT1H' } });
      expect(receiver.received, 'something to check').not.toHaveLength(0);
      for (const r of receiver.received) expectConforms('event_delivery', r.json());
      const events = receiver.received.map((r) => r.json().data);
      const kinds = events.map((e: any) => `${e.kind}:${e.resource.data.tcr_brand_id}:${e.resource.data.tcr_status}`);
      const registered = events.find((e: any) => e.kind === 'brand.registered');
      expect(registered.resource.type).toBe('csp_brand');
      const id = registered.resource.data.tcr_brand_id;
      expect(id).toMatch(/^B[A-Z0-9]{6}$/);
      expect(kinds).toEqual(
        expect.arrayContaining([
          `brand.registered:${id}:PENDING`,
          'brand.vetted:BDEMO01:ACTIVE',
          `brand.activated:${id}:ACTIVE`,
        ]),
      );
      expect(events.find((e: any) => e.kind === 'brand.vetted').resource.data.vetting_class).toBe('ENHANCED');
    } finally {
      await receiver.close();
    }
  });
});
