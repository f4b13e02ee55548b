/**
 * dipswitch for an agent: an MCP server (the official SDK's, @modelcontextprotocol/sdk) whose tools are
 * the operations of both contracts (tools.ts) and whose resources are the contracts themselves. A tool
 * call is the HTTP call it names, made to a running dipswitch with the key or admin token it was given,
 * so it is authenticated, journaled and answered exactly as that call: a refusal is the tool's error,
 * with the same message (a "Did you mean", a verify's near misses) and the answer's body whole.
 * `dipswitch mcp` serves it on stdin and stdout; `/__sim/mcp` over Streamable HTTP (exchange.ts).
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CallToolRequestSchema,
  ListResourcesRequestSchema,
  ListToolsRequestSchema,
  ReadResourceRequestSchema,
  type CallToolResult,
} from '@modelcontextprotocol/sdk/types.js';
import { loadContract, packageVersion, projectRoot } from '../contract.js';
import { argumentProblem, requestOf, tools } from './tools.js';
import { parseJson } from '../domain/json.js';
import type { Fetcher } from '../handling/handler.js';

/** The dipswitch the tools call, and as whom. */
export interface McpTarget {
  /** Its base URL, e.g. http://127.0.0.1:4010 (`dipswitch mcp`); or */
  url?: string;
  /** its core in the process (`POST /__sim/mcp`: each call as that call's caller, its credentials added there). */
  request?: Fetcher;
  /** An account's key: the tools act as that account. */
  key?: string;
  /** Or the Authorization header as a caller sent it (`/__sim/mcp`: its tools act as that caller). */
  authorization?: string;
  /** The control API's admin token, where the server has one. */
  adminToken?: string;
  /** A tool call not answered within this is the tool's error (MCP_CALL_TIMEOUT_MS by default). */
  timeoutMs?: number;
}

/** How long a tool waits for its HTTP call: an advance that runs many steps and waits for their deliveries fits. */
export const MCP_CALL_TIMEOUT_MS = 120_000;

const INSTRUCTIONS = [
  'dipswitch simulates a telephony provider: /api/v1 (tools named by its operationIds, e.g. createCart) and its',
  "control API /__sim (tools starting with `sim`): make a sandbox (simCreateSandbox), move an account's clock",
  '(simAdvance), inject an inbound SMS (simInboundSms), add faults, and verify what was called (simVerifyRequests)',
  'or delivered (simVerifyDeliveries). A tool takes its path and query parameters by name and its JSON body as `body`.',
].join(' ');

/** A resource: a contract (its YAML, as the server serves it) or a page of the docs (its Markdown). */
interface Resource {
  name: string;
  uri: string;
  title: string;
  mimeType: string;
  text(): string;
}

/** The two contracts, then every page of docs/ as the package ships them, each titled by its first heading. */
function resources(): Resource[] {
  const yaml = 'application/yaml';
  const contracts: Resource[] = [
    {
      name: 'openapi',
      uri: 'dipswitch://contract/openapi.yaml',
      title: 'The simulated API (/api/v1)',
      mimeType: yaml,
      text: () => loadContract().yamlText(),
    },
    {
      name: 'sim',
      uri: 'dipswitch://contract/sim.yaml',
      title: 'The control API (/__sim)',
      mimeType: yaml,
      text: () => loadContract('sim').yamlText(),
    },
  ];
  const dir = join(projectRoot, 'docs');
  const pages = existsSync(dir)
    ? readdirSync(dir)
        .filter((f) => f.endsWith('.md'))
        .sort()
    : [];
  return [
    ...contracts,
    ...pages.map((page) => {
      const text = () => readFileSync(join(dir, page), 'utf8');
      const title = /^# (.+)$/m.exec(text())?.[1] ?? page;
      return { name: `docs/${page}`, uri: `dipswitch://docs/${page}`, title, mimeType: 'text/markdown', text };
    }),
  ];
}

/** The text of a refusal: its status, its errors' details (or message), then the answer's body as it came. */
export function refusalText(status: number, body: string): string {
  // not JSON: the body says it all
  const parsed = parseJson(body) as { errors?: { detail?: string; code?: string }[]; message?: string } | undefined;
  const said = [
    ...(parsed?.errors ?? []).map((e) => e.detail ?? e.code ?? ''),
    ...(parsed?.message ? [parsed.message] : []),
  ];
  return [`HTTP ${status}${said.length ? `: ${said.join(' ')}` : ''}`, body].join('\n');
}

/** `answer`, or the signal's reason once it aborts first (an in-process call is not cut by a signal itself). */
function within<T>(answer: Promise<T>, signal: AbortSignal): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    signal.addEventListener('abort', () => reject(signal.reason as Error), { once: true });
    answer.then(resolve, reject);
  });
}

/** An MCP server over the dipswitch at `target` (connect it to a transport). */
export function mcpServer(target: McpTarget): Server {
  const server = new Server(
    { name: 'dipswitch', version: packageVersion },
    { capabilities: { tools: {}, resources: {} }, instructions: INSTRUCTIONS },
  );
  const byName = new Map(tools().map((t) => [t.name, t]));
  const timeoutMs = target.timeoutMs ?? MCP_CALL_TIMEOUT_MS;
  const headers: Record<string, string> = {
    ...(target.key ? { authorization: `Bearer ${target.key}` } : {}),
    ...(target.authorization ? { authorization: target.authorization } : {}),
    ...(target.adminToken ? { 'x-sim-admin-token': target.adminToken } : {}),
  };

  server.setRequestHandler(ListToolsRequestSchema, async () => ({
    tools: tools().map(({ name, description, inputSchema }) => ({ name, description, inputSchema })),
  }));

  server.setRequestHandler(CallToolRequestSchema, async (request): Promise<CallToolResult> => {
    const tool = byName.get(request.params.name);
    if (!tool) {
      const text = `dipswitch has no tool ${request.params.name}: tools/list names each operation of both contracts.`;
      return { isError: true, content: [{ type: 'text', text }] };
    }
    const args = request.params.arguments ?? {};
    const problem = argumentProblem(tool, args);
    if (problem) return { isError: true, content: [{ type: 'text', text: problem }] };
    const call = requestOf(tool, args);
    let res: Response;
    let text: string;
    try {
      const init = {
        method: call.method,
        headers: { ...headers, ...(call.body !== undefined ? { 'content-type': 'application/json' } : {}) },
        body: call.body !== undefined ? JSON.stringify(call.body) : undefined,
        signal: AbortSignal.timeout(timeoutMs),
      };
      res = await (target.request
        ? within(target.request(call.path, init), init.signal)
        : fetch(new URL(call.path, target.url), init));
      text = await res.text();
    } catch (e) {
      const err = e as Error;
      const why = err.name === 'TimeoutError' ? `no answer within ${timeoutMs / 1000} s` : err.message;
      return {
        isError: true,
        content: [{ type: 'text', text: `${call.method} ${call.path} at ${target.url ?? 'this server'}: ${why}` }],
      };
    }
    if (!res.ok) return { isError: true, content: [{ type: 'text', text: refusalText(res.status, text) }] };
    return { content: [{ type: 'text', text: text || `HTTP ${res.status}` }] };
  });

  server.setRequestHandler(ListResourcesRequestSchema, async () => ({
    resources: resources().map(({ name, uri, title, mimeType }) => ({ name, uri, title, mimeType })),
  }));

  server.setRequestHandler(ReadResourceRequestSchema, async (request) => {
    const all = resources();
    const resource = all.find((r) => r.uri === request.params.uri);
    if (!resource) throw new Error(`no resource ${request.params.uri}: ${all.map((r) => r.uri).join(', ')}`);
    return { contents: [{ uri: resource.uri, mimeType: resource.mimeType, text: resource.text() }] };
  });

  return server;
}
