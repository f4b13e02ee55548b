/**
 * dipswitch's tools for an agent (MCP, src/mcp/server.ts): one for each operation of the control API
 * (contract/sim.yaml) and of the simulated API (contract/openapi.yaml), named by its operationId, its
 * description and input schema taken from the contract (its path and query parameters, and `body`
 * when it takes JSON), so they cannot drift from it. A tool call is the HTTP call it names.
 * Left out: what is not one answer to read (the journal's live stream, the dashboard's pages, an upload as
 * multipart/form-data).
 */
import { loadContract, type ApiName, type Contract } from '../contract.js';

type Json = Record<string, unknown>;

/** A JSON Schema with every `$ref` of the contract's written in place (a cycle is left open: `{}`). */
export type JsonSchema = Json;

export interface Tool {
  name: string;
  description: string;
  inputSchema: JsonSchema & { type: 'object' };
  /** The call it makes. */
  call: { api: ApiName; method: string; path: string; params: string[]; query: string[]; body: boolean };
}

/** Writes each `$ref` of `document` in place, once per branch (a reference to itself inside itself is `{}`). */
function deref(node: unknown, document: Json, seen: readonly string[] = []): unknown {
  if (Array.isArray(node)) return node.map((n) => deref(n, document, seen));
  if (!node || typeof node !== 'object') return node;
  const ref = (node as Json).$ref;
  if (typeof ref === 'string' && ref.startsWith('#/')) {
    if (seen.includes(ref)) return {};
    const target = ref
      .slice(2)
      .split('/')
      .reduce<unknown>(
        (at, part) => (at as Json | undefined)?.[part.replace(/~1/g, '/').replace(/~0/g, '~')],
        document,
      );
    return deref(target, document, [...seen, ref]);
  }
  return Object.fromEntries(Object.entries(node as Json).map(([k, v]) => [k, deref(v, document, seen)]));
}

interface Parameter {
  name: string;
  in: string;
  required?: boolean;
  description?: string;
  schema?: Json;
}

/** The tools of one contract. */
function toolsOf(api: ApiName): Tool[] {
  const contract: Contract<string> = api === 'sim' ? loadContract('sim') : loadContract();
  const document = contract.document as Json;
  const paths = document.paths as Record<string, Json>;
  const tools: Tool[] = [];
  for (const meta of contract.operations.values()) {
    const item = paths[meta.path] ?? {};
    const op = deref(item[meta.method.toLowerCase()], document) as Json;
    const content = ((op.requestBody as Json | undefined)?.content ?? {}) as Json;
    // what no client offers (contract/sim.yaml `x-client: { omit }`: a live stream, the dashboard's pages, the MCP
    // endpoint itself) is no tool either; uploads are left out by their body
    const client = op['x-client'] as { omit?: string } | undefined;
    if (client?.omit || content['multipart/form-data']) continue;
    const parameters = [
      ...((deref(item.parameters, document) as Parameter[]) ?? []),
      ...((op.parameters as Parameter[]) ?? []),
    ];
    const properties: Json = {};
    const required: string[] = [];
    for (const p of parameters.filter((x) => x.in === 'path' || x.in === 'query')) {
      properties[p.name] = { ...(p.schema ?? {}), ...(p.description ? { description: p.description } : {}) };
      if (p.required || p.in === 'path') required.push(p.name);
    }
    const body = (content['application/json'] as Json | undefined)?.schema as Json | undefined;
    if (body) {
      properties.body = body;
      if ((op.requestBody as Json).required) required.push('body');
    }
    const said = [op.summary, op.description].filter((s): s is string => typeof s === 'string' && s.length > 0);
    tools.push({
      name: meta.operationId,
      description: `${meta.method} ${meta.path}${said.length ? `: ${said.join('\n\n')}` : ''}`,
      inputSchema: {
        type: 'object',
        properties,
        ...(required.length ? { required } : {}),
        additionalProperties: false,
      },
      call: {
        api,
        method: meta.method,
        path: meta.path,
        params: parameters.filter((p) => p.in === 'path').map((p) => p.name),
        query: parameters.filter((p) => p.in === 'query').map((p) => p.name),
        body: !!body,
      },
    });
  }
  return tools;
}

let made: Tool[] | undefined;

/** Every tool: the control API's, then the simulated API's. */
export function tools(): Tool[] {
  return (made ??= [...toolsOf('sim'), ...toolsOf('openapi')]);
}

/**
 * What is wrong with a tool's arguments before any call: a name the tool does not take, a required one
 * missing (undefined: nothing; their values are the server's to check, with the HTTP answer's message).
 */
export function argumentProblem(tool: Tool, args: Json): string | undefined {
  const known = Object.keys(tool.inputSchema.properties as Json);
  const unknown = Object.keys(args).filter((name) => !known.includes(name));
  const missing = ((tool.inputSchema.required as string[] | undefined) ?? []).filter(
    (name) => args[name] === undefined,
  );
  if (!unknown.length && !missing.length) return undefined;
  return [
    ...(unknown.length ? [`${tool.name} takes no ${unknown.join(', ')}.`] : []),
    ...(missing.length ? [`${tool.name} needs ${missing.join(', ')}.`] : []),
    `Its arguments: ${known.join(', ') || 'none'}.`,
  ].join(' ');
}

/** The HTTP call a tool's arguments make: its method, its path and query filled in, its JSON body. */
export function requestOf(tool: Tool, args: Json): { method: string; path: string; body?: unknown } {
  let path = tool.call.path;
  for (const name of tool.call.params) path = path.replace(`{${name}}`, encodeURIComponent(String(args[name] ?? '')));
  const query = new URLSearchParams();
  for (const name of tool.call.query) {
    const value = args[name];
    if (value === undefined || value === null) continue;
    for (const v of Array.isArray(value) ? value : [value])
      query.append(name, typeof v === 'string' ? v : JSON.stringify(v));
  }
  const q = query.toString();
  return {
    method: tool.call.method,
    path: q ? `${path}?${q}` : path,
    ...(tool.call.body && args.body !== undefined ? { body: args.body } : {}),
  };
}
