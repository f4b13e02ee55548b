import { createHash, createHmac } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { readContractDocument } from '../../src/contract.js';
import { checkReceiver, type CaseResult } from '../../src/trust/check_receiver.js';
import type { ReceiverAuth } from '../../src/trust/receiver_tour.js';
import { runCliAsync } from '../support/cli_process.js';
import { expectConforms } from '../support/conformance.js';

/** How a test receiver behaves: a correct one, one that ignores signatures, one that refuses a repeat with 409. */
type Behaviour = 'correct' | 'ignores signatures' | 'refuses repeats';

interface TestReceiver {
  url: string;
  got: { headers: IncomingMessage['headers']; body: Buffer }[];
}

const open: Server[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((s) => new Promise((r) => s.close(r))));
});

/** What the Authorization header must be for the body, by the receiver's auth. */
function expectedAuthorization(auth: ReceiverAuth, body: Buffer): string | undefined {
  if (auth.method === 'BASIC') return `Basic ${Buffer.from(`${auth.identity}:${auth.secret}`).toString('base64')}`;
  if (auth.method === 'BEARER') return `Bearer ${auth.secret}`;
  if (auth.method === 'HMAC_SHA256')
    return `SERVICE0-HMAC-SHA256 ${createHmac('sha256', auth.secret ?? '')
      .update(body)
      .digest('hex')}`;
  return undefined;
}

async function startTestReceiver(behaviour: Behaviour, auth: ReceiverAuth): Promise<TestReceiver> {
  const got: TestReceiver['got'] = [];
  const seen = new Set<string>();
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const wanted = expectedAuthorization(auth, body);
      if (behaviour !== 'ignores signatures' && wanted !== undefined && req.headers.authorization !== wanted) {
        res.writeHead(401).end();
        return;
      }
      const digest = createHash('sha256').update(body).digest('hex');
      if (behaviour === 'refuses repeats' && seen.has(digest)) {
        res.writeHead(409).end();
        return;
      }
      seen.add(digest);
      got.push({ headers: req.headers, body });
      if (req.method === 'GET') res.writeHead(200, { 'content-type': 'text/plain' }).end('VOIP:1001@pbx.example.com');
      else res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  open.push(server);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`, got };
}

const failed = (results: CaseResult[]) => results.filter((r) => !r.passed).map((r) => r.case);

describe('dipswitch check-receiver', () => {
  it('a correct receiver of events passes every case, having got every event kind the contract names', async () => {
    const auth: ReceiverAuth = { method: 'BASIC', identity: 'hooks', secret: 's3cret' };
    const receiver = await startTestReceiver('correct', auth);
    const results = await checkReceiver({ url: receiver.url, kind: 'event', auth, format: '' });
    expect(failed(results)).toEqual([]);
    const schemas = (readContractDocument('openapi') as { components: { schemas: { event_kind: { enum: string[] } } } })
      .components.schemas;
    const kinds = results
      .filter((r) => r.case.startsWith('event ') && !r.case.includes(' with '))
      .map((r) => r.case.slice(6));
    expect(kinds.sort()).toEqual([...schemas.event_kind.enum].sort());
    const bodies = receiver.got.filter((g) => g.body.length < 1024 * 1024);
    expect(bodies, 'something to check').not.toHaveLength(0);
    for (const g of bodies) expectConforms('event_delivery', JSON.parse(g.body.toString('utf8')));
    expect(results.map((r) => r.case)).toEqual(
      expect.arrayContaining(['event with no Authorization', 'event with a wrong Authorization']),
    );
  });

  it('a correct receiver of CDRs, MMS (multipart) and route callbacks passes every case', async () => {
    const checks = [
      { kind: 'cdr', auth: { method: 'BEARER', secret: 'token' }, format: '', schema: 'cdr_delivery' },
      { kind: 'route', auth: { method: 'NONE' }, format: '', schema: 'route_callback' },
      { kind: 'mms', auth: { method: 'HMAC_SHA256', secret: 'k' }, format: 'MMSFMT_MULTIPART_2_0', schema: undefined },
    ] as const;
    for (const c of checks) {
      const receiver = await startTestReceiver('correct', c.auth);
      const results = await checkReceiver({ url: receiver.url, kind: c.kind, auth: c.auth, format: c.format });
      expect(failed(results), c.kind).toEqual([]);
      expect(results.length, c.kind).toBeGreaterThan(5);
      if (c.schema)
        for (const g of receiver.got.slice(0, 3)) expectConforms(c.schema, JSON.parse(g.body.toString('utf8')));
    }
  });

  it('a receiver that ignores signatures fails exactly the signature and Authorization cases', async () => {
    const auth: ReceiverAuth = { method: 'HMAC_SHA256', secret: 'signing-secret' };
    const receiver = await startTestReceiver('ignores signatures', auth);
    const results = await checkReceiver({ url: receiver.url, kind: 'sms', auth, format: 'SMSFMT_JSON_1_0' });
    expect(failed(results)).toEqual([
      'sms with a bad signature',
      'sms with no Authorization',
      'sms with a wrong Authorization',
    ]);
  });

  it('a receiver that refuses a repeated delivery with 409 fails exactly the duplicate and the retry', async () => {
    const auth: ReceiverAuth = { method: 'HMAC_SHA256', secret: 'signing-secret' };
    const receiver = await startTestReceiver('refuses repeats', auth);
    const results = await checkReceiver({ url: receiver.url, kind: 'sms', auth, format: 'SMSFMT_POST_2_0' });
    expect(failed(results)).toEqual([
      'the same sms SMSFMT_POST_2_0 twice',
      'a retry after an attempt abandoned at 100 ms',
    ]);
    expect(results.find((r) => r.case.startsWith('the same'))?.did).toMatch(/^409 in \d+ ms$/);
  });

  it('the command prints the table and exits 1 on a failed case; a flag that cannot work exits 2', async () => {
    const receiver = await startTestReceiver('refuses repeats', { method: 'NONE' });
    const run = await runCliAsync(['check-receiver', receiver.url, '--kind', 'route']);
    expect(run.status, run.stderr).toBe(1);
    expect(run.stdout).toMatch(/\| the same route route callback twice +\| .* \| 409 in \d+ ms +\| FAIL +\|/);
    expect(run.stdout).toMatch(/passed, 2 failed/);
    const refusals = [
      [['--kind', 'event', '--auth', 'HMAC_SHA256', '--secret', 'x'], 'HMAC_SHA256 is for --kind sms or mms only'],
      [['--kind', 'sms', '--format', 'MMSFMT_XML_1_0'], '--format for sms is one of SMSFMT_JSON_1_0'],
      [['--kind', 'cdr', '--auth', 'BASIC', '--secret', 'x'], '--auth BASIC needs --identity'],
      [['--kind', 'fax'], "argument 'fax' is invalid"],
    ] as const;
    for (const [flags, said] of refusals) {
      const refused = await runCliAsync(['check-receiver', receiver.url, ...flags]);
      expect(refused.status, refused.stderr).toBe(2);
      expect(refused.stderr).toContain(said);
    }
  });
});
