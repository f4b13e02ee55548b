// The Python and Go clients' types and operations, generated from contract/sim.yaml (npm run generate):
// every schema of the control API as a Python TypedDict and a Go struct, every enumeration as a Python
// Literal and a Go string type with its constants, and every operation's method, path and the names of
// its request and answer types. The clients' hand-written methods call operations by these names only, so
// a path, a field or an enumeration is written once, in the contract. `--check` writes nothing and exits 1
// when a generated file is not what the contract makes (the suite runs it).
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const contract = parse(readFileSync(join(root, 'contract', 'sim.yaml'), 'utf8'));
const schemas = contract.components.schemas;

/** A schema's type name where a hand-written name of the client would otherwise collide with it. */
const RENAMED = { clock: 'ClockState', sandbox: 'SandboxMade' };
/** Initialisms Go spells in capitals. */
const INITIALISMS = new Set(['id', 'url', 'ms', 'api', 'smpp', 'http', 'sms', 'mms', 'osr', 'cdr', 'dlr', 'uri']);

const pascal = (s) =>
  s
    .split(/[^A-Za-z0-9]+|(?<=[a-z0-9])(?=[A-Z])/)
    .filter(Boolean)
    .map((w) => w[0].toUpperCase() + w.slice(1))
    .join('');
const goField = (s) =>
  s
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((w) => (INITIALISMS.has(w.toLowerCase()) ? w.toUpperCase() : w[0].toUpperCase() + w.slice(1)))
    .join('');
const typeName = (schemaName) => RENAMED[schemaName] ?? pascal(schemaName);
const refName = (ref) => typeName(ref.replace('#/components/schemas/', ''));
const oneLine = (text) => (text ?? '').replace(/\s+/g, ' ').trim();

/**
 * The model: named types (objects, enumerations) in the order first met, each shape a small tree:
 * { kind: 'object', props: [{ name, type, required, nullable, doc }] } | { kind: 'enum', values }
 * and a type is { ref } | { scalar } | { list } | { map } | { union } | { literal } | { any }.
 */
const named = new Map();

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
  if (schema.enum) {
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
const operations = [];
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

// ---- Python ----

function py(t) {
  if (t.any) return 'Any';
  if (t.ref) return t.ref;
  if ('literal' in t)
    return `Literal[${JSON.stringify(t.literal)
      .replace(/^true$/, 'True')
      .replace(/^false$/, 'False')}]`;
  if (t.list) return `List[${py(t.list)}]`;
  if (t.map) return `Dict[str, ${py(t.map)}]`;
  if (t.union) return t.union.map(py).join(' | ');
  return { string: 'str', integer: 'int', number: 'float', boolean: 'bool', null: 'None' }[t.scalar];
}

/** The names a type refers to. */
function refsOf(t) {
  if (t.ref) return [t.ref];
  if (t.list) return refsOf(t.list);
  if (t.map) return refsOf(t.map);
  if (t.union) return t.union.flatMap(refsOf);
  return [];
}

/** The named types, each after those it refers to (Python reads a TypedDict's fields as it is made). */
function inDependencyOrder() {
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

function python() {
  const out = [
    '"""The control API\'s types and operations, generated from contract/sim.yaml by scripts/generate-clients.mjs.',
    '',
    'Do not edit: change the contract and run ``npm run generate``.',
    '"""',
    'from __future__ import annotations',
    '',
    'from typing import Any, Dict, List, Literal, NamedTuple, NotRequired, TypedDict',
  ];
  for (const [name, t] of inDependencyOrder()) {
    out.push('');
    if (t.kind === 'enum') {
      out.push(`${name} = Literal[${t.values.map((v) => JSON.stringify(v)).join(', ')}]`);
      if (t.doc) out.push(`"""${t.doc.replace(/"""/g, "'''")}"""`);
    } else if (t.kind === 'alias') {
      out.push(`${name} = ${py(t.type)}`);
      if (t.doc) out.push(`"""${t.doc.replace(/"""/g, "'''")}"""`);
    } else {
      const fields = t.props.map((p) => {
        const ty = py(p.type);
        return `    ${JSON.stringify(p.name)}: ${p.required ? ty : `NotRequired[${ty}]`},`;
      });
      out.push(
        `${name} = TypedDict(`,
        `    ${JSON.stringify(name)},`,
        '    {',
        ...fields.map((f) => `    ${f}`),
        '    },',
        ')',
      );
      if (t.doc) out.push(`"""${t.doc.replace(/"""/g, "'''")}"""`);
    }
  }
  out.push(
    '',
    '',
    'class Operation(NamedTuple):',
    '    """One operation of the control API: its operationId, method and path template."""',
    '',
    '    id: str',
    '    method: str',
    '    path: str',
    '',
    '',
    '#: Every operation of contract/sim.yaml, by operationId.',
    'CONTRACT_OPERATIONS: Dict[str, Operation] = {',
    ...operations.map(
      (o) => `    ${JSON.stringify(o.id)}: Operation(${JSON.stringify(o.id)}, "${o.method}", "${o.path}"),`,
    ),
    '}',
    '',
    '#: The operations no client offers (`x-client: { omit }`), with the reason.',
    'OMITTED: Dict[str, str] = {',
    ...operations.filter((o) => o.omit).map((o) => `    ${JSON.stringify(o.id)}: ${JSON.stringify(o.omit)},`),
    '}',
    '',
  );
  return out.join('\n').replace(/\n{3,}/g, '\n\n\n');
}

// ---- Go ----

const goScalar = { string: 'string', integer: 'int', number: 'float64', boolean: 'bool' };
function go(t, optional) {
  if (t.any) return 'any';
  if (t.ref) return optional ? `*${t.ref}` : t.ref;
  if ('literal' in t)
    return optional
      ? `*${goScalar[typeof t.literal === 'boolean' ? 'boolean' : 'string']}`
      : goScalar[typeof t.literal === 'boolean' ? 'boolean' : 'string'];
  if (t.list) return `[]${go(t.list, false)}`;
  if (t.map) return `map[string]${go(t.map, false)}`;
  if (t.union) {
    const real = t.union.filter((u) => u.scalar !== 'null');
    if (real.length === 1) {
      const inner = go(real[0], false);
      return inner.startsWith('[]') || inner.startsWith('map[') || inner === 'any' ? inner : `*${inner}`;
    }
    return 'any';
  }
  const s = goScalar[t.scalar];
  return optional ? `*${s}` : s;
}

function golang() {
  const out = [
    '// Code generated by scripts/generate-clients.mjs from contract/sim.yaml. DO NOT EDIT.',
    '',
    'package dipswitch',
  ];
  for (const [name, t] of named) {
    out.push('');
    out.push(
      `// ${name} is a ${t.kind === 'enum' ? 'value' : 'shape'} of the control API${t.doc ? `: ${t.doc}` : '.'}`,
    );
    if (t.kind === 'enum') {
      out.push(`type ${name} string`, '', `// The values of ${name}.`, 'const (');
      for (const v of t.values) out.push(`\t${name}${goField(String(v))} ${name} = ${JSON.stringify(v)}`);
      out.push(')');
    } else if (t.kind === 'alias') {
      out.push(`type ${name} = ${go(t.type, false)}`);
    } else {
      out.push(`type ${name} struct {`);
      for (const p of t.props) {
        const ty = go(p.type, !p.required);
        const omit = p.required ? '' : ',omitempty';
        const doc = p.doc ? ` // ${p.doc}` : '';
        out.push(`\t${goField(p.name)} ${ty} \`json:"${p.name}${omit}"\`${doc}`);
      }
      out.push('}');
    }
  }
  out.push(
    '',
    '// Operation is one operation of the control API: its operationId, method and path template.',
    'type Operation struct{ ID, Method, Path string }',
    '',
    '// The operations of contract/sim.yaml.',
    'var (',
    ...operations.map((o) => `\tOp${pascal(o.id)} = Operation{${JSON.stringify(o.id)}, "${o.method}", "${o.path}"}`),
    ')',
    '',
    '// ContractOperations are every operation of contract/sim.yaml.',
    'var ContractOperations = []Operation{',
    ...operations.map((o) => `\tOp${pascal(o.id)},`),
    '}',
    '',
    '// Omitted are the operations no client offers (`x-client: { omit }`), with the reason.',
    'var Omitted = map[string]string{',
    ...operations.filter((o) => o.omit).map((o) => `\t${JSON.stringify(o.id)}: ${JSON.stringify(o.omit)},`),
    '}',
    '',
  );
  return out.join('\n');
}

/** Go's own layout of the text (gofmt, which comes with Go). */
function gofmt(text) {
  const run = spawnSync('gofmt', [], { input: text, encoding: 'utf8' });
  if (run.error || run.status !== 0) {
    console.error(`gofmt: ${run.error?.message ?? run.stderr}(Go's gofmt lays out the Go client's generated file)`);
    process.exit(1);
  }
  return run.stdout;
}

const files = {
  [join(root, 'clients', 'python', 'src', 'dipswitch', '_generated.py')]: python(),
  [join(root, 'clients', 'go', 'generated.go')]: gofmt(golang()),
};
const check = process.argv.includes('--check');
let stale = [];
for (const [file, text] of Object.entries(files)) {
  let now = '';
  try {
    now = readFileSync(file, 'utf8');
  } catch {
    /* absent: stale */
  }
  if (now === text) continue;
  if (check) stale.push(file);
  else writeFileSync(file, text);
}
if (stale.length) {
  console.error(`not what contract/sim.yaml makes (npm run generate): ${stale.join(', ')}`);
  process.exit(1);
}
