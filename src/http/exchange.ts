/**
 * A call as the core takes it and answers it, whatever brought it: express's adapter (src/http/app.ts)
 * makes an Incoming of each request and writes its Outgoing on the wire; a caller in the process (the
 * library's `sim.request`, the MCP server over HTTP, a scenario run by the server) hands one to the core
 * and reads the answer, no socket between.
 */
import type { IncomingHttpHeaders } from 'node:http';
import type { Readable } from 'node:stream';
import type { StreamWriter } from '../handling/handler.js';

/** The largest body a call other than an upload may have (express's raw parser's limit, `1mb`). */
export const JSON_LIMIT_BYTES = 1024 * 1024;

/** A request: what the pipeline reads of a call. Header names are lower case. */
export interface Incoming {
  method: string;
  /** The path, without its query. */
  path: string;
  query: Record<string, string | string[]>;
  headers: IncomingHttpHeaders;
  /** The raw body (undefined or empty: none); a multipart body comes as `stream` instead. */
  body?: Buffer;
  /** A multipart body, unread (express's request itself). */
  stream?: Readable;
  /** A body the front door could not read: over its limit, or broken. */
  unreadable?: 'too_large' | 'broken';
  /** The server's own bound address (`http://127.0.0.1:4010`): never taken from the Host header. */
  origin: string;
  /** What the socket said, where there is one (the server span's attributes). */
  httpVersion?: string;
  remoteAddress?: string;
  /**
   * Made inside a call already let in (SimCtx.callBack: an MCP tool's call, a scenario's step): part of that call's
   * work, never queued again behind its own account (whose slot the call waiting for it holds).
   */
  inside?: boolean;
}

/** An answer: a status, headers and body; a live stream; or nothing at all (`status: null`, a dropped call). */
export interface Outgoing {
  /** Null: the call was dropped (a `drop` fault): the connection is closed, nothing written. */
  status: number | null;
  headers: Record<string, string>;
  /** The body's type (`application/json` unless said). */
  contentType?: string;
  /** The body as written (JSON text, a page, a file's bytes, a `malformed` fault's bytes); undefined: none. */
  body?: string | Buffer;
  /** A live answer (server-sent events): its writer handed over once the headers are sent. */
  stream?: (out: StreamWriter) => void;
}

/** The transport-free core: one call in, its answer out (journaled, traced, as every call is). */
export type Handle = (call: Incoming) => Promise<Outgoing>;
