/** One record of each kind in the Demo account, and the path parameter values that name them. */
import { envelope, PARTNER, type TestServer } from '../support/helpers.js';

export async function seedRecords(s: TestServer): Promise<Record<string, string>> {
  const post = async (path: string, type: string, data: unknown, key?: string) =>
    (await s.call('POST', path, { body: envelope(type, data), key })).body.data;
  const sw = await post('/api/v1/switches', 'switch', { name: 'fuzz' });
  const ar = await post('/api/v1/auto_responses', 'messaging_auto_response', {
    name: 'fuzz',
    keywords: [{ keyword: 'HI' }],
  });
  const sk = await post('/api/v1/secret_keys', 'secret_key', { name: 'fuzz', size: 32, usage: 'ENCRYPTION' });
  const user = await post('/api/v1/users', 'user', { email: 'fuzz@demo-telecom.example' });
  const optout = await post('/api/v1/numbers/+13125550100/optout_items', 'number_optout_item', {
    remote_number: '+14155550123',
  });
  const dest = await post('/api/v1/numbers/+13125550100/destinations', 'number_destination', {
    type: 'TTS',
    destination: 'BUSY',
  });
  const cart = await post('/api/v1/carts', 'cart', { name: 'fuzz cart' });
  const req = await post(`/api/v1/carts/${cart.id}/requests`, 'request', {
    type: 'REMOVE_NUMBERS',
    data: { numbers: ['+13125550109'] },
  });
  const form = new FormData();
  form.append('file', new Blob(['%PDF-1.7 fuzz'], { type: 'application/pdf' }), 'f.pdf');
  form.append('name', 'fuzz doc');
  const doc = (await s.call('POST', `/api/v1/carts/${cart.id}/requests/${req.id}/documents`, { form })).body.data;
  const order = await post('/api/v1/carts', 'cart', { name: 'fuzz order' });
  const submitted = await post(`/api/v1/carts/${order.id}/requests`, 'request', {
    type: 'REMOVE_NUMBERS',
    data: { numbers: ['+13125550108'] },
  });
  await s.call('POST', `/api/v1/carts/${order.id}/checkout`);
  const dip = await post('/api/v1/bulk_dip_tasks', 'bulk_dip_task', {
    type: 'LRN',
    numbers: ['+13125550100'],
    reference_id: 'fuzz',
  });
  const cdr = await post('/api/v1/call_data_webhooks', 'call_data_webhook', { name: 'fuzz', protocol: 'NONE' });
  const sub = await post('/api/v1/event_subscriptions', 'event_subscription', {
    name: 'fuzz',
    protocol: 'NONE',
    topics: ['NONE'],
  });
  return {
    '/api/v1/api_keys/{id}': '0a0a0a0a-0000-4000-8000-000000000303',
    '/api/v1/secret_keys/{id}': sk.id,
    '/api/v1/users/{id}': user.id,
    '/api/v1/switches/{id}': sw.id,
    switch_id: sw.id,
    '/api/v1/switches/{switch_id}/mms_encryption_key/{id}': sk.id,
    number_id: '+13125550100',
    '/api/v1/auto_responses/{id}': ar.id,
    '/api/v1/optout_items/{id}': optout.id,
    '/api/v1/numbers/{number_id}/destinations/{id}': dest.id,
    '/api/v1/carts/{id}': cart.id,
    cart_id: cart.id,
    '/api/v1/carts/{cart_id}/requests/{id}': req.id,
    request_id: req.id,
    '/api/v1/carts/{cart_id}/requests/{request_id}/documents/{id}': doc.id,
    '/api/v1/orders/{id}': order.id,
    '/api/v1/requests/{id}': submitted.id,
    '/api/v1/requests/{request_id}/documents/{id}': doc.id,
    campaign_id: '01KEAQ8JB0DEM0CAMPA1GN0001',
    account_id: PARTNER,
    shared_resource_group_id: '0a0a0a0a-0000-4000-8000-000000000601',
    '/api/v1/bulk_dip_tasks/{id}': dip.id,
    '/api/v1/call_data_webhooks/{id}': cdr.id,
    '/api/v1/event_subscriptions/{id}': sub.id,
    '/api/v1/osr/overwrite_requests/{id}': '01KEB0R5R0VERWR1TE00000001',
    overwrite_request_id: '01KEB0R5R0VERWR1TE00000002',
  };
}
