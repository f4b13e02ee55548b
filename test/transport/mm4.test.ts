// MM4 (issue 24): an inbound MMS to an MM4 switch reaches a real SMTP server on loopback as an
// MM4_forward.REQ, with SMTP AUTH, for each of the three TLS modes; a refusal is retried.
import { readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { simpleParser, type ParsedMail } from 'mailparser';
import { emailDefects } from '../support/strict_mime.js';
import { SMTPServer } from 'smtp-server';
import { afterEach, describe, expect, it } from 'vitest';
import { envelope, useServer, useReceiver, type TestServer } from '../support/helpers.js';

const TLS = {
  key: readFileSync(new URL('../tls/key.pem', import.meta.url)),
  cert: readFileSync(new URL('../tls/cert.pem', import.meta.url)),
};

interface Relay {
  port: number;
  mails: {
    parsed: ParsedMail;
    raw: string;
    secure: boolean;
    user: string | undefined;
    envelope: unknown;
    hello: string;
  }[];
  /** Refuse the next `n` messages with 451. */
  refuse: number;
  close(): Promise<void>;
}

async function relay(opts: { secure?: boolean; starttls?: boolean }): Promise<Relay> {
  const r = { mails: [], refuse: 0 } as unknown as Relay;
  const server = new SMTPServer({
    ...TLS,
    secure: opts.secure ?? false,
    disabledCommands: opts.starttls === false && !opts.secure ? ['STARTTLS'] : [],
    allowInsecureAuth: true,
    authOptional: true,
    authMethods: ['PLAIN', 'LOGIN'],
    logger: false,
    onAuth(auth, _session, done) {
      if (auth.username === 'relay-user' && auth.password === 'relay-pass') done(null, { user: auth.username });
      else done(new Error('Invalid username or password'));
    },
    onData(stream, session, done) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', async () => {
        if (r.refuse > 0) {
          r.refuse--;
          const err = new Error('try later') as Error & { responseCode: number };
          err.responseCode = 451;
          return done(err);
        }
        const raw = Buffer.concat(chunks);
        r.mails.push({
          parsed: await simpleParser(raw),
          raw: raw.toString('utf8'),
          secure: session.secure,
          user: session.user as string | undefined,
          envelope: session.envelope,
          hello: session.hostNameAppearsAs,
        });
        done();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  r.port = (server.server.address() as AddressInfo).port;
  r.close = () => new Promise((resolve) => server.close(() => resolve()));
  return r;
}

async function mm4Switch(s: TestServer, url: string, auth = true) {
  const sw = (
    await s.call('POST', '/api/v1/switches', {
      body: envelope('switch', {
        name: 'mm4',
        mms_enabled: true,
        mms_protocol: 'MM4',
        mms_data: url,
        ...(auth ? { mms_auth_method: 'BASIC', mms_identity: 'relay-user', mms_secret: 'relay-pass' } : {}),
      }),
    })
  ).body;
  expect(sw.data?.id, JSON.stringify(sw)).toBeTruthy();
  await s.call('PATCH', '/api/v1/numbers/+13125550100', { body: envelope('did', { switch_id: sw.data.id }) });
}

describe('MM4', () => {
  const server = useServer();
  const media = useReceiver();
  const relays: Relay[] = [];
  afterEach(async () => {
    for (const r of relays.splice(0)) await r.close();
  });

  const mms = (mediaUrls: string[]) =>
    server().call('POST', '/__sim/inbound/sms', {
      key: null,
      body: { to: '+13125550100', from: '+14155550123', text: 'Look at this', media_urls: mediaUrls },
    });

  for (const [scheme, opts, secure] of [
    ['mm4', { starttls: false }, false],
    ['mm4+s', {}, true],
    ['mm4s', { secure: true }, true],
  ] as const) {
    it(`${scheme}:// delivers an MM4_forward.REQ with AUTH${secure ? ' over TLS' : ''}, the text and the medium as parts`, async () => {
      const r = await relay(opts);
      relays.push(r);
      media().replies.push({ status: 200, contentType: 'image/png', body: 'PNGBYTES' });
      await mm4Switch(server(), `${scheme}://127.0.0.1:${r.port}`);
      const res = await mms([`${media().url}/cat.png`]);
      expect(res.body.trace.at(-1)).toMatchObject({ step: 'switch_mm4' });
      expect(r.mails).toHaveLength(1);
      const mail = r.mails[0]!;
      expect(mail.secure).toBe(secure);
      expect(mail.user).toBe('relay-user');
      // the sender's side is the provider's domain; the relay, an IP address, is an address literal
      expect(mail.envelope).toMatchObject({
        mailFrom: { address: '+14155550123/TYPE=PLMN@mms.dipswitch.test' },
        rcptTo: [{ address: '+13125550100/TYPE=PLMN@[127.0.0.1]' }],
      });
      expect(mail.hello).toBe('mms.dipswitch.test');
      const h = mail.parsed.headers;
      expect(h.get('x-mms-message-type')).toBe('MM4_forward.REQ');
      expect(h.get('x-mms-3gpp-mms-version')).toBe('6.10.0');
      expect(h.get('x-mms-transaction-id')).toBe(res.body.message.id);
      expect(mail.raw).toMatch(/^From: \+14155550123\/TYPE=PLMN@mms\.dipswitch\.test\r$/m);
      expect(mail.raw).toMatch(/^To: \+13125550100\/TYPE=PLMN@\[127\.0\.0\.1\]\r$/m);
      expect(mail.raw).toMatch(/^X-Mms-Originator-System: system-user@mms\.dipswitch\.test\r$/m);
      expect(mail.raw).not.toMatch(/^Sender:/m);
      expect(mail.raw).toMatch(/^Date: \w{3}, \d{2} \w{3} \d{4} \d{2}:\d{2}:\d{2} \+0000\r$/m);
      // a strict reader finds no defect in any header or part
      expect(emailDefects(mail.raw)).toEqual([]);
      // the delivery log shows what went out: the envelope and the whole message, as the relay got it
      const [logged] = (await server().call('GET', '/__sim/deliveries?kind=mms', { key: null })).body.deliveries;
      expect(logged.headers).toMatchObject({ 'mail from': '+14155550123/TYPE=PLMN@mms.dipswitch.test' });
      expect(logged.body).toContain('X-Mms-Message-Type: MM4_forward.REQ');
      expect(logged.body).toContain('From: +14155550123/TYPE=PLMN@mms.dipswitch.test\r\n');
      expect(emailDefects(logged.body)).toEqual([]);
      expect(mail.parsed.text?.trim()).toBe('Look at this');
      expect(mail.parsed.attachments.map((a) => [a.contentType, a.content.toString()])).toEqual([
        ['image/png', 'PNGBYTES'],
      ]);
    });
  }

  it('a refusal (451) is retried on the clock like an HTTP failure; a medium the policy refuses fails the attempt', async () => {
    const r = await relay({ starttls: false });
    relays.push(r);
    r.refuse = 1;
    await mm4Switch(server(), `mm4://127.0.0.1:${r.port}`, false);
    await mms([`${media().url}/a.gif`]);
    let log = (await server().call('GET', '/__sim/deliveries?kind=mms', { key: null })).body.deliveries;
    expect(log[0]).toMatchObject({ method: 'MM4', outcome: 'retrying' });
    expect(log[0].attempts[0]).toMatchObject({ status: 451 });
    await server().call('POST', '/__sim/clock/advance', { key: null, body: { by: 'PT1M' } });
    log = (await server().call('GET', '/__sim/deliveries?kind=mms', { key: null })).body.deliveries;
    expect(log[0]).toMatchObject({ outcome: 'delivered' });
    expect(r.mails).toHaveLength(1);
    await mms(['http://169.254.169.254/latest/meta-data']);
    log = (await server().call('GET', '/__sim/deliveries?kind=mms', { key: null })).body.deliveries;
    const refused = log.find((d: any) => d.outcome === 'refused');
    expect(refused.attempts[0].error).toMatch(/^refused: the medium http:\/\/169\.254\.169\.254/);
    expect(r.mails).toHaveLength(1);
  });
});
