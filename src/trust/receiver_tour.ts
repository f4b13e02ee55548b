/**
 * What dipswitch would send a receiver, made by dipswitch itself: an in-process dipswitch (memory,
 * frozen clock) is set up to deliver one kind of delivery to a loopback capture, with the receiver's
 * auth, and driven through the API until it has sent every variant of the kind (every event kind;
 * a CDR of each kind; the switch's SMS or MMS format; a route callback) and some fresh ones besides.
 * The receiver checker (check_receiver.ts) replays these captured requests to the real receiver.
 */
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { buildServer, listen, scratchOptions } from '../server.js';

export type DeliveryKind = 'event' | 'cdr' | 'sms' | 'mms' | 'route';
export type AuthMethod = 'NONE' | 'BASIC' | 'BEARER' | 'HMAC_SHA256';

export interface ReceiverAuth {
  method: AuthMethod;
  identity?: string;
  secret?: string;
}

/** One request dipswitch sent, as it went out. */
export interface Captured {
  /** What it is: an event's kind, a CDR's kind, a message format, `route callback`. */
  label: string;
  method: string;
  /** Headers as sent, but for those of the connection (host, content-length, connection). */
  headers: Record<string, string>;
  body: Buffer;
}

export interface Tour {
  /** One request of every variant of the kind, in the order dipswitch sent them. */
  variants: Captured[];
  /** Further requests of the kind, never sent to the receiver before, in the order they were made. */
  fresh: Captured[];
}

const CONNECTION_HEADERS = new Set(['host', 'content-length', 'connection', 'transfer-encoding']);
/** What the capture answers a route callback: a routing answer, so the simulated call is routed. */
const ROUTE_ANSWER = 'VOIP:1001@pbx.example.com';
const DEMO_NUMBER = '+13125550100';
const HANDSET = '+14155550123';

/** A loopback endpoint that keeps every delivery and serves the medium an MMS names. */
async function startCapture(): Promise<{ url: string; got: Omit<Captured, 'label'>[]; server: Server }> {
  const got: Omit<Captured, 'label'>[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      if (req.url?.startsWith('/media/')) {
        res.writeHead(200, { 'content-type': 'image/gif' }).end('GIF89a\x01\x00\x01\x00');
        return;
      }
      got.push({ method: req.method ?? 'POST', headers: sentHeaders(req.headers), body: Buffer.concat(chunks) });
      // an HTTP route callback is the only GET dipswitch sends
      if (req.method === 'GET') res.writeHead(200, { 'content-type': 'text/plain' }).end(ROUTE_ANSWER);
      else res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, got, server };
}

function sentHeaders(headers: IncomingHttpHeaders): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(headers))
    if (!CONNECTION_HEADERS.has(k) && v !== undefined) out[k] = Array.isArray(v) ? v.join(', ') : v;
  return out;
}

type Api = (
  method: string,
  path: string,
  body?: unknown,
) => Promise<{ status: number; body: { data: { id: string } } }>;

/** Calls the in-process dipswitch as the Demo admin; a refusal is a fault of the tour, not of the receiver. */
const apiOf =
  (base: string): Api =>
  async (method, path, body) => {
    const res = await fetch(base + path, {
      method,
      headers: {
        authorization: 'Bearer demo-admin-key',
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    // an answer that is not JSON carries no id: the tour's next check says so
    const answer = { status: res.status, body: (await res.json().catch(() => ({}))) as { data: { id: string } } };
    if (res.status >= 300)
      throw new Error(`the tour's ${method} ${path} answered ${res.status}: ${JSON.stringify(answer.body)}`);
    return answer;
  };

const envelope = (type: string, data: unknown) => ({ type, data });
const advance = (api: Api, by: string) => api('POST', '/__sim/clock/advance', { by });

/** The auth fields of a resource, under its own names (`auth_*`, `sms_*` or `mms_*`). */
function authFields(auth: ReceiverAuth, prefix: 'auth' | 'sms' | 'mms'): Record<string, string | null> {
  const name = (field: string) => (prefix === 'auth' ? `auth_${field}` : `${prefix}_${field}`);
  return {
    [prefix === 'auth' ? 'auth_method' : `${prefix}_auth_method`]: auth.method,
    [name('identity')]: auth.identity ?? null,
    [name('secret')]: auth.secret ?? null,
  };
}

/** Drives dipswitch through every event kind: orders of every request outcome, a number's change, OSRs, the registry. */
async function eventTour(api: Api, url: string, auth: ReceiverAuth): Promise<void> {
  const topics = ['DID', 'CSP_BRAND', 'CSP_CAMPAIGN', 'ORDER', 'REQUEST', 'OSR'];
  await api(
    'POST',
    '/api/v1/event_subscriptions',
    envelope('event_subscription', {
      name: 'check-receiver',
      protocol: 'HTTP',
      data: url,
      topics,
      ...authFields(auth, 'auth'),
    }),
  );
  const order = async (name: string, requests: { type: string; data: unknown }[]) => {
    const cart = (await api('POST', '/api/v1/carts', envelope('cart', { name }))).body.data;
    for (const r of requests) await api('POST', `/api/v1/carts/${cart.id}/requests`, envelope('request', r));
    await api('POST', `/api/v1/carts/${cart.id}/checkout`);
    await advance(api, 'PT10M');
  };
  await order('numbers and a brand', [
    { type: 'NEW_NUMBERS', data: { npa: '312', state: 'IL', number_type: 'TENDLC', quantity: '1' } },
    { type: 'ADD_MESSAGING_NUMBERS', data: { numbers: [DEMO_NUMBER] } },
    { type: 'REMOVE_NUMBERS', data: { numbers: ['+13125550109'] } },
    { type: 'VET_BRAND', data: { tcr_brand_id: 'BDEMO01', vetting_class: 'STANDARD' } },
    {
      type: 'REGISTER_BRAND',
      data: {
        display_name: 'Check',
        company_name: 'Check LLC',
        entity_type: 'PRIVATE_PROFIT',
        country: 'US',
        email: 'brand@check.example',
        ein: '36-4829175',
        website: 'https://check.example',
      },
    },
    {
      type: 'REGISTER_CAMPAIGN',
      data: {
        tcr_brand_id: 'BDEMO01',
        name: 'Alerts',
        description: 'Account alerts.',
        use_case: 'ACCOUNT_NOTIFICATION',
        sample_messages: ['Your code is 123456.'],
      },
    },
  ]);
  await advance(api, 'PT2H');
  await order('registry endings', [
    { type: 'UNREGISTER_CAMPAIGN', data: { tcr_campaign_id: 'CDEMO01' } },
    { type: 'UNREGISTER_BRAND', data: { tcr_brand_id: 'BDEMO01' } },
  ]);
  await order("a number that is not the account's", [{ type: 'REMOVE_NUMBERS', data: { numbers: ['+13125550999'] } }]);
  const raised = (await api('POST', '/__sim/osr/overwrite_requests', { number: '+13125550101' })).body.data as {
    id: string;
  };
  await api(
    'POST',
    `/api/v1/osr/overwrite_requests/${raised.id}/review`,
    envelope('osr_overwrite_request', { review_status: 'APPROVED' }),
  );
  await api('POST', '/__sim/osr/overwrite_requests', { number: '+13125550102' });
  await advance(api, 'P8D');
  // fresh events, two of one number in order
  for (const description of ['first', 'second', 'third', 'fourth'])
    await api('PATCH', `/api/v1/numbers/${DEMO_NUMBER}`, envelope('did', { description }));
}

/** Sends `count` inbound messages (with a medium for an MMS) to the Demo number, routed to a switch. */
async function messageTour(
  api: Api,
  url: string,
  auth: ReceiverAuth,
  kind: 'sms' | 'mms',
  format: string,
  count: number,
) {
  const sw = (
    await api(
      'POST',
      '/api/v1/switches',
      envelope('switch', {
        name: 'check-receiver',
        [`${kind}_enabled`]: true,
        [`${kind}_protocol`]: 'HTTP',
        [`${kind}_data`]: url,
        [`${kind}_message_format`]: format,
        ...authFields(auth, kind),
      }),
    )
  ).body.data as { id: string };
  await api('PATCH', `/api/v1/numbers/${DEMO_NUMBER}`, envelope('did', { switch_id: sw.id }));
  const media = kind === 'mms' ? { media_urls: [`${new URL(url).origin}/media/pixel.gif`] } : {};
  for (let i = 1; i <= count; i++)
    await api('POST', '/__sim/inbound/sms', {
      to: DEMO_NUMBER,
      from: HANDSET,
      text: `Message ${i}: "fish & chips" <3`,
      ...media,
    });
}

/** CDRs of every kind: an inbound SMS and MMS, and a bulk dip of each type with its CDRs exported; then fresh SMS ones. */
async function cdrTour(api: Api, url: string, auth: ReceiverAuth, fresh: number): Promise<void> {
  await api(
    'POST',
    '/api/v1/call_data_webhooks',
    envelope('call_data_webhook', { name: 'check-receiver', protocol: 'HTTP', data: url, ...authFields(auth, 'auth') }),
  );
  const sms = (media: object) =>
    api('POST', '/__sim/inbound/sms', { to: DEMO_NUMBER, from: HANDSET, text: 'Hello', ...media });
  await sms({});
  await sms({ media_urls: [`${new URL(url).origin}/media/pixel.gif`] });
  for (const type of ['LRN', 'CNAM', 'MCL'])
    await api(
      'POST',
      '/api/v1/bulk_dip_tasks',
      envelope('bulk_dip_task', {
        type,
        numbers: [DEMO_NUMBER],
        reference_id: `check-${type}`,
        enable_cdr_export: true,
      }),
    );
  await advance(api, 'PT10M');
  for (let i = 0; i < fresh; i++) await sms({});
}

/** `count` inbound calls to the Demo number, whose only destination is the receiver's HTTP route. */
async function routeTour(api: Api, url: string, auth: ReceiverAuth, count: number): Promise<void> {
  await api(
    'POST',
    `/api/v1/numbers/${DEMO_NUMBER}/destinations`,
    envelope('number_destination', { type: 'HTTP_ROUTE', destination: url, priority: 1, ...authFields(auth, 'auth') }),
  );
  for (let i = 0; i < count; i++) await api('POST', '/__sim/inbound/call', { to: DEMO_NUMBER, from: HANDSET });
}

/** What a captured request is: an event's or a CDR's kind, the message format, or a route callback. */
function labelOf(kind: DeliveryKind, format: string, body: Buffer): string {
  if (kind === 'event' || kind === 'cdr')
    return String((JSON.parse(body.toString('utf8')) as { data: { kind: string } }).data.kind);
  return kind === 'route' ? 'route callback' : format;
}

/** How many fresh deliveries the checker's cases use (out of order takes two, the retry and the check after the oversized body one each). */
export const FRESH_NEEDED = 4;

/** Has an in-process dipswitch send every variant of `kind`, with `auth`, and answers what it sent. */
export async function takeTour(kind: DeliveryKind, auth: ReceiverAuth, format: string): Promise<Tour> {
  const capture = await startCapture();
  const { app, runtime } = await buildServer({
    ...scratchOptions(),
  });
  const server = await listen(app, 0, '127.0.0.1');
  try {
    const api = apiOf(`http://127.0.0.1:${(server.address() as AddressInfo).port}`);
    const url = `${capture.url}/deliver`;
    if (kind === 'event') await eventTour(api, url, auth);
    else if (kind === 'cdr') await cdrTour(api, url, auth, FRESH_NEEDED);
    else if (kind === 'route') await routeTour(api, url, auth, 1 + FRESH_NEEDED);
    else await messageTour(api, url, auth, kind, format, 1 + FRESH_NEEDED);
  } finally {
    server.close();
    await runtime.close();
    capture.server.close();
  }
  const variants: Captured[] = [];
  const fresh: Captured[] = [];
  for (const got of capture.got) {
    const captured = { label: labelOf(kind, format, got.body), ...got };
    (variants.some((v) => v.label === captured.label) ? fresh : variants).push(captured);
  }
  return { variants, fresh };
}
