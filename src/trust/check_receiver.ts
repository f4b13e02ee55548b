/**
 * `dipswitch check-receiver URL --kind …`: sends a client's receiver what dipswitch would send it
 * (receiver_tour.ts makes it, with the receiver's auth), then the hard cases: the same delivery
 * twice, two out of order, a bad signature, a missing or wrong Authorization, a body over 1 MB, a
 * retry after an attempt abandoned at its time limit. Each case is judged only by what is seen from
 * outside: the status, and whether an answer came in time (docs/trust.md).
 */
import { createHmac } from 'node:crypto';
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { DELIVERY_TIMEOUT_MS } from '../engine/deliveries.js';
import { parseRouteReply } from '../simulation/inbound/calls.js';
import { takeTour, type Captured, type DeliveryKind, type ReceiverAuth } from './receiver_tour.js';

export interface CheckOptions {
  url: string;
  kind: DeliveryKind;
  auth: ReceiverAuth;
  /** The switch's message format (sms, mms). */
  format: string;
  /** How long the receiver has to answer, dipswitch's delivery time limit by default. */
  timeLimitMs?: number;
  /** When the first attempt of the retry case is abandoned (its answer is never read). */
  abandonAfterMs?: number;
}

export interface CaseResult {
  case: string;
  /** What a correct receiver does. */
  expected: string;
  /** What it did. */
  did: string;
  passed: boolean;
}

/** A body bigger than this is the oversized case's. */
export const OVERSIZED_BYTES = 1024 * 1024 + 1;
const ABANDON_AFTER_MS = 100;

type Outcome = { status: number; contentType: string; body: string; ms: number } | { error: string; ms: number };

/** One request to the receiver; `abandonMs` hangs up that long after sending, answering nothing. */
function send(url: string, d: Captured, timeLimitMs: number, abandonMs?: number): Promise<Outcome> {
  const started = performance.now();
  const ms = () => Math.round(performance.now() - started);
  return new Promise((resolve) => {
    const target = new URL(url);
    const call = (target.protocol === 'https:' ? httpsRequest : httpRequest)(
      target,
      { method: d.method, headers: { ...d.headers, 'content-length': String(d.body.length) }, timeout: timeLimitMs },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            contentType: String(res.headers['content-type'] ?? ''),
            body: Buffer.concat(chunks).toString('utf8'),
            ms: ms(),
          }),
        );
        res.on('error', (e) => resolve({ error: e.message, ms: ms() }));
      },
    );
    call.on('timeout', () => call.destroy(new Error(`no answer within ${timeLimitMs} ms`)));
    call.on('error', (e) => resolve({ error: e.message, ms: ms() }));
    call.end(d.body);
    if (abandonMs !== undefined)
      setTimeout(() => {
        call.destroy();
        resolve({ error: 'abandoned', ms: ms() });
      }, abandonMs);
  });
}

const told = (o: Outcome): string => ('error' in o ? o.error : `${o.status} in ${o.ms} ms`);
const isAck = (o: Outcome) => !('error' in o) && o.status >= 200 && o.status < 300;

/** A route callback's answer dipswitch can read: 200 with `TYPE:DATA` text (SKIP too) or http_route_response JSON. */
const isRouting = (o: Outcome) =>
  !('error' in o) &&
  (parseRouteReply(o.status, o.contentType, o.body).type !== 'SKIP' ||
    (o.status === 200 && /^text\/plain/i.test(o.contentType) && /^\s*SKIP\s*:/i.test(o.body)));

/** The same delivery with other headers (undefined drops one) or another body, signed again when HMAC. */
function variant(
  d: Captured,
  auth: ReceiverAuth,
  change: { headers?: Record<string, string | undefined>; body?: Buffer },
): Captured {
  const body = change.body ?? d.body;
  const headers: Record<string, string> = { ...d.headers };
  if (change.body && auth.method === 'HMAC_SHA256') headers.authorization = signature(auth.secret ?? '', body);
  for (const [k, v] of Object.entries(change.headers ?? {})) {
    if (v === undefined) delete headers[k];
    else headers[k] = v;
  }
  return { ...d, headers, body };
}

const signature = (secret: string, body: Buffer) =>
  `SERVICE0-HMAC-SHA256 ${createHmac('sha256', secret).update(body).digest('hex')}`;

/** The body padded past 1 MB without changing what it says (whitespace after JSON, XML or MIME; a field for a form). */
function oversized(d: Captured): Buffer {
  const missing = OVERSIZED_BYTES - d.body.length;
  const form = /x-www-form-urlencoded/i.test(d.headers['content-type'] ?? '');
  return Buffer.concat([d.body, Buffer.from(form ? `&padding=${'x'.repeat(missing)}` : ' '.repeat(missing))]);
}

/** The Authorization headers a receiver must refuse, by case, for its auth method. */
function refusedAuth(auth: ReceiverAuth, d: Captured): { name: string; authorization: string | undefined }[] {
  if (auth.method === 'NONE') return [];
  const secret = auth.secret ?? '';
  const wrong =
    auth.method === 'BASIC'
      ? `Basic ${Buffer.from(`${auth.identity ?? ''}:${secret}-wrong`).toString('base64')}`
      : auth.method === 'BEARER'
        ? `Bearer ${secret}-wrong`
        : `Bearer ${secret}`;
  return [
    ...(auth.method === 'HMAC_SHA256'
      ? [{ name: 'a bad signature', authorization: signature(`${secret}-wrong`, d.body) }]
      : []),
    { name: 'no Authorization', authorization: undefined },
    { name: 'a wrong Authorization', authorization: wrong },
  ];
}

/** Runs every case against the receiver, in order, and answers each case's result. */
export async function checkReceiver(opts: CheckOptions): Promise<CaseResult[]> {
  const limit = opts.timeLimitMs ?? DELIVERY_TIMEOUT_MS;
  const { variants, fresh } = await takeTour(opts.kind, opts.auth, opts.format);
  const [first] = variants;
  if (!first || fresh.length < 4)
    throw new Error(`dipswitch made ${variants.length + fresh.length} ${opts.kind} deliveries; the cases need more`);
  const post = (d: Captured, abandonMs?: number) => send(opts.url, d, limit, abandonMs);
  const route = opts.kind === 'route';
  const ok = route ? isRouting : isAck;
  const acks = route
    ? `answers 200 with a routing answer within ${limit} ms`
    : `acknowledges it: 2xx within ${limit} ms`;
  const results: CaseResult[] = [];
  const judge = (name: string, expected: string, did: string, passed: boolean) =>
    results.push({ case: name, expected, did, passed });

  for (const d of variants) {
    const o = await post(d);
    judge(`${opts.kind} ${d.label}`, acks, told(o), ok(o));
  }
  const again = await post(first);
  judge(
    `the same ${opts.kind} ${first.label} twice`,
    `${acks} again (a duplicate is still acknowledged)`,
    told(again),
    ok(again),
  );

  const [earlier, later, afterBig, retried] = fresh as [Captured, Captured, Captured, Captured];
  const late = await post(later);
  const early = await post(earlier);
  judge(
    'two deliveries out of order (the later first)',
    `${acks}, each`,
    `${told(late)}, then ${told(early)}`,
    ok(late) && ok(early),
  );

  for (const refused of refusedAuth(opts.auth, first)) {
    const o = await post(variant(first, opts.auth, { headers: { authorization: refused.authorization } }));
    judge(
      `${opts.kind} with ${refused.name}`,
      'refuses it: answers, not 2xx (401 or 403)',
      told(o),
      !('error' in o) && !isAck(o),
    );
  }

  const big = await post(variant(first, opts.auth, { body: oversized(first) }));
  judge(
    `a body over 1 MB (${OVERSIZED_BYTES} bytes)`,
    `answers within ${limit} ms (2xx or 413)`,
    told(big),
    !('error' in big),
  );
  const next = await post(afterBig);
  judge('the next delivery after the big body', acks, told(next), ok(next));

  await post(retried, opts.abandonAfterMs ?? ABANDON_AFTER_MS);
  const retry = await post(retried);
  judge(
    `a retry after an attempt abandoned at ${opts.abandonAfterMs ?? ABANDON_AFTER_MS} ms`,
    `${acks} (the retry is the same request)`,
    told(retry),
    ok(retry),
  );
  return results;
}

/** The results as a table: case, what a correct receiver does, what it did, pass or FAIL. */
export function formatResults(results: CaseResult[]): string {
  const head = ['case', 'a correct receiver', 'it did', 'result'];
  const rows = results.map((r) => [r.case, r.expected, r.did, r.passed ? 'pass' : 'FAIL']);
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (r: string[]) => `| ${r.map((c, i) => c.padEnd(widths[i] ?? 0)).join(' | ')} |`;
  const failed = results.filter((r) => !r.passed).length;
  return [
    line(head),
    `|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`,
    ...rows.map(line),
    '',
    `${results.length - failed} passed, ${failed} failed`,
  ].join('\n');
}
