import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { parseRouteReply } from '../../src/simulation/inbound/calls.js';
import { envelope, useServer, useReceiver } from '../support/helpers.js';
import { expectConforms } from '../support/conformance.js';

describe('inbound SMS', () => {
  const server = useServer();
  const receiver = useReceiver();

  const sms = (text: string, from = '+14155550123', to = '+13125550100') =>
    server().call('POST', '/__sim/inbound/sms', { key: null, body: { to, from, text } });
  async function route(switchFields: Record<string, unknown>, keywords?: unknown[]): Promise<void> {
    const sw = (
      await server().call('POST', '/api/v1/switches', {
        body: envelope('switch', { name: 'inbound', sms_enabled: true, ...switchFields }),
      })
    ).body.data;
    const binding: Record<string, unknown> = { switch_id: sw.id };
    if (keywords)
      binding.auto_response_id = (
        await server().call('POST', '/api/v1/auto_responses', {
          body: envelope('messaging_auto_response', { name: 'ar', keywords }),
        })
      ).body.data.id;
    await server().call('PATCH', '/api/v1/numbers/+13125550100', { body: envelope('did', binding) });
  }

  it('SERVICE_CHAT puts the message in the platform chat inbox: the delivery log, method CHAT', async () => {
    await route({ sms_protocol: 'SERVICE_CHAT', sms_data: 'UNUSED' });
    const res = await sms('chat with us');
    expect(res.body.trace.at(-1)).toMatchObject({ step: 'service_chat' });
    const log = (await server().call('GET', '/__sim/deliveries?kind=sms', { key: null })).body.deliveries;
    expect(log[0]).toMatchObject({ method: 'CHAT', target: 'chat://platform', outcome: 'delivered' });
    expect(JSON.parse(log[0].body)).toMatchObject({
      type: 'sms',
      data: { text: 'chat with us', id: res.body.message.id },
    });
    expect(receiver().received).toHaveLength(0);
  });

  it("a switch with BASIC auth but no identity delivers without credentials; the receiver's 401 and the reason are logged", async () => {
    receiver().replies.push({ status: 401 });
    await route({
      sms_protocol: 'HTTP',
      sms_data: `${receiver().url}/sms`,
      sms_auth_method: 'BASIC',
      sms_secret: 'pw',
    });
    await sms('hello');
    await server().settle();
    expect(receiver().received[0]?.headers.authorization).toBeUndefined();
    const log = (await server().call('GET', '/__sim/deliveries?kind=sms', { key: null })).body.deliveries;
    expect(log[0].note).toBe('sms_auth_method BASIC has no identity: sent without credentials');
    expect(log[0].attempts[0]).toMatchObject({ status: 401, error: 'answered 401' });
  });

  it('HTTP delivery in SMSFMT_JSON_1_0 with the HMAC_SHA256 signature of the exact body', async () => {
    await route({
      sms_protocol: 'HTTP',
      sms_data: `${receiver().url}/sms`,
      sms_auth_method: 'HMAC_SHA256',
      sms_secret: 'sign-me',
    });
    const res = await sms('Hello there');
    expect(res.status).toBe(200);
    expect(res.body.trace.map((t: any) => t.step)).toEqual(['received', 'switch_http']);
    const got = receiver().received[0]!;
    expect(got.json()).toEqual({
      type: 'sms',
      data: {
        id: res.body.message.id,
        from: '+14155550123',
        to: '+13125550100',
        text: 'Hello there',
        received_at: '2026-03-01T12:00:00.000Z',
      },
    });
    expectConforms('message_delivery', got.json());
    const hex = createHmac('sha256', 'sign-me').update(got.body).digest('hex');
    expect(got.headers.authorization).toBe(`SERVICE0-HMAC-SHA256 ${hex}`);
  });

  it('the POST formats send the same fields form-encoded, with BASIC auth', async () => {
    await route({
      sms_protocol: 'HTTP',
      sms_data: `${receiver().url}/form`,
      sms_message_format: 'SMSFMT_POST_1_0',
      sms_auth_method: 'BASIC',
      sms_identity: 'u',
      sms_secret: 'p',
    });
    await sms('Hi');
    const got = receiver().received[0]!;
    expect(got.headers['content-type']).toBe('application/x-www-form-urlencoded');
    expect(Object.fromEntries(new URLSearchParams(got.text))).toMatchObject({
      from: '+14155550123',
      to: '+13125550100',
      text: 'Hi',
    });
    expectConforms('message_fields', Object.fromEntries(new URLSearchParams(got.text)));
    expect(got.headers.authorization).toBe(`Basic ${Buffer.from('u:p').toString('base64')}`);
  });

  it('an auto response answers by keyword, case-insensitively, the wildcard for the rest; intercept stops forwarding', async () => {
    await route({ sms_protocol: 'HTTP', sms_data: `${receiver().url}/sms` }, [
      { keyword: 'HOURS', message: 'Open 7am-7pm.', intercept: true },
      { is_wildcard: true, message: 'We got your message.' },
    ]);
    const hours = await sms('hours');
    expect(hours.body.outbound).toEqual([expect.objectContaining({ to: '+14155550123', text: 'Open 7am-7pm.' })]);
    expect(hours.body.trace.map((t: any) => t.step)).toEqual(['received', 'auto_reply', 'intercepted']);
    expect(receiver().received).toHaveLength(0);
    const other = await sms('is the patio open?');
    expect(other.body.outbound[0].text).toBe('We got your message.');
    expect(receiver().received).toHaveLength(1);
  });

  it('STOP creates an opt-out item with the keyword and the message; afterwards no auto reply, still delivered', async () => {
    await route({ sms_protocol: 'HTTP', sms_data: `${receiver().url}/sms` }, [
      { is_wildcard: true, message: 'Thanks!' },
    ]);
    const stop = await sms('Stop');
    const optout = stop.body.trace.find((t: any) => t.step === 'opt_out');
    const item = await server().call('GET', `/api/v1/optout_items/${optout.optout_item_id}`);
    expect(item.body.data).toMatchObject({
      keyword: 'STOP',
      remote_number: '+14155550123',
      host_number: '+13125550100',
    });
    expect(item.body.associations.sms).toEqual({ id: stop.body.message.id });
    const later = await sms('hello again');
    expect(later.body.outbound).toEqual([]);
    expect(later.body.trace.map((t: any) => t.step)).toContain('auto_reply_suppressed');
    expect(receiver().received).toHaveLength(2);
  });

  it('FORWARD makes a new outbound message; NONE discards; no switch discards', async () => {
    await route({ sms_protocol: 'FORWARD', sms_data: '13125550177' });
    expect((await sms('fwd')).body.outbound).toEqual([expect.objectContaining({ to: '+13125550177', text: 'fwd' })]);
    const none = await sms('x', '+14155550123', '+13125550101');
    expect(none.body.trace.at(-1)).toMatchObject({ step: 'discarded' });
  });

  it('pad_shortcodes pads a short code sender; dlr_on_sent sends a receipt back', async () => {
    await route({
      sms_protocol: 'HTTP',
      sms_data: `${receiver().url}/sms`,
      sms_options: { pad_shortcodes: true, dlr_on_sent: true },
    });
    const res = await sms('from a short code', '12345');
    expect(receiver().received[0]!.json().data.from).toBe('00000012345');
    expect(res.body.trace.map((t: any) => t.step)).toContain('dlr');
    expect(res.body.outbound[0].to).toBe('12345');
  });

  it('forward_dlr stops delivery receipts from reaching the switch; other messages still go', async () => {
    await route({ sms_protocol: 'HTTP', sms_data: `${receiver().url}/sms`, sms_options: { forward_dlr: true } });
    const dlr = await sms(
      'id:0123456789 sub:001 dlvrd:001 submit date:2603011200 done date:2603011201 stat:DELIVRD err:000 text:hello',
    );
    expect(dlr.body.trace.at(-1).step).toBe('dlr_dropped');
    expect(receiver().received).toHaveLength(0);
    await sms('a normal message');
    expect(receiver().received).toHaveLength(1);
  });

  it('each inbound SMS produces a CDR for the call data webhook', async () => {
    await server().call('POST', '/api/v1/call_data_webhooks', {
      body: envelope('call_data_webhook', {
        name: 'cdr',
        protocol: 'HTTP',
        data: `${receiver().url}/cdr`,
        auth_method: 'BEARER',
        auth_secret: 'c',
      }),
    });
    await sms('billable');
    const cdr = receiver().received.find((r) => r.path === '/cdr')!;
    expect(cdr.headers.authorization).toBe('Bearer c');
    expectConforms('cdr_delivery', cdr.json());
    expect(cdr.json()).toMatchObject({
      type: 'cdr',
      data: { kind: 'SMS', from: '+14155550123', to: '+13125550100', billed_at: '2026-03-01T12:00:00.000Z' },
    });
  });

  it('a number of another account is refused', async () => {
    const res = await sms('x', '+14155550123', '+13125550200');
    expect(res.status).toBe(422);
  });
});

describe('inbound calls', () => {
  const server = useServer();
  const receiver = useReceiver();

  const call = () =>
    server().call('POST', '/__sim/inbound/call', { key: null, body: { to: '+13125550106', from: '+14155550123' } });
  const dest = (data: Record<string, unknown>) =>
    server().call('POST', '/api/v1/numbers/+13125550106/destinations', { body: envelope('number_destination', data) });

  it('destinations are tried by priority; an HTTP route callback is a GET with a JSON body and the Accept header', async () => {
    await dest({ type: 'PSTN', destination: '+13125550177', priority: 5 });
    await dest({
      type: 'HTTP_ROUTE',
      destination: `${receiver().url}/route`,
      priority: 1,
      auth_method: 'BEARER',
      auth_secret: 'r',
    });
    receiver().replies.push({ contentType: 'text/plain', body: 'VOIP:1001@pbx.example.com' });
    const res = await call();
    const got = receiver().received[0]!;
    expect(got.method).toBe('GET');
    expect(got.headers.accept).toBe('application/json, text/plain');
    expect(got.headers.authorization).toBe('Bearer r');
    expectConforms('route_callback', got.json());
    expect(got.json()).toEqual({
      id: res.body.call.id,
      inserted_at: '2026-03-01T12:00:00.000Z',
      from: '+14155550123',
      to: '+13125550106',
      direction: 'INCOMING',
    });
    expect(res.body.decision).toMatchObject({ type: 'VOIP', data: '1001@pbx.example.com', source: 'destination' });
  });

  it('SKIP, a non-200, a JSON reply of another root type, or another content type go to the next destination', async () => {
    await dest({ type: 'HTTP_ROUTE', destination: `${receiver().url}/r1`, priority: 1 });
    await dest({ type: 'HTTP_ROUTE', destination: `${receiver().url}/r2`, priority: 2 });
    await dest({ type: 'HTTP_ROUTE', destination: `${receiver().url}/r3`, priority: 3 });
    await dest({ type: 'HTTP_ROUTE', destination: `${receiver().url}/r4`, priority: 4 });
    await dest({ type: 'TTS_CUSTOM', destination: 'Sorry, we are closed.', priority: 9 });
    receiver().replies.push(
      { contentType: 'text/plain', body: 'SKIP:' },
      { status: 500 },
      { body: JSON.stringify({ type: 'other', data: { type: 'VOIP', data: 'x@y' } }) },
      { contentType: 'text/html', body: 'VOIP:x@y' },
    );
    const res = await call();
    expect(receiver().received.map((r) => r.path)).toEqual(['/r1', '/r2', '/r3', '/r4']);
    expect(res.body.decision).toMatchObject({ type: 'TTS_CUSTOM', data: 'Sorry, we are closed.' });
    expect(res.body.charges).toEqual(['TTS_CUSTOM: 21 characters']);
  });

  it('a JSON http_route_response is followed; PSTN charges both legs', async () => {
    await dest({ type: 'HTTP_ROUTE', destination: `${receiver().url}/json`, priority: 1 });
    receiver().replies.push({
      body: JSON.stringify({ type: 'http_route_response', data: { type: 'PSTN', data: '+13125550188' } }),
    });
    const res = await call();
    expect(res.body.decision).toMatchObject({ type: 'PSTN', data: '+13125550188' });
    expect(res.body.charges[0]).toContain('incoming and outgoing leg');
  });

  it("the switch's voice settings are the fallback; without them the call is unrouted", async () => {
    await dest({ type: 'VOIP', destination: 'busy@pbx.example.com' });
    expect((await call()).body.decision).toMatchObject({ type: 'NONE', source: 'none' });
    const sw = (
      await server().call('POST', '/api/v1/switches', {
        body: envelope('switch', { name: 'voice', voice_enabled: true, voice_protocol: 'TTS', voice_data: 'BUSY' }),
      })
    ).body.data;
    await server().call('PATCH', '/api/v1/numbers/+13125550106', { body: envelope('did', { switch_id: sw.id }) });
    expect((await call()).body.decision).toMatchObject({ type: 'TTS', data: 'BUSY', source: 'switch' });
  });

  it('deactivated destinations are not tried', async () => {
    await dest({ type: 'TTS', destination: 'CONGESTION', activated: false, priority: 1 });
    await dest({ type: 'TTS', destination: 'BUSY', priority: 2 });
    expect((await call()).body.decision.data).toBe('BUSY');
  });

  it('reply parsing follows the spec', () => {
    expect(parseRouteReply(200, 'text/plain; charset=utf-8', 'TTS:BUSY')).toEqual({ type: 'TTS', data: 'BUSY' });
    expect(parseRouteReply(404, 'text/plain', 'TTS:BUSY').type).toBe('SKIP');
    expect(parseRouteReply(200, 'application/xml', '<x/>').type).toBe('SKIP');
    expect(parseRouteReply(200, 'application/json', 'not json').type).toBe('SKIP');
  });
});
