/**
 * A call answered in the process: fetch's arguments in, a standard Response out, through the same core
 * as a call over HTTP (journaled, faulted, validated, traced), no socket between. The library's
 * `sim.request` (src/index.ts); hono's `app.request` and fastify's `inject` are the models.
 */
import type { Runtime } from '../runtime.js';
import type { Fetcher, StreamWriter } from '../handling/handler.js';
import { JSON_LIMIT_BYTES, type Handle, type Incoming, type Outgoing } from './exchange.js';

/** The types express's `type()` spells with their charset, as the wire has them. */
const withCharset = (type: string) =>
  /charset=/i.test(type) || !/^(application\/(json|yaml)|text\/)/.test(type) ? type : `${type}; charset=utf-8`;

/**
 * What the core answers a path (with its query) and fetch's options, as fetch would answer it over HTTP; `inside`: the
 * calls are made inside a call already let in (Incoming.inside).
 */
export function injector(
  handle: Handle,
  runtime: Runtime,
  origin: string,
  { inside = false }: { inside?: boolean } = {},
): Fetcher {
  return async (path, init = {}) => {
    const url = new URL(path, origin);
    const method = (init.method ?? 'GET').toUpperCase();
    const query: Incoming['query'] = {};
    for (const [name, value] of url.searchParams) {
      const had = query[name];
      query[name] = had === undefined ? value : [...(Array.isArray(had) ? had : [had]), value];
    }
    const given = init.body === undefined || init.body === null ? undefined : new Response(init.body);
    const headers = Object.fromEntries(new Headers(init.headers).entries());
    const givenType = given?.headers.get('content-type');
    if (givenType && headers['content-type'] === undefined) headers['content-type'] = givenType;
    const body = given ? Buffer.from(await given.arrayBuffer()) : undefined;
    // over its limit, a body is refused as the wire refuses it (a multipart upload has its own)
    const multipart = String(headers['content-type'] ?? '').startsWith('multipart/');
    const unreadable = body && !multipart && body.length > JSON_LIMIT_BYTES ? 'too_large' : undefined;
    const out = await handle({ method, path: url.pathname, query, headers, body, origin, unreadable, inside });
    if (out.status === null) throw new TypeError(`${method} ${url.pathname}: no answer (the call was dropped)`);
    return responseOf(out, method, runtime);
  };
}

function responseOf(out: Outgoing, method: string, runtime: Runtime): Response {
  const headers = new Headers(out.headers);
  if (out.stream) {
    headers.set('content-type', 'text/event-stream; charset=utf-8');
    return new Response(live(out.stream, runtime), { status: 200, headers });
  }
  if (out.body !== undefined) headers.set('content-type', withCharset(out.contentType ?? 'application/json'));
  const none = out.status === 204 || out.body === undefined || method === 'HEAD';
  const bytes = typeof out.body === 'string' ? out.body : out.body && new Uint8Array(out.body);
  return new Response(none ? null : bytes, { status: out.status ?? 0, headers });
}

/** A live answer as a body its reader pulls: ended by its writer, the server's close, or the reader's cancel. */
function live(stream: (out: StreamWriter) => void, runtime: Runtime): ReadableStream<Uint8Array> {
  const closers: (() => void)[] = [];
  let reading: ReadableStreamDefaultController<Uint8Array> | undefined;
  const stop = () => {
    if (!reading) return;
    const was = reading;
    reading = undefined;
    runtime.streams.delete(stop);
    for (const fn of closers) fn();
    try {
      was.close();
    } catch {
      // the reader cancelled it first
    }
  };
  return new ReadableStream<Uint8Array>({
    start(controller) {
      reading = controller;
      runtime.streams.add(stop);
      stream({
        write: (chunk) => {
          reading?.enqueue(new TextEncoder().encode(chunk));
          return reading !== undefined;
        },
        onClose: (fn) => closers.push(fn),
        end: stop,
      });
    },
    cancel: stop,
  });
}
