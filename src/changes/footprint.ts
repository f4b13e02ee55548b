/**
 * A suite's footprint: what its calls and its receivers used of the contract (GET /__sim/footprint).
 * Counted from the journal and the delivery log beside the coverage, and kept past the sandboxes
 * with it: per operation, the request fields and query parameters sent, the values sent of the
 * valued ones, the response fields received by status; per webhook, the payload's fields.
 * Bounded: FIELDS_BOUND paths a list, VALUES_BOUND values a field, each value at most VALUE_CHARS.
 */
import { pathsOf, type Field, type Shape } from './shape.js';

export const FIELDS_BOUND = 500;
export const VALUES_BOUND = 32;
export const VALUE_CHARS = 100;

/** What one account's (or a run's) calls and deliveries used; lists are sets, kept sorted. */
export interface Used {
  operations: Record<
    string,
    { request: string[]; query: string[]; values: Record<string, string[]>; response: Record<string, string[]> }
  >;
  webhooks: Record<string, { delivered: number; fields: string[] }>;
}

export const emptyUsed = (): Used => ({ operations: {}, webhooks: {} });

/** The webhook of the contract each kind of delivery is (an SMPP receipt is none). */
export const WEBHOOK_OF: Record<string, string> = {
  event: 'event',
  cdr: 'cdr',
  sms: 'inboundMessage',
  mms: 'inboundMessage',
  route: 'httpRouteCallback',
  result: 'bulkDipResult',
};

/** Adds `more` to a sorted set kept as a list, up to `bound`. */
function union(list: string[], more: Iterable<string>, bound: number): string[] {
  const set = new Set(list);
  for (const m of more) {
    if (set.size >= bound) break;
    set.add(m);
  }
  return set.size === list.length ? list : [...set].sort();
}

/** The valued request fields and query parameters of each operation, by operationId. */
export type Valued = (operationId: string) => { body: Set<string>; query: Set<string> };

/** What a contract's operations enumerate, read once. */
/** Whether a footprint keeps the values sent of a field. */
const kept = (f: Field): boolean =>
  !!f.enum ||
  (f.types.some((t) => t === 'integer' || t === 'number') && (f.minimum !== undefined || f.maximum !== undefined));

export function valuedOf(shape: Shape): Valued {
  const byId = new Map<string, { body: Set<string>; query: Set<string> }>();
  for (const o of shape.operations.values()) {
    if (!o.operationId) continue;
    const body = new Set<string>();
    for (const fields of o.request.values()) for (const [p, f] of fields) if (kept(f)) body.add(p);
    const query = new Set<string>();
    for (const p of o.parameters.values()) if (p.in === 'query' && [...p.fields.values()].some(kept)) query.add(p.name);
    byId.set(o.operationId, { body, query });
  }
  const none = { body: new Set<string>(), query: new Set<string>() };
  return (id) => byId.get(id) ?? none;
}

/** Adds `value` to the set kept under `key`. */
function addTo(map: Map<string, Set<string>>, key: string, value: string): void {
  const set = map.get(key) ?? new Set<string>();
  set.add(value);
  map.set(key, set);
}

/** The scalar values at each of `paths` in a body. */
function valuesAt(body: unknown, paths: Set<string>, out: Map<string, Set<string>>, prefix = ''): void {
  if (Array.isArray(body)) {
    for (const item of body) valuesAt(item, paths, out, `${prefix}[]`);
    return;
  }
  if (body !== null && typeof body === 'object') {
    for (const [k, v] of Object.entries(body)) valuesAt(v, paths, out, prefix ? `${prefix}.${k}` : k);
    return;
  }
  if (!paths.has(prefix) || body === undefined) return;
  const text = typeof body === 'string' ? body : JSON.stringify(body);
  if (text.length <= VALUE_CHARS) addTo(out, prefix, text);
}

/** A call as the footprint reads it from the journal. */
export interface CallSeen {
  operation_id: string | null;
  status: number | null;
  request: { query?: Readonly<Record<string, string | readonly string[]>>; body?: unknown };
  response: { body?: unknown };
}

/** Adds one call to `into`. */
export function addCall(into: Used, c: CallSeen, valued: Valued): void {
  if (!c.operation_id) return;
  const op = (into.operations[c.operation_id] ??= { request: [], query: [], values: {}, response: {} });
  if (c.request.body !== null && c.request.body !== undefined) {
    const seen = new Set<string>();
    pathsOf(c.request.body, seen, FIELDS_BOUND);
    op.request = union(op.request, seen, FIELDS_BOUND);
  }
  const query = c.request.query ?? {};
  op.query = union(op.query, Object.keys(query), FIELDS_BOUND);
  const en = valued(c.operation_id);
  const values = new Map<string, Set<string>>();
  if (en.body.size) valuesAt(c.request.body, en.body, values);
  for (const name of en.query) {
    const v = query[name];
    for (const one of Array.isArray(v) ? v : v === undefined ? [] : [v])
      for (const part of one.split(',')) if (part.length <= VALUE_CHARS) addTo(values, `query.${name}`, part);
  }
  for (const [path, vs] of values) {
    if (!(path in op.values) && Object.keys(op.values).length >= FIELDS_BOUND) continue;
    op.values[path] = union(op.values[path] ?? [], vs, VALUES_BOUND);
  }
  if (
    c.status !== null &&
    c.response.body !== null &&
    c.response.body !== undefined &&
    typeof c.response.body === 'object'
  ) {
    const seen = new Set<string>();
    pathsOf(c.response.body, seen, FIELDS_BOUND);
    const key = String(c.status);
    op.response[key] = union(op.response[key] ?? [], seen, FIELDS_BOUND);
  }
}

/** Adds one delivery to `into`: its kind, and the fields of its payload when it is JSON. */
export function addDelivery(into: Used, kind: string, payload: unknown): void {
  const webhook = WEBHOOK_OF[kind];
  if (!webhook) return;
  const w = (into.webhooks[webhook] ??= { delivered: 0, fields: [] });
  w.delivered++;
  if (payload !== undefined && payload !== null && typeof payload === 'object') {
    const seen = new Set<string>();
    pathsOf(payload, seen, FIELDS_BOUND);
    w.fields = union(w.fields, seen, FIELDS_BOUND);
  }
}

/** `into` with `from` added to it. */
export function addUsed(into: Used, from: Used | undefined): Used {
  if (!from) return into;
  for (const [id, o] of Object.entries(from.operations)) {
    const op = (into.operations[id] ??= { request: [], query: [], values: {}, response: {} });
    op.request = union(op.request, o.request, FIELDS_BOUND);
    op.query = union(op.query, o.query, FIELDS_BOUND);
    for (const [p, vs] of Object.entries(o.values)) op.values[p] = union(op.values[p] ?? [], vs, VALUES_BOUND);
    for (const [s, fs] of Object.entries(o.response)) op.response[s] = union(op.response[s] ?? [], fs, FIELDS_BOUND);
  }
  for (const [name, w] of Object.entries(from.webhooks)) {
    const to = (into.webhooks[name] ??= { delivered: 0, fields: [] });
    to.delivered += w.delivered;
    to.fields = union(to.fields, w.fields, FIELDS_BOUND);
  }
  return into;
}
