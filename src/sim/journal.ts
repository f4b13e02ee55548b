/**
 * The request journal (`GET /__sim/requests`): every API call with its operation, account, status,
 * latency and bodies, secrets redacted everywhere, the newest 5,000 kept.
 */
import { redactBody, redactHeaders, redactText } from './redact.js';

export interface JournalEntry {
  id: number;
  at: string;
  method: string;
  path: string;
  operation_id: string | null;
  account_id: string | null;
  status: number;
  latency_ms: number;
  request: { headers: Record<string, string>; body: unknown };
  response: { body: unknown };
}

const LIMIT = 5_000;
/** Bodies longer than this are kept cut (the journal stays bounded: at most about 6,000 × 2 × 64 KB). */
const BODY_LIMIT = 64 * 1024;
const cut = (body: unknown): unknown => (typeof body === 'string' && body.length > BODY_LIMIT ? `${body.slice(0, BODY_LIMIT)}… (cut at 64 KB)` : body);

export { REDACTED } from './redact.js';

export interface JournalFilter {
  path?: string;
  method?: string;
  status?: number;
  operation_id?: string;
  account_id?: string;
  since?: string;
  until?: string;
}

/** What is kept per call: the texts as they crossed the wire, redacted when read (cheap on the hot path). */
interface Kept extends Omit<JournalEntry, 'request' | 'response'> {
  headers: Record<string, string | string[] | undefined>;
  requestBody: unknown;
  responseText: string;
}

/** A body as it came: JSON text parsed when it parses, else kept as text; then redacted. */
function shown(body: unknown): unknown {
  if (typeof body !== 'string') return redactBody(body);
  if (body === '') return null;
  try {
    return redactBody(JSON.parse(body));
  } catch {
    // not JSON (or cut): the secret fields are found in the text itself
    return redactText(body);
  }
}

export class Journal {
  private entries: Kept[] = [];
  private next = 1;

  record(entry: Omit<JournalEntry, 'id' | 'request' | 'response'> & { request: { headers: Record<string, string | string[] | undefined>; body: unknown }; response: { text: string } }): void {
    const { request, response, ...rest } = entry;
    this.entries.push({ id: this.next++, ...rest, headers: request.headers, requestBody: cut(request.body), responseText: cut(response.text) as string });
    // trimmed in steps, not on every call: dropping one of 5,000 each time is a copy of them all
    if (this.entries.length > LIMIT * 1.2) this.entries = this.entries.slice(-LIMIT);
  }

  list(f: JournalFilter = {}): JournalEntry[] {
    return this.entries.slice(-LIMIT).filter((e) => (!f.path || e.path.includes(f.path))
      && (!f.method || e.method === f.method.toUpperCase())
      && (f.status === undefined || e.status === f.status)
      && (!f.operation_id || e.operation_id === f.operation_id)
      && (!f.account_id || e.account_id === f.account_id)
      && (!f.since || e.at >= f.since)
      && (!f.until || e.at <= f.until))
      .map(({ headers, requestBody, responseText, ...e }) => ({ ...e, request: { headers: redactHeaders(headers), body: shown(requestBody) }, response: { body: shown(responseText) } }));
  }

  clear(): void {
    this.entries = [];
  }
}
