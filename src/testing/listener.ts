/**
 * A listener of a (hosted) dipswitch's deliveries, for `dipswitch listen` and a client team's tests:
 * it holds `GET /__sim/listen` open with an account's key, sends each delivery on to a local URL with
 * its method, headers and body as they came (a signature over the body stays valid), and posts the
 * local answer back. After a cut it connects again; the attempt in flight then failed on the server
 * and is retried there as the delivery's policy says.
 */
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { elapsedMs, stopwatch, wallClock } from '../deps.js';
import { send } from '../engine/transport/http_client.js';
import { OutboundPolicy } from '../engine/transport/outbound.js';
import type { components } from '../generated/sim.js';

type ListenedDelivery = components['schemas']['listened_delivery'];
type ListenerAnswer = components['schemas']['listener_answer'];
export type ListenerShape = components['schemas']['listener'];

/** How long the local receiver has to answer (the server waits 10 s in all). */
const LOCAL_TIMEOUT_MS = 5_000;
/**
 * Of the local answer's body, what goes back to the server: its first 64 KB, which holds any routing a route
 * callback answers; the rest is cut (and said), so a large 2xx is taken, not refused as over the server's limit.
 */
export const ANSWERED_BODY = 64 * 1024;
/** Of its headers, the first 100, each value's first 8 KB (listener_answer's bounds). */
const ANSWERED_HEADERS = 100;
const ANSWERED_HEADER = 8192;
/** The local receiver, the server and its answers are reached as dipswitch reaches any receiver (a 1 MB answer at most). */
const POLICY = new OutboundPolicy();
/** Headers not sent on: they are the hop's own, made again for the local request. */
const HOP = new Set(['host', 'content-length', 'connection', 'transfer-encoding', 'keep-alive']);

export interface ListenOptions {
  /** The dipswitch, e.g. https://sandbox.example.com. */
  url: string;
  /** An account's (or a sandbox's) key: the listener receives that account's deliveries. */
  key: string;
  /** Where each delivery goes, e.g. http://127.0.0.1:3000; the target's path and query are kept under it. */
  forwardTo: string;
  /** The NAME of the `http(s)://NAME.listen.invalid` targets it receives (default `default`). */
  name?: string;
  /** Every HTTP delivery of the account, whatever its target. */
  all?: boolean;
  /** Each delivery once it was answered locally (or not). */
  onDelivery?(forwarded: Forwarded): void;
  /** The stream connected (again). */
  onListening?(listener: ListenerShape): void;
  /** The stream was cut; it connects again after `reconnectMs` (default 1 s). */
  onCut?(why: string): void;
  reconnectMs?: number;
  /**
   * A server that never answered once (a URL with a typo, a host that is not up) is given up after this
   * long, the listener stopped with the last cause (default 30 s); once connected, a cut is tried again for ever.
   */
  giveUpMs?: number;
}

/** How long a listener tries a server that never answered, by default. */
export const GIVE_UP_MS = 30_000;

/** One delivery as the listener forwarded it. */
export interface Forwarded {
  at: string;
  id: string;
  delivery_id: string;
  kind: string;
  target: string;
  forwarded_to: string;
  status: number | null;
  error: string | null;
  /** Why the server did not take the answer (it then retries the delivery); null when it did. */
  answer_error: string | null;
  /** The local answer's body was longer than ANSWERED_BODY: what went back to the server was cut. */
  body_cut: boolean;
  latency_ms: number;
}

export interface Listening {
  /** The first `listening` event: the server took the listener. */
  ready: Promise<ListenerShape>;
  /** Resolves with why the listener stopped for good (closed by the server, refused, or `close()`). */
  stopped: Promise<string>;
  close(): void;
}

/** The local URL of a target: the target's path and query under `forwardTo`'s path. */
export function localUrl(forwardTo: string, target: string): string {
  const base = new URL(forwardTo);
  let path = '';
  let search = '';
  try {
    const t = new URL(target);
    path = t.pathname === '/' ? '' : t.pathname;
    search = t.search;
  } catch {
    // a target that is not a URL keeps nothing of its own
  }
  if (path) base.pathname = `${base.pathname.replace(/\/$/, '')}${path}`;
  if (search) base.search = search;
  return base.toString();
}

/** Events of a text/event-stream, as they complete. */
function events(res: IncomingMessage, fn: (event: string, data: string) => void): void {
  let buffered = '';
  res.setEncoding('utf8');
  res.on('data', (chunk: string) => {
    buffered += chunk;
    let end: number;
    while ((end = buffered.indexOf('\n\n')) >= 0) {
      const block = buffered.slice(0, end);
      buffered = buffered.slice(end + 2);
      let event = 'message';
      const data: string[] = [];
      for (const line of block.split('\n')) {
        if (line.startsWith('event:')) event = line.slice(6).trim();
        else if (line.startsWith('data:')) data.push(line.slice(5).trimStart());
      }
      if (data.length) fn(event, data.join('\n'));
    }
  });
}

/** Sends one delivery on to its local URL and its answer (or why there was none) back to the server. */
async function forward(opts: ListenOptions, d: ListenedDelivery): Promise<Forwarded> {
  const started = stopwatch();
  const to = localUrl(opts.forwardTo, d.target);
  const headers = Object.fromEntries(Object.entries(d.headers).filter(([k]) => !HOP.has(k.toLowerCase())));
  let status: number | null = null;
  let error: string | null = null;
  let cut = false;
  let answer: ListenerAnswer;
  try {
    const sent = { method: d.method, url: to, headers, body: Buffer.from(d.body_base64, 'base64') };
    const got = await send(sent, LOCAL_TIMEOUT_MS, POLICY);
    status = got.status;
    cut = got.body.length > ANSWERED_BODY;
    const kept = Object.entries(got.headers).slice(0, ANSWERED_HEADERS);
    answer = {
      id: d.id,
      status: got.status,
      headers: Object.fromEntries(kept.map(([k, v]) => [k, v.slice(0, ANSWERED_HEADER)])),
      body: cut ? got.body.slice(0, ANSWERED_BODY) : got.body,
      ...(cut ? { body_cut: true } : {}),
    };
  } catch (e) {
    error = (e as Error).message;
    answer = { id: d.id, error: `${to}: ${error}`.slice(0, 2000) };
  }
  const latency_ms = elapsedMs(started);
  const answer_error = await answerBack(opts, answer);
  const at = new Date(wallClock()).toISOString();
  return {
    at,
    id: d.id,
    delivery_id: d.delivery_id,
    kind: d.kind,
    target: d.target,
    forwarded_to: to,
    status,
    error,
    answer_error,
    body_cut: cut,
    latency_ms,
  };
}

/**
 * Posts the local answer to the server; why it was not taken, if it was not (the server away or
 * refusing: the attempt then fails there in time and is retried).
 */
async function answerBack(opts: ListenOptions, answer: ListenerAnswer): Promise<string | null> {
  const headers = { authorization: `Bearer ${opts.key}`, 'content-type': 'application/json' };
  const url = `${opts.url.replace(/\/$/, '')}/__sim/listen/answers`;
  try {
    const taken = await send({ method: 'POST', url, headers, body: JSON.stringify(answer) }, LOCAL_TIMEOUT_MS, POLICY);
    return taken.status === 202 ? null : `the server answered ${taken.status}: ${taken.body.slice(0, 200)}`;
  } catch (e) {
    return (e as Error).message;
  }
}

/** One listener's connection, made again after each cut until it stops. */
class Connection {
  private done = false;
  private cutting = false;
  private current: { destroy(): void } | undefined;
  /** The listener once the server took it; why it stopped, once it did. */
  private shape: ListenerShape | undefined;
  private why: string | undefined;
  private readonly waiting: { resolve(l: ListenerShape): void; reject(e: Error): void }[] = [];
  private stop: (why: string) => void = () => undefined;
  /** When the first try to connect was made (a server that never answered is given up). */
  private readonly since = stopwatch();
  readonly listening: Listening;

  constructor(private readonly opts: ListenOptions) {
    const stopped = new Promise<string>((resolve) => (this.stop = resolve));
    // made when asked for: a rejection nobody asked for is never left unhandled
    const ready = () =>
      new Promise<ListenerShape>((resolve, reject) => {
        if (this.shape) resolve(this.shape);
        else if (this.why !== undefined) reject(new Error(this.why));
        else this.waiting.push({ resolve, reject });
      });
    this.listening = {
      get ready() {
        return ready();
      },
      stopped,
      close: () => this.finish('closed'),
    };
  }

  private finish(why: string): void {
    if (this.done) return;
    this.done = true;
    this.why = why;
    this.current?.destroy();
    for (const w of this.waiting.splice(0)) w.reject(new Error(why));
    this.stop(why);
  }

  private cut(why: string): void {
    if (this.done || this.cutting) return;
    const giveUp = this.opts.giveUpMs ?? GIVE_UP_MS;
    if (!this.shape && elapsedMs(this.since) >= giveUp)
      return this.finish(
        `${this.opts.url} did not answer within ${(giveUp / 1000).toFixed(giveUp % 1000 ? 1 : 0)} s (${why})`,
      );
    this.cutting = true;
    this.opts.onCut?.(why);
    setTimeout(() => {
      this.cutting = false;
      this.connect();
    }, this.opts.reconnectMs ?? 1_000);
  }

  private heard(event: string, data: string): void {
    if (event === 'listening') {
      const shape = JSON.parse(data) as ListenerShape;
      this.opts.onListening?.(shape);
      this.shape ??= shape;
      for (const w of this.waiting.splice(0)) w.resolve(shape);
    } else if (event === 'delivery')
      void forward(this.opts, JSON.parse(data) as ListenedDelivery).then((f) => this.opts.onDelivery?.(f));
    else if (event === 'closed')
      this.finish(`closed by the server: ${(JSON.parse(data) as { reason: string }).reason}`);
  }

  connect(): void {
    if (this.done) return;
    const { name = 'default', all } = this.opts;
    const query = new URLSearchParams({ name, ...(all ? { all: 'true' } : {}) });
    const url = new URL(`${this.opts.url.replace(/\/$/, '')}/__sim/listen?${query.toString()}`);
    const headers = { authorization: `Bearer ${this.opts.key}`, accept: 'text/event-stream' };
    const call = (url.protocol === 'https:' ? httpsRequest : httpRequest)(url, { headers });
    this.current = call;
    call.on('response', (res) => {
      if (res.statusCode !== 200) {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          this.finish(`the server refused the listener: ${res.statusCode} ${Buffer.concat(chunks).toString('utf8')}`),
        );
        return;
      }
      events(res, (event, data) => this.heard(event, data));
      res.on('close', () => this.cut('the stream ended'));
    });
    call.on('error', (e) => this.cut(e.message));
    call.end();
  }
}

/** Starts a listener; it runs until the server closes it, refuses it, or `close()`. */
export function listen(opts: ListenOptions): Listening {
  const connection = new Connection(opts);
  connection.connect();
  return connection.listening;
}
