import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { buildServer, listen } from '../../src/server.js';
import { startReceiver, type Receiver } from '../../src/testing/receiver.js';
import { envelope, callAt } from '../support/helpers.js';

async function server(opts: { simAdminToken?: string; outboundAllow?: string[] } = {}) {
  const lines: string[] = [];
  const logger = { info: (m: string) => lines.push(m), warn: (m: string) => lines.push(m) };
  const { app, runtime } = await buildServer({
    store: { memory: true },
    seed: 11,
    clockMode: 'frozen',
    startTime: new Date('2026-03-01T12:00:00.000Z'),
    logger,
    validateResponses: true,
    ...opts,
  });
  const http = await listen(app, 0, '127.0.0.1');
  const base = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
  const call = (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) =>
    callAt(base, method, path, { body, headers });
  return {
    app,
    runtime,
    base,
    call,
    lines,
    close: async () => {
      await new Promise<void>((r) => http.close(() => r()));
      await runtime.close();
    },
  };
}

describe('secret hygiene', () => {
  let receiver: Receiver;
  afterEach(() => receiver?.close());

  it('no secret the test created appears in any later GET or list, the journal, the delivery log or the log output', async () => {
    receiver = await startReceiver();
    const s = await server();
    const secrets: string[] = [];
    const key = (await s.call('POST', '/api/v1/api_keys', envelope('api_key', { name: 'hygiene' }))).body.data;
    secrets.push(key.secret, key.smpp_secert);
    secrets.push(
      (
        await s.call(
          'POST',
          '/api/v1/secret_keys',
          envelope('secret_key', { name: 'hygiene', size: 32, usage: 'SIGNING' }),
        )
      ).body.data.data,
    );
    secrets.push('correct horse battery staple');
    await s.call(
      'POST',
      '/api/v1/users',
      envelope('user', {
        email: 'h@demo-telecom.example',
        password: secrets.at(-1),
        password_confirmation: secrets.at(-1),
      }),
    );
    const sw = (
      await s.call(
        'POST',
        '/api/v1/switches',
        envelope('switch', {
          name: 'hygiene',
          sms_enabled: true,
          sms_protocol: 'HTTP',
          sms_data: `${receiver.url}/sms`,
          sms_auth_method: 'HMAC_SHA256',
          sms_secret: 'sms-secret-1',
          mms_secret: 'mms-secret-1',
          voice_secret: 'voice-secret-1',
        }),
      )
    ).body.data;
    secrets.push('sms-secret-1', 'mms-secret-1', 'voice-secret-1');
    await s.call(
      'POST',
      '/api/v1/call_data_webhooks',
      envelope('call_data_webhook', {
        name: 'h',
        protocol: 'HTTP',
        data: `${receiver.url}/cdr`,
        auth_method: 'BEARER',
        auth_secret: 'cdr-secret-1',
      }),
    );
    await s.call(
      'POST',
      '/api/v1/event_subscriptions',
      envelope('event_subscription', {
        name: 'h',
        protocol: 'HTTP',
        data: `${receiver.url}/ev`,
        topics: ['DID'],
        auth_method: 'BASIC',
        auth_identity: 'u',
        auth_secret: 'event-secret-1',
      }),
    );
    await s.call(
      'POST',
      '/api/v1/numbers/+13125550100/destinations',
      envelope('number_destination', {
        type: 'HTTP_ROUTE',
        destination: `${receiver.url}/route`,
        auth_method: 'BEARER',
        auth_secret: 'route-secret-1',
      }),
    );
    await s.call(
      'POST',
      '/api/v1/bulk_dip_tasks',
      envelope('bulk_dip_task', {
        type: 'CNAM',
        numbers: ['+13125550100'],
        reference_id: 'h',
        on_done_actions: [
          { protocol: 'HTTP', data: `${receiver.url}/dip`, auth_method: 'BEARER', auth_secret: 'dip-secret-1' },
        ],
      }),
    );
    secrets.push('cdr-secret-1', 'event-secret-1', 'route-secret-1', 'dip-secret-1');
    await s.call('PATCH', '/api/v1/numbers/+13125550100', envelope('did', { switch_id: sw.id }));
    await s.call('POST', '/__sim/inbound/sms', { to: '+13125550100', from: '+14155550123', text: 'hi' });
    await s.call('POST', '/__sim/inbound/call', { to: '+13125550100', from: '+14155550123' });
    await s.call('POST', '/__sim/clock/advance', { by: 'PT1M' });
    expect(receiver.received.length).toBeGreaterThanOrEqual(5);

    const seen: string[] = [];
    for (const path of [
      '/api/v1/api_keys',
      '/api/v1/secret_keys',
      '/api/v1/users',
      '/api/v1/switches',
      '/api/v1/call_data_webhooks',
      '/api/v1/event_subscriptions',
      '/api/v1/numbers/+13125550100/destinations',
      '/api/v1/bulk_dip_tasks',
      `/api/v1/api_keys/${key.id}`,
      `/api/v1/switches/${sw.id}`,
    ]) {
      seen.push((await s.call('GET', path)).text);
    }
    seen.push(
      (await s.call('GET', '/__sim/requests')).text,
      (await s.call('GET', '/__sim/deliveries')).text,
      s.lines.join('\n'),
    );
    const everything = seen.join('\n');
    expect(secrets, 'something to check').not.toHaveLength(0);
    for (const secret of secrets) expect(everything.includes(secret), `leaked: ${secret}`).toBe(false);
    await s.close();
  });
});

describe('hosted-sandbox guards', () => {
  let receiver: Receiver;
  afterEach(() => receiver?.close());

  it('an admin token protects /__sim; health stays open and says nothing else', async () => {
    const s = await server({ simAdminToken: 'let-me-in' });
    const keyless = (method: string, path: string, headers: Record<string, string> = {}) =>
      callAt(s.base, method, path, { key: null, headers });
    expect(await s.call('GET', '/__sim/health')).toMatchObject({ status: 200, body: { status: 'ok' } });
    expect((await keyless('POST', '/__sim/reset')).status).toBe(403);
    expect((await s.call('GET', '/__sim/accounts')).status).toBe(403);
    // an account's own key resets that account alone; the whole server needs the token
    expect((await s.call('POST', '/__sim/reset')).body).toMatchObject({ scope: 'account' });
    expect((await keyless('POST', '/__sim/reset', { 'x-sim-admin-token': 'let-me-in' })).body).toMatchObject({
      scope: 'all',
    });
    expect((await s.call('GET', '/api/v1/api_keys')).status).toBe(200);
    await s.close();
  });

  it('--outbound-allow keeps deliveries to other hosts from leaving; they are logged as refused', async () => {
    receiver = await startReceiver();
    const s = await server({ outboundAllow: ['hooks.example.com'] });
    await s.call(
      'POST',
      '/api/v1/event_subscriptions',
      envelope('event_subscription', { name: 'h', protocol: 'HTTP', data: `${receiver.url}/ev`, topics: ['DID'] }),
    );
    await s.call('PATCH', '/api/v1/numbers/+13125550100', envelope('did', { switch_id: null }));
    await s.call('POST', '/__sim/clock/advance', { by: 'PT0S' });
    expect(receiver.received).toHaveLength(0);
    const log = (await s.call('GET', '/__sim/deliveries')).body.deliveries;
    expect(log[0]).toMatchObject({ outcome: 'refused' });
    expect(log[0].attempts[0].error).toContain('outbound-allow');
    await s.close();
  });

  it('body and document size limits hold', async () => {
    const s = await server();
    expect(
      (await s.call('POST', '/api/v1/carts', envelope('cart', { name: 'n', notes: 'x'.repeat(1_100_000) }))).status,
    ).toBe(413);
    await s.close();
  });
});
