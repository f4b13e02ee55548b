import { simpleParser } from 'mailparser';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startReceiver } from '../../src/testing/receiver.js';
import { expectConforms } from '../support/conformance.js';
import { envelope, useServer } from '../support/helpers.js';
import { startSftpServer, type SftpServer } from '../support/sftp_server.js';

describe('SFTP deliveries', () => {
  const server = useServer();
  let sftp: SftpServer;
  beforeEach(async () => {
    sftp = await startSftpServer((u, p) => (u === 'dips' && p === 'pw') || (u === 'dipswitch' && p === 'token'));
  });
  afterEach(() => sftp.close());

  it("a bulk dip on-done action uploads the result file to the URL's directory with BASIC credentials", async () => {
    const res = await server().call('POST', '/api/v1/bulk_dip_tasks', {
      key: 'demo-standard-key',
      body: envelope('bulk_dip_task', {
        type: 'CNAM',
        numbers: ['+13125550100'],
        reference_id: 'sftp-dip',
        on_done_actions: [
          {
            protocol: 'SFTP',
            data: `sftp://${sftp.host}:${sftp.port}/inbox/dips`,
            auth_method: 'BASIC',
            auth_identity: 'dips',
            auth_secret: 'pw',
            filename: 'cnam.csv',
          },
        ],
      }),
    });
    await server().call('POST', '/__sim/clock/advance', { key: null, body: { by: 'PT1M' } });
    expect(sftp.files.get('/inbox/dips/cnam.csv')?.toString()).toMatch(/^number,caller_name\r\n\+13125550100,/);
    const task = (
      await server().call('GET', `/api/v1/bulk_dip_tasks/${res.body.data.id}`, { key: 'demo-standard-key' })
    ).body.data;
    expect(task.on_done_actions[0]).toMatchObject({ status: 'COMPLETED', error_code: 'OK' });
  });

  it('an SFTP subscription uploads each event as a JSON file, BEARER logging in with a placeholder user', async () => {
    await server().call('POST', '/api/v1/event_subscriptions', {
      body: envelope('event_subscription', {
        name: 'sftp events',
        protocol: 'SFTP',
        data: `sftp://${sftp.host}:${sftp.port}/events`,
        topics: ['DID'],
        auth_method: 'BEARER',
        auth_secret: 'token',
      }),
    });
    await server().call('PATCH', '/api/v1/numbers/+13125550100', {
      body: envelope('did', { auto_response_id: null }),
    });
    await server().settle();
    const [path, bytes] = [...sftp.files.entries()][0]!;
    expect(path).toMatch(/^\/events\/event-[0-9A-Z]{26}\.json$/);
    const event = JSON.parse(bytes.toString());
    expectConforms('event_delivery', event);
    expect(event.data.kind).toBe('did.updated');
  });

  it('an SFTP call data webhook named host:port gets CDRs; a refused login is retried on the clock', async () => {
    await server().call('POST', '/api/v1/call_data_webhooks', {
      body: envelope('call_data_webhook', {
        name: 'sftp cdr',
        protocol: 'SFTP',
        data: `${sftp.host}:${sftp.port}`,
        auth_method: 'BASIC',
        auth_identity: 'dips',
        auth_secret: 'wrong',
      }),
    });
    await server().call('POST', '/__sim/inbound/sms', {
      key: null,
      body: { to: '+13125550100', from: '+14155550123', text: 'hi' },
    });
    expect(sftp.files.size).toBe(0);
    const log = (await server().call('GET', '/__sim/deliveries?kind=cdr', { key: null })).body.deliveries;
    expect(log[0]).toMatchObject({ method: 'SFTP', outcome: 'retrying' });
    expect(JSON.stringify(log)).not.toContain('wrong');
    await server().call('POST', '/__sim/clock/advance', { key: null, body: { by: 'PT1M' } });
    expect(sftp.logins.filter((l) => l.username === 'dips')).toHaveLength(2);
  });

  it('an inbound MMS to a switch of SFTP is uploaded, in its format, to the path of mms_data', async () => {
    const sw = (
      await server().call('POST', '/api/v1/switches', {
        body: envelope('switch', {
          name: 'sftp-mms',
          mms_enabled: true,
          mms_protocol: 'SFTP',
          mms_data: `sftp://${sftp.host}:${sftp.port}/inbox/mms`,
          mms_auth_method: 'BASIC',
          mms_identity: 'dips',
          mms_secret: 'pw',
        }),
      })
    ).body.data;
    await server().call('PATCH', '/api/v1/numbers/+13125550100', { body: envelope('did', { switch_id: sw.id }) });
    const res = await server().call('POST', '/__sim/inbound/sms', {
      key: null,
      body: { to: '+13125550100', from: '+14155550123', text: 'a picture', media_urls: ['https://example.com/a.png'] },
    });
    expect(res.body.trace.at(-1)).toMatchObject({ step: 'switch_sftp' });
    const file = sftp.files.get(`/inbox/mms/mms-${res.body.message.id}.json`);
    const body = JSON.parse(file?.toString() ?? 'null');
    expect(body).toMatchObject({ type: 'mms', data: { text: 'a picture', media_urls: ['https://example.com/a.png'] } });
    expectConforms('message_delivery', body);
    // the delivery log, as kind mms, shows the file as it went: its path and its bytes
    const [logged] = (await server().call('GET', '/__sim/deliveries?kind=mms', { key: null })).body.deliveries;
    expect(logged.headers['sftp-file']).toMatch(new RegExp(`/inbox/mms mms-${res.body.message.id}\\.json$`));
    expect(JSON.parse(logged.body)).toEqual(body);
  });

  it('an MMS in a format that carries its media is uploaded composed (RFC 822: the text and the medium)', async () => {
    const media = await startReceiver();
    try {
      media.replies.push({ status: 200, contentType: 'image/gif', body: 'GIF89a' });
      const sw = (
        await server().call('POST', '/api/v1/switches', {
          body: envelope('switch', {
            name: 'sftp-rfc822',
            mms_enabled: true,
            mms_protocol: 'SFTP',
            mms_data: `sftp://${sftp.host}:${sftp.port}/inbox/mms`,
            mms_message_format: 'MMSFMT_RFC822_1_0',
            mms_auth_method: 'BASIC',
            mms_identity: 'dips',
            mms_secret: 'pw',
          }),
        })
      ).body.data;
      await server().call('PATCH', '/api/v1/numbers/+13125550100', { body: envelope('did', { switch_id: sw.id }) });
      const res = await server().call('POST', '/__sim/inbound/sms', {
        key: null,
        body: { to: '+13125550100', from: '+14155550123', text: 'composed', media_urls: [`${media.url}/a.gif`] },
      });
      const file = sftp.files.get(`/inbox/mms/mms-${res.body.message.id}.eml`);
      const mail = await simpleParser(file ?? Buffer.alloc(0));
      expect(mail.text?.trim()).toBe('composed');
      expect(mail.attachments.map((x) => x.content.toString())).toEqual(['GIF89a']);
    } finally {
      await media.close();
    }
  });
});
