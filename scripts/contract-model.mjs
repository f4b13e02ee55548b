// The model of contract/sim.yaml every client's generated code is made from (scripts/generate-clients.mjs):
// its named types (objects, enumerations, aliases) in the order first met, and its operations, each with its
// method, path, request and answer types, and the client method it is (`x-client`).
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';

export const root = join(dirname(fileURLToPath(import.meta.url)), '..');
export const contract = parse(readFileSync(join(root, 'contract', 'sim.yaml'), 'utf8'));
export const schemas = contract.components.schemas;

/** A schema's type name where a hand-written name of the client would otherwise collide with it. */
const RENAMED = { clock: 'ClockState', sandbox: 'SandboxMade' };
/** Initialisms Go spells in capitals. */
const INITIALISMS = new Set(['id', 'url', 'ms', 'api', 'smpp', 'http', 'sms', 'mms', 'osr', 'cdr', 'dlr', 'uri']);

export const pascal = (s) =>
  s
    .split(/[^A-Za-z0-9]+|(?<=[a-z0-9])(?=[A-Z])/)
    .filter(Boolean)
    .map((w) => w[0].toUpperCase() + w.slice(1))
    .join('');
export const goField = (s) =>
  s
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((w) => (INITIALISMS.has(w.toLowerCase()) ? w.toUpperCase() : w[0].toUpperCase() + w.slice(1)))
    .join('');
export const typeName = (schemaName) => RENAMED[schemaName] ?? pascal(schemaName);
const refName = (ref) => typeName(ref.replace('#/components/schemas/', ''));
export const oneLine = (text) => (text ?? '').replace(/\s+/g, ' ').trim();

/**
 * The model: named types (objects, enumerations) in the order first met, each shape a small tree:
 * { kind: 'object', props: [{ name, type, required, nullable, doc }] } | { kind: 'enum', values }
 * and a type is { ref } | { scalar } | { list } | { map } | { union } | { literal } | { any }.
 */
export const named = new Map();

/** The type of `schema`, found at `where` (its name if it must be named). */
function typeOf(schema, where) {
  if (!schema || Object.keys(schema).filter((k) => k !== 'description' && k !== 'default').length === 0)
    return { any: true };
  if (schema.$ref) return { ref: refName(schema.$ref) };
  if ('const' in schema) return { literal: schema.const };
  if (schema.allOf) {
    const props = [];
    for (const part of schema.allOf) {
      const object = part.$ref ? schemas[part.$ref.replace('#/components/schemas/', '')] : part;
      props.push(...objectProps(object, where));
    }
    named.set(where, { kind: 'object', props, doc: oneLine(schema.description) });
    return { ref: where };
  }
  const types = Array.isArray(schema.type) ? schema.type : schema.type ? [schema.type] : [];
  const nullable = types.includes('null');
  const real = types.filter((t) => t !== 'null');
  // an enumeration of strings is a named type; one of numbers is its scalar (a Go string type could not hold it)
  if (schema.enum && schema.enum.every((v) => typeof v === 'string' || v === null)) {
    const values = schema.enum.filter((v) => v !== null);
    if (!named.has(where)) named.set(where, { kind: 'enum', values, doc: oneLine(schema.description) });
    return nullable ? { union: [{ ref: where }, { scalar: 'null' }] } : { ref: where };
  }
  if (real.length > 1) return { union: real.map((t) => ({ scalar: t })) };
  let inner;
  const t = real[0] ?? (schema.properties ? 'object' : undefined);
  if (t === 'array') inner = { list: typeOf(schema.items, `${where}Item`) };
  else if (t === 'object' && schema.properties) {
    named.set(where, { kind: 'object', props: objectProps(schema, where), doc: oneLine(schema.description) });
    inner = { ref: where };
  } else if (t === 'object') {
    const extra = schema.additionalProperties;
    inner = { map: extra && typeof extra === 'object' ? typeOf(extra, `${where}Value`) : { any: true } };
  } else if (t) inner = { scalar: t };
  else inner = { any: true };
  return nullable ? { union: [inner, { scalar: 'null' }] } : inner;
}

function objectProps(schema, where) {
  const required = new Set(schema.required ?? []);
  return Object.entries(schema.properties ?? {}).map(([name, s]) => ({
    name,
    type: typeOf(s, `${where}${pascal(name)}`),
    required: required.has(name),
    doc: oneLine(s.description),
  }));
}

for (const [name, schema] of Object.entries(schemas)) {
  const t = typeOf(schema, typeName(name));
  if (!t.ref || t.ref !== typeName(name))
    named.set(typeName(name), { kind: 'alias', type: t, doc: oneLine(schema.description) });
}

/** Every operation: id, method, path, and the names of its request body's and success answer's types. */
export const operations = [];
for (const [path, item] of Object.entries(contract.paths)) {
  for (const [method, op] of Object.entries(item)) {
    if (!op.operationId) continue;
    const base = pascal(op.operationId.replace(/^sim/, ''));
    const body = op.requestBody?.content?.['application/json']?.schema;
    const ok = Object.entries(op.responses).find(([status]) => status.startsWith('2'))?.[1];
    const answer = ok?.content?.['application/json']?.schema;
    const request = body ? typeOf(body, `${base}Request`) : undefined;
    const response = answer ? typeOf(answer, `${base}Response`) : undefined;
    const client = op['x-client'] ?? {};
    operations.push({
      id: op.operationId,
      method: method.toUpperCase(),
      path,
      request,
      response,
      summary: op.summary,
      op,
      area: client.area,
      name: client.method,
      omit: client.omit,
    });
  }
}

/** The parameters of an operation in `place` (path or query), with their schemas. */
const parametersIn = (op, place) =>
  (op.parameters ?? []).filter((p) => p.in === place).map((p) => ({ name: p.name, schema: p.schema ?? {} }));

/** An operation's query parameters as a named object type (every one optional), or undefined without any. */
function queryOf(o) {
  const params = parametersIn(o.op, 'query');
  if (!params.length) return undefined;
  const name = `${pascal(o.id.replace(/^sim/, ''))}Query`;
  const scalar = (s) => ({ scalar: s.type === 'integer' || s.type === 'boolean' ? s.type : 'string' });
  named.set(name, {
    kind: 'object',
    doc: `The query of \`${o.method} ${o.path}\`: each parameter absent unless given.`,
    props: params.map((p) => ({ name: p.name, type: scalar(p.schema), required: false, doc: oneLine(p.description) })),
  });
  return name;
}

/** An operation's one line of documentation: its summary and its description's first sentence. */
function docOf(op) {
  const said = [op.summary, op.description?.split(/(?<=\.)\s/)[0]].filter(Boolean).map(oneLine);
  return said[1] && said[1] !== said[0] ? `${said[0]}: ${said[1]}` : (said[0] ?? op.operationId);
}

for (const o of operations) {
  const path = parametersIn(o.op, 'path').map((p) => p.name);
  // a sandbox's own calls name it by its `{id}`, which its client knows (x-client-areas: sandbox)
  o.bound = o.area === 'sandbox' ? path.filter((p) => p === 'id') : [];
  o.params = path.filter((p) => !o.bound.includes(p));
  o.query = o.omit ? undefined : queryOf(o);
  // a body whose every field may be left out may itself be left out (a client sends `{}`)
  o.bodyOptional = Boolean(o.request?.ref && named.get(o.request.ref).props.every((p) => !p.required));
  o.doc = docOf(o.op);
  const ok = Object.entries(o.op.responses).find(([status]) => status.startsWith('2'))?.[1];
  // what a method answers: the JSON answer's type, text, or nothing
  o.answers = o.response ? 'json' : ok?.content ? 'text' : 'none';
}

/**
 * The areas of every client (`x-client-areas`), each with what it is: `client` is what every client has,
 * `server` and `sandbox` are clients of their own kind, every other area a member of `client` (`MEMBERS`).
 */
export const AREAS = contract.info['x-client-areas'];
export const MEMBERS = Object.keys(AREAS).filter((a) => !['client', 'server', 'sandbox'].includes(a));
/** The operations each client offers, by area, in the contract's order. */
export const byArea = {};
for (const o of operations) if (!o.omit) (byArea[o.area] ??= []).push(o);
for (const [area, ops] of Object.entries(byArea))
  if (!AREAS[area]) throw new Error(`x-client area ${area} (of ${ops[0].id}) is not in x-client-areas`);

/** The names a type refers to. */
export function refsOf(t) {
  if (t.ref) return [t.ref];
  if (t.list) return refsOf(t.list);
  if (t.map) return refsOf(t.map);
  if (t.union) return t.union.flatMap(refsOf);
  return [];
}

/** The named types, each after those it refers to (Python reads a TypedDict's fields as it is made). */
export function inDependencyOrder() {
  const done = new Set();
  const order = [];
  const visit = (name) => {
    if (done.has(name)) return;
    done.add(name);
    const t = named.get(name);
    const refs =
      t.kind === 'object' ? t.props.flatMap((p) => refsOf(p.type)) : t.kind === 'alias' ? refsOf(t.type) : [];
    for (const r of refs) visit(r);
    order.push([name, t]);
  };
  for (const name of named.keys()) visit(name);
  return order;
}
