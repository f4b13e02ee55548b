/**
 * Where the spec says "not shown", the provider's public client is the evidence (interface.md
 * section 9): its envelope types, record fields and operations.
 */
import { describe, expect, it } from 'vitest';
import { envelope, useServer } from '../support/helpers.js';

describe("the provider's client as evidence", () => {
  const server = useServer();

  it('a number is a `did` with the fields the client reads, and is updated with envelope type `did`', async () => {
    const got = await server().call('GET', '/api/v1/numbers/+13125550100');
    expect(got.body.type).toBe('did');
    expect(got.body.data).toMatchObject({
      number: '+13125550100',
      activated: true,
      sms_enabled: true,
      mms_enabled: true,
      voice_enabled: true,
      description: null,
      segment_overrides: [],
    });
    expect(got.body.data).not.toHaveProperty('messaging_enabled');
    const patched = await server().call('PATCH', '/api/v1/numbers/13125550100', {
      body: envelope('did', { description: 'front desk', sms_enabled: false, segment_threshold: 3 }),
    });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({
      type: 'did',
      data: { description: 'front desk', sms_enabled: false, mms_enabled: true, segment_threshold: 3 },
    });
    const old = await server().call('PATCH', '/api/v1/numbers/13125550100', {
      body: envelope('number', { description: 'x' }),
    });
    expect(old.body.errors[0]).toMatchObject({ code: 'invalid_parameter', source: { pointer: '/type' } });
  });

  it('PATCH /orders/{id} changes name and notes', async () => {
    const cart = (await server().call('POST', '/api/v1/carts', { body: envelope('cart', { name: 'evidence' }) })).body
      .data;
    await server().call('POST', `/api/v1/carts/${cart.id}/requests`, {
      body: envelope('request', { name: 'r', type: 'REMOVE_MESSAGING_NUMBERS', data: { numbers: ['+13125550104'] } }),
    });
    const order = (await server().call('POST', `/api/v1/carts/${cart.id}/checkout`)).body.data;
    const patched = await server().call('PATCH', `/api/v1/orders/${order.id}`, {
      body: envelope('order', { name: 'renamed', notes: 'for the auditors' }),
    });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({
      type: 'order',
      data: { id: order.id, name: 'renamed', notes: 'for the auditors' },
    });
    expect(
      (await server().call('PATCH', `/api/v1/orders/${order.id}`, { body: envelope('order', { status: 'CANCELLED' }) }))
        .status,
    ).toBe(404);
  });

  it('GET /requests lists submitted requests; PATCH /requests/{id} changes data only while the status allows', async () => {
    const cart = (await server().call('POST', '/api/v1/carts', { body: envelope('cart', { name: 'evidence' }) })).body
      .data;
    const added = await server().call('POST', `/api/v1/carts/${cart.id}/requests`, {
      body: envelope('request', { name: 'r', type: 'REMOVE_MESSAGING_NUMBERS', data: { numbers: ['+13125550104'] } }),
    });
    expect((await server().call('GET', '/api/v1/requests')).body.count).toBe(0); // a cart request is not submitted
    await server().call('POST', `/api/v1/carts/${cart.id}/checkout`);
    const listed = await server().call('GET', '/api/v1/requests');
    expect(listed.body.count).toBe(1);
    expect(listed.body.results[0]).toMatchObject({ type: 'request', data: { id: added.body.data.id, status: 'NEW' } });
    const path = `/api/v1/requests/${added.body.data.id}`;
    const changed = await server().call('PATCH', path, {
      body: envelope('request', { notes: 'one more', data: { numbers: ['+13125550104', '+13125550105'] } }),
    });
    expect(changed.status).toBe(200);
    expect(changed.body.data).toMatchObject({ notes: 'one more', data: { numbers: ['+13125550104', '+13125550105'] } });
    await server().call('POST', '/__sim/clock/advance', { key: null, body: { by: 'PT1H' } });
    const done = await server().call('PATCH', path, {
      body: envelope('request', { data: { numbers: ['+13125550106'] } }),
    });
    expect(done.status).toBe(404); // interface.md section 4: invalid_parameter is 404 outside the 422 resources
    expect(done.body.errors[0].source.pointer).toBe('/data/data');
    expect((await server().call('PATCH', path, { body: envelope('request', { name: 'kept' }) })).body.data.name).toBe(
      'kept',
    );
  });
});
