/**
 * The request journal (`GET /__sim/requests`): every call with its operation, account, status,
 * latency and bodies, secrets redacted when read. Bounded by bytes (64 MB by default): the oldest
 * calls go first; a body over 16 KB is kept as its own cut copy (never a view of the request's
 * buffer), and a call without a valid key keeps no body at all.
 */
import { wallClock } from '../deps.js';
import type { Peers } from '../store/store.js';
import { redactBody, redactHeaders, redactText } from '../engine/redact.js';
import { lostWith, type Warn } from '../domain/side_paths.js';
import {
  matches,
  type JournalEntry,
  type JournalFilter,
  type JournalLog,
  type JournalScope,
  type Kept,
  type JournalApi,
} from '../store/shared.js';
import { parseJson } from '../domain/json.js';

export type { JournalEntry, JournalFilter, JournalLog, JournalScope, Kept, JournalApi } from '../store/shared.js';

export { REDACTED } from '../engine/redact.js';

/** Bodies longer than this are kept cut. */
export const JOURNAL_BODY_LIMIT = 16 * 1024;

/** Live readers (`GET /__sim/requests/stream`) at once. */
export const JOURNAL_STREAMS = 50;

/** Texts longer than this are kept as bytes outside the JavaScript heap. */
const INLINE_TEXT = 1024;

/** The off-heap bytes long texts are copied into, a slab at a time; a text over a quarter of one gets its own. */
const SLAB_BYTES = 1 << 20;

/**
 * Where a journal keeps its long texts: slabs of bytes outside the JavaScript heap, filled in order,
 * each kept text a view of its slab. A full journal then does not make the garbage collector grow its
 * heap to twice the journal's size; one slab a megabyte (not a buffer a call) keeps the allocator
 * and the collector out of the hot path. The journal drops its oldest calls first, so a slab is freed
 * once the calls it holds are all gone.
 */
class Slabs {
  private slab = Buffer.alloc(0);
  private used = 0;

  /** A fresh copy of at most JOURNAL_BODY_LIMIT characters, so the original text (and the buffer behind it) can go. */
  cut(text: string): string | Buffer {
    if (text.length <= INLINE_TEXT) return text;
    const kept = text.length <= JOURNAL_BODY_LIMIT ? text : `${text.slice(0, JOURNAL_BODY_LIMIT)}… (cut at 16 KB)`;
    const n = Buffer.byteLength(kept);
    if (n > SLAB_BYTES / 4) {
      const own = Buffer.allocUnsafeSlow(n);
      own.write(kept);
      return own;
    }
    if (this.used + n > this.slab.length) {
      this.slab = Buffer.allocUnsafeSlow(SLAB_BYTES);
      this.used = 0;
    }
    this.slab.write(kept, this.used);
    this.used += n;
    return this.slab.subarray(this.used - n, this.used);
  }
}

/** A body as it came: JSON text parsed when it parses, else kept as text; then redacted. */
function shown(body: unknown): unknown {
  if (body === undefined) return null;
  if (Buffer.isBuffer(body)) return shown(body.toString('utf8'));
  if (typeof body !== 'string') return redactBody(body);
  if (body === '') return null;
  const parsed = parseJson(body);
  // not JSON (or cut): the secret fields are found in the text itself
  return parsed === undefined ? redactText(body) : redactBody(parsed);
}

/** A kept call as the control API shows it, bodies parsed and redacted. */
function shownEntry({ headers, query, requestBody, responseText, api: _api, bytes: _bytes, ...e }: Kept): JournalEntry {
  return {
    ...e,
    request: { headers, ...(query ? { query } : {}), body: shown(requestBody) },
    response: { body: shown(responseText) },
  };
}

export interface Recorded {
  api: JournalApi;
  at: string;
  wall_at: string;
  method: string;
  path: string;
  operation_id: string | null;
  account_id: string | null;
  /** Null: no answer was sent (a `drop` fault). */
  status: number | null;
  latency_ms: number;
  /** The call's trace, when traces are on (docs/observability.md). */
  trace_id?: string | null;
  headers: Record<string, string | string[] | undefined>;
  /** The query parameters as sent, when there were any. */
  query?: Record<string, string | string[]>;
  /** The request body as text (JSON), or a multipart upload's fields; none for a caller without a valid key. */
  requestBody: string | Record<string, unknown> | undefined;
  responseText: string;
}

/**
 * One exchange at any of the front doors (an HTTP call of /api/v1 or /__sim, an SMPP PDU and its answer, a
 * lifecycle step the clock ran): the one record the journal keeps of each. What an exchange does not have
 * (an operation, headers, a request body, a latency) is left out; its wall time is the journal's to read.
 */
export type Exchange = Omit<Recorded, 'wall_at' | 'operation_id' | 'headers' | 'requestBody' | 'latency_ms'> &
  Partial<Pick<Recorded, 'operation_id' | 'headers' | 'requestBody' | 'latency_ms'>>;

/** A live reader: called with each call journaled from now on that its filter matches. */
export type JournalListener = (entry: JournalEntry) => void;

/** The characters of the headers' names and values, and 6 a header for JSON's quotes and punctuation. */
function textLength(headers: Record<string, string>): number {
  let n = 2;
  for (const k in headers) n += k.length + (headers[k]?.length ?? 0) + 6;
  return n;
}

export class Journal {
  private readonly listeners = new Map<JournalListener, JournalFilter>();
  private readonly slabs = new Slabs();

  constructor(
    private readonly log: JournalLog,
    peers?: Peers,
    warn: Warn = () => {},
    private readonly wall: () => number = wallClock,
  ) {
    // a call another instance kept reaches this one's live readers
    peers?.hear('journal', (id) => {
      if (!this.listeners.size) return;
      void this.log
        .get(Number(id))
        .then((kept) => kept && this.tell(kept))
        .catch(lostWith(warn, `call ${id} another instance journaled, for the live readers here,`));
    });
  }

  /** Keeps an exchange; resolves once it is kept (the caller gets the answer after). */
  record(exchange: Exchange): Promise<void> {
    return this.keep({
      operation_id: null,
      headers: {},
      requestBody: undefined,
      latency_ms: 0,
      ...exchange,
      wall_at: new Date(this.wall()).toISOString(),
    });
  }

  private async keep(call: Recorded): Promise<void> {
    const requestBody = typeof call.requestBody === 'string' ? this.slabs.cut(call.requestBody) : call.requestBody;
    const responseText = this.slabs.cut(call.responseText);
    const headers = redactHeaders(call.headers);
    const bytes =
      400 +
      call.path.length +
      textLength(headers) +
      (typeof requestBody === 'string' || Buffer.isBuffer(requestBody)
        ? requestBody.length
        : JSON.stringify(requestBody ?? null).length) +
      responseText.length;
    const { api, at, wall_at, method, path, operation_id, account_id, status, latency_ms } = call;
    const kept = await this.log.append({
      api,
      at,
      wall_at,
      method,
      path,
      operation_id,
      account_id,
      status,
      latency_ms,
      ...(call.trace_id ? { trace_id: call.trace_id } : {}),
      headers,
      ...(call.query && Object.keys(call.query).length ? { query: call.query } : {}),
      requestBody,
      responseText,
      bytes,
    });
    this.tell(kept);
  }

  private tell(kept: Kept): void {
    for (const [listener, filter] of this.listeners) if (matches(kept, filter)) listener(shownEntry(kept));
  }

  /** A page of the calls that match, newest first; `cursor` is the `next_cursor` of the page before. */
  async page(
    f: JournalFilter,
    limit: number,
    cursor?: string,
  ): Promise<{ count: number; requests: JournalEntry[]; next_cursor: string | null }> {
    const { count, found, more } = await this.log.page(f, limit, cursor === undefined ? Infinity : Number(cursor));
    const last = found[found.length - 1];
    return {
      count,
      requests: found.map(shownEntry),
      next_cursor: more && last ? String(last.id) : null,
    };
  }

  /**
   * Calls `listener` with every call journaled from now on that `filter` matches, until the function
   * answered is called; null when JOURNAL_STREAMS listeners are already there.
   */
  listen(filter: JournalFilter, listener: JournalListener): (() => void) | null {
    if (this.listeners.size >= JOURNAL_STREAMS) return null;
    this.listeners.set(listener, filter);
    return () => this.listeners.delete(listener);
  }

  clear(scope?: JournalScope): Promise<void> {
    return this.log.clear(scope);
  }

  /** The bytes the kept calls count for. */
  bytes(): Promise<number> {
    return this.log.bytes();
  }
}
