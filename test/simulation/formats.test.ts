// Every message format (issue 24): each body as a switch's endpoint receives it, read by a real
// parser (JSON, form encoding, XML, multipart with busboy, RFC 822 with mailparser) or checked
// against its schema; HMAC_SHA256 signs the exact bytes sent, whatever the format.
import busboy from 'busboy';
import { createHmac } from 'node:crypto';
import { XMLParser } from 'fast-xml-parser';
import { simpleParser } from 'mailparser';
import { describe, expect, it } from 'vitest';
import { envelope, useReceiver, useServer } from '../support/helpers.js';
import { expectConforms } from '../support/conformance.js';
import { emailDefects, xmlRead } from '../support/strict_mime.js';

/** The fields and files of a multipart/form-data body, read by busboy. */
function formData(contentType: string, body: Buffer) {
  return new Promise<{ fields: Record<string, string[]>; files: { name: string; type: string; bytes: string }[] }>(
    (resolve, reject) => {
      const fields: Record<string, string[]> = {};
      const files: { name: string; type: string; bytes: string }[] = [];
      const bb = busboy({ headers: { 'content-type': contentType } });
      bb.on('field', (name, value) => (fields[name] ??= []).push(value));
      bb.on('file', (name, stream, info) => {
        const chunks: Buffer[] = [];
        stream.on('data', (c: Buffer) => chunks.push(c));
        stream.on('end', () => files.push({ name, type: info.mimeType, bytes: Buffer.concat(chunks).toString() }));
      });
      bb.on('close', () => resolve({ fields, files }));
      bb.on('error', reject);
      bb.end(body);
    },
  );
}

describe('message formats', () => {
  const server = useServer();
  const receiver = useReceiver();

  /** Routes the number to a switch with the format, sends an MMS with one medium (or an SMS), answers the body received. */
  async function deliver(
    kind: 'sms' | 'mms',
    format: string,
    auth: Record<string, unknown> = {},
    text = 'Tom & "Jerry" <3',
  ) {
    const prefix = kind;
    const sw = (
      await server().call('POST', '/api/v1/switches', {
        body: envelope('switch', {
          name: format,
          [`${prefix}_enabled`]: true,
          [`${prefix}_protocol`]: 'HTTP',
          [`${prefix}_data`]: `${receiver().url}/in`,
          [`${prefix}_message_format`]: format,
          ...auth,
        }),
      })
    ).body.data;
    await server().call('PATCH', '/api/v1/numbers/+13125550100', { body: envelope('did', { switch_id: sw.id }) });
    receiver().replies.push({ status: 200 });
    if (kind === 'mms') receiver().replies.unshift({ status: 200, contentType: 'image/gif', body: 'GIF89a' });
    const res = await server().call('POST', '/__sim/inbound/sms', {
      key: null,
      body: {
        to: '+13125550100',
        from: '+14155550123',
        text,
        ...(kind === 'mms' ? { media_urls: [`${receiver().url}/media/cat.gif`] } : {}),
      },
    });
    expect(res.body.trace.at(-1)).toMatchObject({ step: 'switch_http', detail: 'delivered, answered 200' });
    const got = receiver().received.filter((r) => r.path === '/in');
    expect(got).toHaveLength(1);
    return { got: got[0]!, message: res.body.message };
  }

  it('SMSFMT_POST_1_0 sends the fields as they are; SMSFMT_POST_2_0 the JSON shape as type and data[field]', async () => {
    const one = await deliver('sms', 'SMSFMT_POST_1_0');
    expect(Object.fromEntries(new URLSearchParams(one.got.text))).toEqual({
      id: one.message.id,
      from: '+14155550123',
      to: '+13125550100',
      text: 'Tom & "Jerry" <3',
      received_at: one.message.received_at,
    });
    receiver().received.length = 0;
    const two = await deliver('sms', 'SMSFMT_POST_2_0');
    expect(two.got.headers['content-type']).toBe('application/x-www-form-urlencoded');
    expect(Object.fromEntries(new URLSearchParams(two.got.text))).toEqual({
      type: 'sms',
      'data[id]': two.message.id,
      'data[from]': '+14155550123',
      'data[to]': '+13125550100',
      'data[text]': 'Tom & "Jerry" <3',
      'data[received_at]': two.message.received_at,
    });
  });

  it('MMSFMT_JSON_1_0 and MMSFMT_JSONAPI_1_0', async () => {
    const json = await deliver('mms', 'MMSFMT_JSON_1_0');
    expectConforms('message_delivery', json.got.json());
    receiver().received.length = 0;
    const api = await deliver('mms', 'MMSFMT_JSONAPI_1_0');
    expect(api.got.headers['content-type']).toBe('application/vnd.api+json');
    expectConforms('message_jsonapi_delivery', api.got.json());
    expect(api.got.json()).toEqual({
      data: {
        type: 'mms',
        id: api.message.id,
        attributes: {
          from: '+14155550123',
          to: '+13125550100',
          text: 'Tom & "Jerry" <3',
          received_at: api.message.received_at,
          media_urls: [`${receiver().url}/media/cat.gif`],
        },
      },
    });
  });

  it('MMSFMT_XML_1_0 keeps CR and every character XML can carry; the others are U+FFFD; a strict parser reads it', async () => {
    const controls = Array.from({ length: 32 }, (_, i) => String.fromCharCode(i)).join('');
    const text = `line one\r\nline two\f page ${controls} end`;
    const { got } = await deliver('mms', 'MMSFMT_XML_1_0', {}, text);
    const read = xmlRead(got.body);
    expect(read.problems).toEqual([]);
    const carried = [...text].map((c) => (/[\t\n\r]/.test(c) || c >= ' ' ? c : '\uFFFD')).join('');
    expect(read.text).toBe(carried);
    expect(got.text).toContain('line one&#13;\nline two');
  });

  it('MMSFMT_XML_1_0 is XML an XML parser reads back, special characters escaped', async () => {
    const { got, message } = await deliver('mms', 'MMSFMT_XML_1_0');
    expect(got.headers['content-type']).toBe('application/xml');
    const doc = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '@', parseTagValue: false }).parse(
      got.text,
    );
    expect(doc.message).toMatchObject({
      '@type': 'mms',
      '@id': message.id,
      from: '+14155550123',
      to: '+13125550100',
      text: 'Tom & "Jerry" <3',
      media: { url: `${receiver().url}/media/cat.gif` },
    });
  });

  it('MMSFMT_MULTIPART_1_0 and _2_0 carry the medium itself; HMAC_SHA256 signs the exact bytes', async () => {
    const secret = { mms_auth_method: 'HMAC_SHA256', mms_secret: 'sign-me' };
    const one = await deliver('mms', 'MMSFMT_MULTIPART_1_0', secret);
    const hex = createHmac('sha256', 'sign-me').update(one.got.body).digest('hex');
    expect(one.got.headers.authorization).toBe(`SERVICE0-HMAC-SHA256 ${hex}`);
    const form1 = await formData(String(one.got.headers['content-type']), one.got.body);
    expect(form1.fields).toMatchObject({ from: ['+14155550123'], text: ['Tom & "Jerry" <3'], id: [one.message.id] });
    expect(form1.files).toEqual([{ name: 'media', type: 'image/gif', bytes: 'GIF89a' }]);
    receiver().received.length = 0;
    const two = await deliver('mms', 'MMSFMT_MULTIPART_2_0');
    const form2 = await formData(String(two.got.headers['content-type']), two.got.body);
    expect(Object.keys(form2.fields)).toEqual(['message']);
    expectConforms('message_delivery', JSON.parse(form2.fields.message![0]!));
    expect(form2.files).toEqual([{ name: 'media[]', type: 'image/gif', bytes: 'GIF89a' }]);
    // the delivery log keeps the composed body and its headers as they went, the signature redacted
    const logged = (await server().call('GET', '/__sim/deliveries?kind=mms', { key: null })).body.deliveries;
    const signed = logged.find((d: { body: string }) => d.body.includes(one.message.id));
    expect(signed.body).toBe(one.got.body.toString('utf8'));
    expect(signed.headers['content-type']).toMatch(/^multipart\/form-data; boundary=/);
    expect(signed.headers.authorization).toBe('SERVICE0-HMAC-SHA256 [redacted]');
  });

  it('MMSFMT_RFC822_1_0 is an e-mail message mailparser reads: the text and the medium', async () => {
    const { got, message } = await deliver('mms', 'MMSFMT_RFC822_1_0');
    expect(got.headers['content-type']).toBe('message/rfc822');
    const mail = await simpleParser(got.body);
    expect(mail.messageId).toBe(`<${message.id}@mms.dipswitch.test>`);
    // addresses with the provider's domain, as MM4's; an RFC 5322 date; msg-id Content-IDs: no defect
    expect(mail.from?.value[0]?.address).toBe('+14155550123/TYPE=PLMN@mms.dipswitch.test');
    expect(emailDefects(got.body)).toEqual([]);
    expect(mail.text?.trim()).toBe('Tom & "Jerry" <3');
    expect(mail.attachments.map((a) => [a.contentType, a.content.toString()])).toEqual([['image/gif', 'GIF89a']]);
  });
});
