/**
 * The shape of an OpenAPI 3.x contract, as a diff and a footprint read it: every operation (and
 * webhook) with its parameters, request bodies and responses, each body flattened into its field
 * paths. A path names an object's field with a dot, an array's items with `[]` and a map's entries
 * with `*` (`data.numbers[].number`); the body's root is the empty path. `$ref`s are followed
 * (within the document; a reference to another file is read by `Refs`); `allOf` is merged, a field
 * of `oneOf`/`anyOf` is any branch's, required only when every branch requires it.
 */

/** A JSON value read from a contract. */
export type Json = null | boolean | number | string | Json[] | { [k: string]: Json };
type Obj = { [k: string]: Json };

const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

/** What a field's schema says, as far as a change of it can concern a client. */
export interface Field {
  /** The JSON types it allows, sorted (empty: any). */
  types: string[];
  required: boolean;
  format?: string;
  pattern?: string;
  /** Its values, each as JSON text, when it is enumerated (`enum` or `const`). */
  enum?: string[];
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  minItems?: number;
  maxItems?: number;
}

/** A body's fields by path. */
export type Fields = Map<string, Field>;

export interface Parameter {
  name: string;
  in: string;
  required: boolean;
  /** The parameter's schema, as the root ('') and its fields. */
  fields: Fields;
}

export interface Operation {
  /** `POST /api/v1/numbers`, or `webhook event POST` for a webhook. */
  key: string;
  kind: 'operation' | 'webhook';
  method: string;
  /** The path, or the webhook's name. */
  path: string;
  operationId?: string;
  deprecated: boolean;
  /** Each way to authenticate: its schemes' names, joined by `+` (empty: none needed). */
  security: string[];
  parameters: Map<string, Parameter>;
  bodyRequired: boolean;
  /** Request bodies by media type. */
  request: Map<string, Fields>;
  /** Responses by status, then by media type (a response with no content has an empty map). */
  responses: Map<string, Map<string, Fields>>;
}

export interface Shape {
  title: string;
  version: string;
  operations: Map<string, Operation>;
  /** Each security scheme, as text a change of it shows in. */
  schemes: Map<string, string>;
}

/** Follows a `$ref` from the document it sits in: the target and the document the target sits in. */
export type Refs = (ref: string, from: string) => { node: Json; doc: string };

/** How deep a schema is followed: a recursive schema stops here. */
const MAX_DEPTH = 24;
const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

/** A schema and the document it was read from. */
interface At {
  node: Json;
  doc: string;
}

/** A schema's merged view: its own keywords with `allOf` folded in and `oneOf`/`anyOf` as alternatives. */
interface View {
  types: Set<string> | undefined;
  format?: string;
  pattern?: string;
  enum?: string[];
  bounds: Partial<Record<'minLength' | 'maxLength' | 'minimum' | 'maximum' | 'minItems' | 'maxItems', number>>;
  properties: Map<string, At[]>;
  required: Set<string>;
  /** Fields some branch of a oneOf/anyOf has, required when every branch requires them. */
  items: At[];
  additional: At[];
}

const emptyView = (): View => ({
  types: undefined,
  bounds: {},
  properties: new Map(),
  required: new Set(),
  items: [],
  additional: [],
});

const BOUNDS = ['minLength', 'maxLength', 'minimum', 'maximum', 'minItems', 'maxItems'] as const;

export class ShapeReader {
  constructor(private readonly refs: Refs) {}

  /** The target of `at`, its `$ref`s followed (a schema's siblings of a `$ref` are `fold`'s to read). */
  private deref(at: At, seen = 0): At {
    const n = at.node;
    if (!isObj(n) || typeof n.$ref !== 'string' || seen > 32) return at;
    return this.deref(this.refs(n.$ref, at.doc), seen + 1);
  }

  /** Folds a schema into `v` as one more constraint (allOf semantics). */
  private fold(v: View, at: At, stack: Set<Json>, depth: number): void {
    const s = at.node;
    if (!isObj(s) || depth > MAX_DEPTH) return;
    if (typeof s.$ref === 'string') {
      // 3.1 lets a $ref have siblings: they apply beside its target, as an allOf would
      this.fold(v, this.refs(s.$ref, at.doc), stack, depth + 1);
      const rest = Object.fromEntries(Object.entries(s).filter(([k]) => k !== '$ref'));
      this.fold(v, { node: rest, doc: at.doc }, stack, depth + 1);
      return;
    }
    const types = typesOf(s);
    if (types)
      v.types = v.types
        ? new Set([...v.types].filter((t) => types.has(t) || (t === 'integer' && types.has('number'))))
        : types;
    if (typeof s.format === 'string') v.format = s.format;
    if (typeof s.pattern === 'string') v.pattern = s.pattern;
    const values = 'const' in s ? [s.const] : Array.isArray(s.enum) ? s.enum : undefined;
    if (values) {
      const texts = values.map((x) => JSON.stringify(x));
      v.enum = v.enum ? v.enum.filter((x) => texts.includes(x)) : texts;
    }
    for (const b of BOUNDS) if (typeof s[b] === 'number') v.bounds[b] = s[b];
    if (isObj(s.properties))
      for (const [name, p] of Object.entries(s.properties)) {
        const list = v.properties.get(name) ?? [];
        list.push({ node: p, doc: at.doc });
        v.properties.set(name, list);
      }
    if (Array.isArray(s.required)) for (const r of s.required) if (typeof r === 'string') v.required.add(r);
    if (s.items !== undefined && typeof s.items !== 'boolean') v.items.push({ node: s.items, doc: at.doc });
    if (isObj(s.additionalProperties)) v.additional.push({ node: s.additionalProperties, doc: at.doc });
    if (Array.isArray(s.allOf)) for (const part of s.allOf) this.fold(v, { node: part, doc: at.doc }, stack, depth + 1);
    const branches = Array.isArray(s.oneOf) ? s.oneOf : Array.isArray(s.anyOf) ? s.anyOf : undefined;
    if (branches)
      this.foldBranches(
        v,
        branches.map((b) => ({ node: b, doc: at.doc })),
        stack,
        depth,
      );
  }

  /** Folds alternatives: a field is any branch's, required only when every branch requires it. */
  private foldBranches(v: View, branches: At[], stack: Set<Json>, depth: number): void {
    const views = branches.map((b) => {
      const bv = emptyView();
      this.fold(bv, b, stack, depth + 1);
      return bv;
    });
    if (!views.length) return;
    if (views.every((b) => b.types)) {
      const union = new Set(views.flatMap((b) => [...(b.types ?? [])]));
      v.types = v.types ? new Set([...v.types].filter((t) => union.has(t))) : union;
    }
    if (views.every((b) => b.enum)) {
      const union = [...new Set(views.flatMap((b) => b.enum ?? []))];
      v.enum = v.enum ? v.enum.filter((x) => union.includes(x)) : union;
    }
    for (const b of views) {
      for (const [name, list] of b.properties) v.properties.set(name, [...(v.properties.get(name) ?? []), ...list]);
      v.items.push(...b.items);
      v.additional.push(...b.additional);
    }
    for (const name of views[0]?.required ?? []) if (views.every((b) => b.required.has(name))) v.required.add(name);
  }

  /** A schema's fields by path, `prefix` its own path. */
  fields(schema: At, into: Fields = new Map(), prefix = '', required = true, stack = new Set<Json>()): Fields {
    this.fieldsOf([schema], into, prefix, required, stack, 0);
    return into;
  }

  private fieldsOf(parts: At[], into: Fields, path: string, required: boolean, stack: Set<Json>, depth: number): void {
    const resolved = parts.map((p) => this.deref(p));
    if (resolved.some((p) => stack.has(p.node)) || depth > MAX_DEPTH) {
      into.set(path, { types: [], required });
      return;
    }
    const v = emptyView();
    for (const p of parts) this.fold(v, p, stack, 0);
    into.set(path, {
      types: [...(v.types ?? [])].sort(),
      required,
      ...(v.format !== undefined ? { format: v.format } : {}),
      ...(v.pattern !== undefined ? { pattern: v.pattern } : {}),
      ...(v.enum ? { enum: [...v.enum].sort() } : {}),
      ...v.bounds,
    });
    const inner = new Set(stack);
    for (const p of resolved) inner.add(p.node);
    const join = (name: string) => (path ? `${path}.${name}` : name);
    for (const [name, list] of v.properties)
      this.fieldsOf(list, into, join(name), v.required.has(name), inner, depth + 1);
    if (v.items.length) this.fieldsOf(v.items, into, `${path}[]`, true, inner, depth + 1);
    if (v.additional.length) this.fieldsOf(v.additional, into, join('*'), false, inner, depth + 1);
  }

  /** The shape of a whole document. */
  shape(doc: Json, name: string): Shape {
    if (!isObj(doc)) throw new Error('not an object');
    const info = isObj(doc.info) ? doc.info : {};
    const operations = new Map<string, Operation>();
    const globalSecurity = Array.isArray(doc.security) ? doc.security : [];
    const read = (item: Json, path: string, kind: Operation['kind']) => {
      const it = this.deref({ node: item, doc: name });
      if (!isObj(it.node)) return;
      const shared = Array.isArray(it.node.parameters) ? it.node.parameters : [];
      for (const method of METHODS) {
        const op = it.node[method];
        if (!isObj(op)) continue;
        const o = this.operation(op, it.doc, method.toUpperCase(), path, kind, shared, globalSecurity);
        operations.set(o.key, o);
      }
    };
    if (isObj(doc.paths)) for (const [path, item] of Object.entries(doc.paths)) read(item, path, 'operation');
    if (isObj(doc.webhooks)) for (const [hook, item] of Object.entries(doc.webhooks)) read(item, hook, 'webhook');
    const schemes = new Map<string, string>();
    const components = isObj(doc.components) ? doc.components : {};
    if (isObj(components.securitySchemes))
      for (const [n, s] of Object.entries(components.securitySchemes)) {
        const r = this.deref({ node: s, doc: name }).node;
        if (!isObj(r)) continue;
        const { description: _d, ...rest } = r;
        schemes.set(n, JSON.stringify(rest, Object.keys(rest).sort()));
      }
    return {
      title: typeof info.title === 'string' ? info.title : '',
      version: typeof info.version === 'string' ? info.version : '',
      operations,
      schemes,
    };
  }

  private operation(
    op: Obj,
    doc: string,
    method: string,
    path: string,
    kind: Operation['kind'],
    shared: Json[],
    globalSecurity: Json[],
  ): Operation {
    const parameters = new Map<string, Parameter>();
    for (const raw of [...shared, ...(Array.isArray(op.parameters) ? op.parameters : [])]) {
      const p = this.deref({ node: raw, doc }).node;
      if (!isObj(p) || typeof p.name !== 'string' || typeof p.in !== 'string') continue;
      const name = p.in === 'header' ? p.name.toLowerCase() : p.name;
      const required = p.required === true || p.in === 'path';
      const schema =
        p.schema ?? (isObj(p.content) ? Object.values(p.content).map((m) => (isObj(m) ? m.schema : null))[0] : null);
      parameters.set(`${p.in} ${name}`, {
        name,
        in: p.in,
        required,
        fields: this.fields({ node: schema ?? {}, doc }, new Map(), '', required),
      });
    }
    const request = new Map<string, Fields>();
    let bodyRequired = false;
    if (op.requestBody !== undefined) {
      const body = this.deref({ node: op.requestBody, doc });
      if (isObj(body.node)) {
        bodyRequired = body.node.required === true;
        for (const [media, m] of Object.entries(isObj(body.node.content) ? body.node.content : {}))
          request.set(
            media,
            this.fields({ node: isObj(m) ? (m.schema ?? {}) : {}, doc: body.doc }, new Map(), '', bodyRequired),
          );
      }
    }
    const responses = new Map<string, Map<string, Fields>>();
    for (const [status, raw] of Object.entries(isObj(op.responses) ? op.responses : {})) {
      const r = this.deref({ node: raw, doc });
      const byMedia = new Map<string, Fields>();
      if (isObj(r.node) && isObj(r.node.content))
        for (const [media, m] of Object.entries(r.node.content))
          byMedia.set(media, this.fields({ node: isObj(m) ? (m.schema ?? {}) : {}, doc: r.doc }));
      responses.set(status.toUpperCase(), byMedia);
    }
    const security = (Array.isArray(op.security) ? op.security : globalSecurity)
      .filter(isObj)
      .map((req) => Object.keys(req).sort().join('+'))
      .sort();
    const key = kind === 'webhook' ? `webhook ${path} ${method}` : `${method} ${path}`;
    return {
      key,
      kind,
      method,
      path,
      ...(typeof op.operationId === 'string' ? { operationId: op.operationId } : {}),
      deprecated: op.deprecated === true,
      security,
      parameters,
      bodyRequired,
      request,
      responses,
    };
  }
}

/** The JSON types a schema allows, when it says (`type`, a 3.0 `nullable`, a `const`'s own type). */
function typesOf(s: Obj): Set<string> | undefined {
  const t = s.type;
  const list =
    typeof t === 'string' ? [t] : Array.isArray(t) ? t.filter((x): x is string => typeof x === 'string') : undefined;
  if (!list) return undefined;
  const out = new Set(list);
  if (s.nullable === true) out.add('null');
  return out;
}

/** The path a field sits in: `a` for `a.b`, `a[]` and `a.*`; none for the root. */
export function parentOf(path: string): string | undefined {
  if (!path) return undefined;
  if (path.endsWith('[]')) return path.slice(0, -2);
  const dot = path.lastIndexOf('.');
  return dot < 0 ? '' : path.slice(0, dot);
}

/** The field paths of a JSON value, as a footprint records what was sent or received. */
export function pathsOf(value: unknown, into: Set<string>, bound: number, prefix = ''): void {
  if (into.size >= bound) return;
  into.add(prefix);
  if (Array.isArray(value)) for (const item of value) pathsOf(item, into, bound, `${prefix}[]`);
  else if (value !== null && typeof value === 'object')
    for (const [k, v] of Object.entries(value)) pathsOf(v, into, bound, prefix ? `${prefix}.${k}` : k);
}

/** Whether a field path the contract names (with `*` for a map's entries) is the path a value was seen at. */
export function samePath(contractPath: string, seenPath: string): boolean {
  if (!contractPath.includes('*')) return contractPath === seenPath;
  const a = contractPath.split('.');
  const b = seenPath.split('.');
  return (
    a.length === b.length &&
    a.every((seg, i) => seg === b[i] || seg === '*' || (seg.startsWith('*') && (b[i] ?? '').endsWith(seg.slice(1))))
  );
}
