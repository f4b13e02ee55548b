/**
 * The outbox: every effect of the simulation is first a row written in the same unit of work as
 * the change that causes it, and runs only after that work is committed. Events go to the
 * account's subscriptions (spec: Events; interface.md section 8), CDRs to its call data webhook,
 * and each delivery is a step on the account's clock, so a restart resumes every pending attempt.
 */
import type { Ids } from '../deps.js';
import type { components } from '../generated/api.js';
import type { DeliveryKind, DeliveryRow, OutboundSpec, Settle, StepKind } from '../domain/rows.js';
import type { AccountView } from '../store/account_view.js';
import type { Clock } from './clock.js';
import { redactHeaders, redactUrl } from './redact.js';

export type Topic = components['schemas']['event_topic'];
export type EventKind = components['schemas']['event_kind'];
export type CdrKind = 'SMS' | 'MMS' | 'LRN' | 'CNAM' | 'MCL';

export interface ResourceRef {
  type: string;
  data: unknown;
}

export interface SimPort {
  /** An event to every enabled subscription of the account with the topic. */
  publish(topic: Topic, kind: EventKind, resource: ResourceRef): Promise<void>;
  /** A billed CDR to the account's call data webhook; false when it has none. */
  cdr(kind: CdrKind, fields: { from: string; to: string } & Record<string, unknown>): Promise<boolean>;
  /** A lifecycle step of `kind` for `ref`, due at `atMs` on the account's clock. */
  schedule(kind: StepKind, ref: string, atMs: number): Promise<void>;
  /**
   * A delivery, logged now and attempted after the commit; a failure is retried on the clock if
   * asked. `now: true` logs it without a step: the caller sends it at once (an HTTP route callback);
   * `atMs` sends it first at that time on the account's clock rather than now.
   */
  deliver(
    kind: DeliveryKind,
    request: OutboundSpec,
    opts: { retry: boolean; settle?: Settle; now?: boolean; atMs?: number },
  ): Promise<DeliveryRow>;
  /** The earliest time (ms) of a step scheduled by this work, so the scheduler can wake for it. */
  readonly earliest: number | null;
}

/** The account's settled deliveries kept in the log beyond which the oldest are dropped. */
export const DELIVERY_LOG_PER_ACCOUNT = 2_000;
/** Shown bodies of the delivery log are cut here (the body sent is whole). */
const SHOWN_BODY_LIMIT = 64 * 1024;

interface Destination {
  protocol: string;
  data?: string | null;
  auth_method?: string;
  auth_identity?: string | null;
  custom_headers?: readonly { key: string; value: string }[];
  custom_query_params?: readonly { key: string; value: string }[];
}

/** The SFTP login for an auth method (spec: BASIC logs in with identity and secret; BEARER with a placeholder user). */
export function sftpLogin(
  method: string | undefined,
  identity: string | null | undefined,
  secret: string | null | undefined,
): { username: string; password: string } {
  if (method === 'BASIC') return { username: identity ?? '', password: secret ?? '' };
  return { username: 'dipswitch', password: method === 'BEARER' ? (secret ?? '') : '' };
}

/**
 * What an auth method lacks to be sent: BASIC an identity or a secret, BEARER and HMAC_SHA256 a
 * secret. The record was accepted without them (the spec requires neither); the delivery goes out
 * without credentials, the receiver answers as it will, and the delivery log says why.
 */
export function authGap(
  method: string | undefined,
  identity: string | null | undefined,
  secret: string | null | undefined,
): string | null {
  const lacks = [
    method === 'BASIC' && !identity ? 'identity' : null,
    method && method !== 'NONE' && !secret ? 'secret' : null,
  ].filter(Boolean);
  return lacks.length ? `auth method ${method} has no ${lacks.join(' and no ')}: sent without credentials` : null;
}

/** The Authorization header for NONE, BASIC or BEARER auth (spec: Call data webhook, Event subscription); none when incomplete. */
export function authHeader(
  method: string | undefined,
  identity: string | null | undefined,
  secret: string | null | undefined,
): Record<string, string> {
  if (authGap(method, identity, secret)) return {};
  if (method === 'BASIC')
    return { authorization: `Basic ${Buffer.from(`${identity ?? ''}:${secret ?? ''}`).toString('base64')}` };
  if (method === 'BEARER') return { authorization: `Bearer ${secret ?? ''}` };
  return {};
}

/** The URL with the custom query parameters added. */
export function withQuery(url: string, params: readonly { key: string; value: string }[] = []): string {
  const u = new URL(url);
  for (const p of params) u.searchParams.append(p.key, p.value);
  return u.toString();
}

/** An HTTP POST of the JSON with the destination's auth, headers and query parameters; or its SFTP upload as `filename`. */
function target(d: Destination, secret: string | null, filename: string, body: string): OutboundSpec {
  if (d.protocol === 'SFTP') {
    return {
      method: 'SFTP',
      url: d.data ?? '',
      headers: {},
      body,
      sftp: { ...sftpLogin(d.auth_method, d.auth_identity, secret), filename },
    };
  }
  let url = d.data ?? '';
  try {
    url = withQuery(url, d.custom_query_params);
  } catch {
    // not a URL: the attempt fails and says so
  }
  return {
    method: 'POST',
    url,
    headers: {
      'content-type': 'application/json',
      ...Object.fromEntries((d.custom_headers ?? []).map((h) => [h.key.toLowerCase(), h.value])),
      ...authHeader(d.auth_method, d.auth_identity, secret),
    },
    body,
    note: authGap(d.auth_method, d.auth_identity, secret),
  };
}

export function outbox(store: AccountView, clock: Clock, ids: Ids): SimPort {
  const { accountId } = store;
  let earliest: number | null = null;

  const schedule = async (kind: StepKind, ref: string, atMs: number): Promise<void> => {
    const at = new Date(atMs).toISOString();
    const seq = await store.nextSeq();
    await store.steps.insert({ seq, data: { id: ids.uuid(), inserted_at: clock.iso(), at, kind, ref } });
    earliest = earliest === null ? atMs : Math.min(earliest, atMs);
  };

  const deliver: SimPort['deliver'] = async (kind, request, opts) => {
    const now = clock.iso();
    const shown =
      request.body.length > SHOWN_BODY_LIMIT
        ? `${request.body.slice(0, SHOWN_BODY_LIMIT)}… (cut at 64 KB)`
        : request.body;
    const row = await store.deliveries.insert({
      request,
      retry: opts.retry,
      settle: opts.settle ?? null,
      data: {
        id: ids.ulid(),
        inserted_at: now,
        account_id: accountId,
        kind,
        method: request.method,
        target: redactUrl(request.url),
        headers: redactHeaders(request.headers),
        body: request.body_file ? `(file ${request.body_file.archive_name ?? 'result'})` : shown,
        attempts: [],
        outcome: 'pending',
        next_attempt_at: opts.atMs === undefined ? now : new Date(opts.atMs).toISOString(),
        note: request.note ?? null,
      },
    });
    if (!opts.now) await schedule('delivery', row.data.id, opts.atMs ?? clock.ms());
    await trimLog(store);
    return row;
  };

  return {
    get earliest() {
      return earliest;
    },
    schedule,
    deliver,
    async publish(topic, kind, resource) {
      const subs = (await store.eventSubscriptions.list()).filter(
        (s) =>
          s.data.enabled &&
          (s.data.topics ?? []).includes(topic) &&
          !!s.data.data &&
          (s.data.protocol === 'HTTP' || s.data.protocol === 'SFTP'),
      );
      if (!subs.length) return;
      const event = { type: 'event', data: { id: ids.ulid(), topic, kind, occurred_at: clock.iso(), resource } };
      const body = JSON.stringify(event);
      for (const s of subs)
        await deliver('event', target(s.data, s.auth_secret, `event-${event.data.id}.json`, body), { retry: true });
    },
    async cdr(kind, fields) {
      const hook = (await store.callDataWebhooks.list())[0];
      if (!hook || (hook.data.protocol !== 'HTTP' && hook.data.protocol !== 'SFTP') || !hook.data.data) return false;
      const cdr = { type: 'cdr', data: { id: ids.ulid(), kind, billed_at: clock.iso(), ...fields } };
      await deliver('cdr', target(hook.data, hook.auth_secret, `cdr-${cdr.data.id}.json`, JSON.stringify(cdr)), {
        retry: true,
      });
      return true;
    },
  };
}

/** Keeps the account's delivery log bounded: the oldest settled deliveries go first. */
async function trimLog(store: AccountView): Promise<void> {
  const all = await store.deliveries.list();
  const excess = all.length - DELIVERY_LOG_PER_ACCOUNT;
  if (excess <= 0) return;
  // a look at the oldest few is enough: the log shrinks one delivery at a time as it grows
  const settled = all.slice(0, 100).filter((d) => !['pending', 'retrying', 'held', 'waiting'].includes(d.data.outcome));
  for (const d of settled.slice(0, excess)) await store.deliveries.remove(d);
}
