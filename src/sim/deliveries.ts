/**
 * Every outbound delivery (interface.md section 8): a real request to the client's endpoint,
 * recorded with each attempt in the delivery log (secrets redacted), and retried on the account's
 * clock after 1 min, 5 min, 30 min, 2 h and 6 h when it fails.
 */
import type { Deps } from '../deps.js';
import type { ScheduledStep } from '../store/rows.js';
import { send, type OutboundRequest, type OutboundResponse } from './http_client.js';

export type DeliveryKind = 'event' | 'cdr' | 'sms' | 'dlr' | 'route' | 'result';

export interface Attempt {
  at: string;
  status: number | null;
  error: string | null;
  duration_ms: number;
}

export interface DeliveryRecord {
  id: string;
  account_id: string;
  kind: DeliveryKind;
  method: string;
  target: string;
  headers: Record<string, string>;
  body: string;
  attempts: Attempt[];
  outcome: 'delivered' | 'retrying' | 'failed' | 'refused';
}

/** Whether `--outbound-allow` lets a delivery reach this URL's host. */
export function outboundAllowed(allow: string[], url: string): boolean {
  if (!allow.length) return true;
  let host: string;
  try {
    host = new URL(url.includes('://') ? url : `sftp://${url}`).hostname.replace(/^\[|\]$/g, '');
  } catch {
    return false;
  }
  return allow.some((a) => (a.startsWith('*.') ? host.endsWith(a.slice(1)) : host === a));
}

export const RETRY_BACKOFF_MS = [60_000, 5 * 60_000, 30 * 60_000, 2 * 3600_000, 6 * 3600_000];
export const DELIVERY_TIMEOUT_MS = 5_000;
const LOG_LIMIT = 10_000;
const BODY_LIMIT = 64 * 1024;
const SECRET_HEADERS = /^(authorization|proxy-authorization|x-api-key|cookie)$/i;

/** What was sent, with secrets replaced: safe to show in `GET /__sim/deliveries`. */
function redact(headers: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).map(([k, v]) => [k, SECRET_HEADERS.test(k) ? `${v.split(' ')[0]} [redacted]` : v]));
}

export interface DeliveryOptions {
  /** Retry on failure (events, CDRs, results); a route callback is answered now or never. */
  retry: boolean;
  /** Called once with the final outcome (after retries). */
  onSettled?: (ok: boolean, deps: Deps) => void;
}

export class Deliveries {
  private readonly log: DeliveryRecord[] = [];
  private readonly settled = new Map<string, DeliveryOptions['onSettled']>();

  list(): readonly DeliveryRecord[] {
    return this.log;
  }

  clear(): void {
    this.log.length = 0;
    this.settled.clear();
    this.held.clear();
  }

  /** Sends now; answers the response, or null when it failed. A failure is retried if asked. */
  async deliver(deps: Deps, accountId: string, kind: DeliveryKind, req: OutboundRequest, opts: DeliveryOptions): Promise<OutboundResponse | null> {
    const body = typeof req.body === 'string' ? req.body : req.body.toString('utf8');
    const record: DeliveryRecord = {
      id: deps.ids.ulid(), account_id: accountId, kind, method: req.method, target: req.url,
      headers: redact(req.headers), body: body.length > BODY_LIMIT ? `${body.slice(0, BODY_LIMIT)}…` : body, attempts: [], outcome: 'retrying',
    };
    this.log.push(record);
    if (this.log.length > LOG_LIMIT) this.log.splice(0, this.log.length - LOG_LIMIT);
    if (opts.onSettled) this.settled.set(record.id, opts.onSettled);
    if (!outboundAllowed(deps.outboundAllow, req.url)) {
      record.attempts.push({ at: deps.clock.iso(), status: null, error: 'refused: the host is not in --outbound-allow', duration_ms: 0 });
      record.outcome = 'refused';
      this.settle(deps, record, false);
      record.outcome = 'refused';
      return null;
    }
    const fault = deps.faults.outbound(req.url, accountId);
    if (fault?.reorder) {
      // held back: it goes out right after the next delivery to the same endpoint
      record.outcome = 'retrying';
      this.held.set(req.url, [...(this.held.get(req.url) ?? []), { record, req, retry: opts.retry }]);
      return null;
    }
    const res = fault?.fail ? this.injectedFailure(deps, record) : await this.attempt(deps, record, req);
    if (res && fault?.duplicate) await this.attempt(deps, record, req);
    if (res || !opts.retry) this.settle(deps, record, res !== null);
    else this.scheduleRetry(deps, record, req);
    await this.releaseHeld(deps, req.url);
    return res;
  }

  private readonly held = new Map<string, { record: DeliveryRecord; req: OutboundRequest; retry: boolean }[]>();

  /** Sends what an out-of-order fault held back for this endpoint. */
  private async releaseHeld(deps: Deps, url: string): Promise<void> {
    const waiting = this.held.get(url);
    if (!waiting?.length) return;
    this.held.delete(url);
    for (const { record, req, retry } of waiting) {
      const res = await this.attempt(deps, record, req);
      if (res || !retry) this.settle(deps, record, res !== null);
      else this.scheduleRetry(deps, record, req);
    }
  }

  /** An attempt an outbound fault failed before it left. */
  private injectedFailure(deps: Deps, record: DeliveryRecord): null {
    record.attempts.push({ at: deps.clock.iso(), status: null, error: 'injected fault', duration_ms: 0 });
    return null;
  }

  /** The scheduler's runner for a due retry. */
  readonly retry = async (step: ScheduledStep, deps: Deps): Promise<string> => {
    const record = this.log.find((r) => r.id === step.ref);
    const { req } = step.data as { req: OutboundRequest };
    if (!record) return `delivery ${step.ref} is no longer logged`;
    const res = deps.faults.outbound(req.url, record.account_id)?.fail ? this.injectedFailure(deps, record) : await this.attempt(deps, record, req);
    if (res) {
      this.settle(deps, record, true);
      return `delivery ${record.kind} to ${record.target}: attempt ${record.attempts.length} answered ${res.status}`;
    }
    if (record.attempts.length > RETRY_BACKOFF_MS.length) {
      this.settle(deps, record, false);
      return `delivery ${record.kind} to ${record.target}: failed after ${record.attempts.length} attempts`;
    }
    this.scheduleRetry(deps, record, req);
    return `delivery ${record.kind} to ${record.target}: attempt ${record.attempts.length} failed, retrying`;
  };

  private async attempt(deps: Deps, record: DeliveryRecord, req: OutboundRequest): Promise<OutboundResponse | null> {
    const started = process.hrtime.bigint();
    const attempt: Attempt = { at: deps.clock.iso(), status: null, error: null, duration_ms: 0 };
    record.attempts.push(attempt);
    try {
      const res = await send(req, DELIVERY_TIMEOUT_MS);
      attempt.status = res.status;
      if (res.status < 200 || res.status > 299) attempt.error = `answered ${res.status}`;
      return attempt.error ? null : res;
    } catch (e) {
      attempt.error = (e as Error).message;
      return null;
    } finally {
      attempt.duration_ms = Number(process.hrtime.bigint() - started) / 1e6;
    }
  }

  private scheduleRetry(deps: Deps, record: DeliveryRecord, req: OutboundRequest): void {
    record.outcome = 'retrying';
    const wait = RETRY_BACKOFF_MS[record.attempts.length - 1] ?? RETRY_BACKOFF_MS[RETRY_BACKOFF_MS.length - 1]!;
    deps.scheduler.at(record.account_id, deps.clock.now().getTime() + wait, 'delivery', record.id, { req });
  }

  private settle(deps: Deps, record: DeliveryRecord, ok: boolean): void {
    record.outcome = ok ? 'delivered' : 'failed';
    const done = this.settled.get(record.id);
    this.settled.delete(record.id);
    done?.(ok, deps);
  }
}

/**
 * The SFTP login for an auth method (spec: BASIC logs in with identity and secret; BEARER uses a
 * placeholder username and the secret as password; NONE placeholder values).
 */
export function sftpLogin(method: string | undefined, identity: string | null | undefined, secret: string | null | undefined): { username: string; password: string } {
  if (method === 'BASIC') return { username: identity ?? '', password: secret ?? '' };
  return { username: 'dipswitch', password: method === 'BEARER' ? secret ?? '' : '' };
}

/** The Authorization header for NONE, BASIC or BEARER auth (spec: Call data webhook, Event subscription). */
export function authHeader(method: string | undefined, identity: string | null | undefined, secret: string | null | undefined): Record<string, string> {
  if (method === 'BASIC') return { authorization: `Basic ${Buffer.from(`${identity ?? ''}:${secret ?? ''}`).toString('base64')}` };
  if (method === 'BEARER') return { authorization: `Bearer ${secret ?? ''}` };
  return {};
}

/** The URL with the custom query parameters added. */
export function withQuery(url: string, params: { key: string; value: string }[] = []): string {
  const u = new URL(url);
  for (const p of params) u.searchParams.append(p.key, p.value);
  return u.toString();
}
