/** A call as the pipeline carries it from stage to stage, and what the stages read off the request. */
import { stopwatch } from '../deps.js';
import { invalidField } from '../domain/errors.js';
import type { Clock } from '../engine/clock.js';
import type { Principal } from '../handling/principal.js';
import type { StreamWriter } from '../handling/handler.js';
import type { Upload } from '../handling/upload.js';
import type { Route } from './router.js';
import type { Span } from '../observability/tracing.js';
import type { Incoming, Outgoing } from './exchange.js';

/** What the pipeline knows of a call so far; each stage adds to it. */
export interface Call {
  req: Incoming;
  /** The answer as it is made (its headers from any stage, the rest from the answer stage). */
  reply: Outgoing;
  started: bigint;
  route?: Route;
  principal: Principal | null;
  /** The failure of authentication, raised after faults had their chance. */
  unauthenticated?: unknown;
  /** The account whose credentials a refused call named (an inactive key, a wrong secret): its journal holds the call. */
  claimed?: string;
  query: Record<string, unknown>;
  body?: unknown;
  upload?: Upload;
  /** The call was answered (an injected fault, or the handler's reply). */
  answered: boolean;
  /** A control call: it has the control API's own authority (the admin token, or none is set). */
  authority?: boolean;
  /** The caller's clock, as the handler saw it (the journal's time). */
  clock?: Clock;
  /** The call's server span (docs/observability.md), whose trace the journal keeps. */
  span: Span;
  /** The status it was answered with (null: dropped), once answered. */
  status?: number | null;
}

export type Reply = { status: number; body: unknown; contentType?: string; stream?: (out: StreamWriter) => void };

/** A call as it arrives. */
export const newCall = (req: Incoming, span: Span): Call => ({
  req,
  reply: { status: null, headers: {} },
  span,
  started: stopwatch(),
  principal: null,
  query: {},
  answered: false,
});

const queryNames = new WeakMap<object, Set<string>>();

/** The query parameters the operation declares; the others are ignored. */
export function declaredQuery(
  route: Route,
  query: Record<string, string | string[]>,
): Record<string, string | string[]> {
  let names = queryNames.get(route.operation);
  if (!names) {
    names = new Set((route.operation.parameters ?? []).flatMap((p) => ('in' in p && p.in === 'query' ? [p.name] : [])));
    queryNames.set(route.operation, names);
  }
  const out: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(query)) if (names.has(name)) out[name] = value;
  return out;
}

/**
 * The JSON body of a call. The spec's wire format is JSON sent as `application/json`: on /api/v1 a
 * body without a Content-Type is refused as one of another type is (docs/decisions.md, "Content-Type");
 * the control API, dipswitch's own, reads such a body as JSON (`curl -d` sends none).
 */
export function parseJsonBody(req: Incoming, api: 'openapi' | 'sim' = 'openapi'): unknown {
  const raw = req.body ?? Buffer.alloc(0);
  if (raw.length === 0) return {};
  const given = req.headers['content-type'];
  if (given === undefined && api === 'openapi')
    throw invalidField('/', 'Content-Type must be application/json; the request says no type for its body.');
  const type = (given ?? 'application/json').split(';')[0]?.trim().toLowerCase() ?? '';
  if (type !== 'application/json' && !type.endsWith('+json')) {
    throw invalidField('/', `Content-Type must be application/json, not ${type}.`);
  }
  try {
    return JSON.parse(raw.toString('utf8'));
  } catch (e) {
    throw invalidField('/', `The body is not valid JSON: ${(e as Error).message}.`);
  }
}
