/**
 * dipswitch's MCP server, driven by the SDK's own client over stdio (`dipswitch mcp`, the built
 * command) and over Streamable HTTP (`POST /__sim/mcp`): its tools are the contracts' operations, with the
 * contracts' descriptions and schemas;
 * an agent makes a sandbox, routes one of its numbers to a receiver, injects an inbound SMS, moves
 * the clock and verifies a call; a refusal is the tool's error, with the message the HTTP answer has.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { mcpServer } from '../../src/mcp/server.js';
import { afterEach, describe, expect, it } from 'vitest';
import { loadContract, projectRoot } from '../../src/contract.js';
import { COMMAND } from '../support/cli_process.js';
import { envelope, startTestServer, useReceiver, useServer } from '../support/helpers.js';

type Text = { type: string; text: string }[];

describe('the MCP server, over stdio (dipswitch mcp) and over HTTP (/__sim/mcp)', () => {
  const server = useServer();
  const receiver = useReceiver();
  const clients: Client[] = [];
  afterEach(async () => {
    await Promise.all(clients.splice(0).map((c) => c.close()));
  });

  type Agent = (key?: string) => Promise<Client>;

  /** An agent's client of `dipswitch mcp` over the test server, acting with `key` (the control API's authority without one). */
  const overStdio: Agent = async (key) => {
    const client = new Client({ name: 'test-agent', version: '1.0.0' });
    const args = [...COMMAND, 'mcp', '--url', server().base, ...(key ? ['--key', key] : [])];
    await client.connect(new StdioClientTransport({ command: process.execPath, args, stderr: 'pipe' }));
    clients.push(client);
    return client;
  };

  /** An agent's client of the server's own `/__sim/mcp`, its calls with `key`. */
  const overHttp: Agent = async (key) => {
    const client = new Client({ name: 'test-agent', version: '1.0.0' });
    const headers: Record<string, string> = key ? { authorization: `Bearer ${key}` } : {};
    await client.connect(
      new StreamableHTTPClientTransport(new URL('/__sim/mcp', server().base), { requestInit: { headers } }),
    );
    clients.push(client);
    return client;
  };

  /** Calls a tool; its text parsed as JSON when it is, and whether it is an error. */
  async function tool(client: Client, name: string, args: Record<string, unknown>) {
    const result = await client.callTool({ name, arguments: args });
    const text = (result.content as Text).map((c) => c.text).join('\n');
    let json: any;
    try {
      json = JSON.parse(text);
    } catch {
      json = undefined;
    }
    return { error: result.isError === true, text, json };
  }

  it("lists every operation of both contracts as a tool, with the contract's description and schema", async () => {
    const client = await overStdio();
    const { tools } = await client.listTools();
    const names = new Set(tools.map((t) => t.name));
    for (const id of ['simCreateSandbox', 'simInboundSms', 'simAdvance', 'simVerifyRequests', 'createSwitch'])
      expect(names, id).toContain(id);
    // no operation is left out but the streams, the dashboard's pages, this endpoint, a listener's answers and the uploads
    const contractIds = [...loadContract('sim').operations.keys(), ...loadContract().operations.keys()];
    expect(contractIds.filter((id) => !names.has(id)).sort()).toEqual([
      'simDashboard',
      'simDashboardAsset',
      'simListen',
      'simListenAnswer',
      'simMcp',
      'simRequestStream',
      'uploadCartRequestDocument',
      'uploadRequestDocument',
    ]);
    // the agents' page says how many there are, in both places it counts them
    const page = readFileSync(join(projectRoot, 'docs', 'agents.md'), 'utf8');
    expect(page.match(/(\d+) in all\b/)?.[1]).toBe(String(tools.length));
    expect(page.match(/← (\d+) tools:/)?.[1]).toBe(String(tools.length));
    const advance = tools.find((t) => t.name === 'simAdvance')!;
    expect(advance.description).toContain('POST /__sim/clock/advance: Advance the clock');
    const body = (advance.inputSchema.properties as Record<string, any>).body;
    expect(body.properties.by.description).toContain('ISO 8601 duration');
    expect(advance.inputSchema.required).toEqual(['body']);
    const { resources } = await client.listResources();
    expect(resources.map((r) => r.uri).slice(0, 2)).toEqual([
      'dipswitch://contract/openapi.yaml',
      'dipswitch://contract/sim.yaml',
    ]);
    // and every page of the docs
    expect(resources.find((r) => r.uri === 'dipswitch://docs/hosted.md')).toMatchObject({
      title: 'A hosted sandbox',
      mimeType: 'text/markdown',
    });
    const hosted = await client.readResource({ uri: 'dipswitch://docs/agents.md' });
    expect((hosted.contents[0] as { text: string }).text).toContain('dipswitch mcp');
    const sim = await client.readResource({ uri: 'dipswitch://contract/sim.yaml' });
    expect((sim.contents[0] as { text: string }).text).toBe(loadContract('sim').yamlText());
  });

  it.each([
    ['stdio', overStdio],
    ['HTTP', overHttp],
  ])(
    'over %s: makes a sandbox, routes a number, injects an SMS, moves the clock and verifies; a refusal is the error',
    async (_over, agent) => {
      const operator = await agent();
      const box = await tool(operator, 'simCreateSandbox', { body: { name: 'agent' } });
      expect(box.error, box.text).toBe(false);
      const number = box.json.numbers[0] as string;

      const inBox = await agent(box.json.keys.admin as string);
      const sw = await tool(inBox, 'createSwitch', {
        body: envelope('switch', {
          name: 'to the laptop',
          sms_enabled: true,
          sms_protocol: 'HTTP',
          sms_data: `${receiver().url}/sms`,
        }),
      });
      expect(sw.error, sw.text).toBe(false);
      const routed = await tool(inBox, 'updateNumber', {
        number_id: number,
        body: envelope('did', { switch_id: sw.json.data.id }),
      });
      expect(routed.error, routed.text).toBe(false);
      const sms = await tool(inBox, 'simInboundSms', {
        body: { to: number, from: '+14155550123', text: 'hello agent' },
      });
      expect(sms.error, sms.text).toBe(false);
      expect(receiver().received.map((r) => r.body.toString())).toEqual([expect.stringContaining('hello agent')]);
      const moved = await tool(inBox, 'simAdvance', { body: { by: 'PT10M' } });
      expect(moved.error, moved.text).toBe(false);
      expect(Date.parse(moved.json.now) - Date.parse(moved.json.from)).toBe(600_000);
      const verified = await tool(inBox, 'simVerifyRequests', {
        body: { match: { operation_id: 'createSwitch' }, count: { exactly: 1 } },
      });
      expect(verified.error, verified.text).toBe(false);
      expect(verified.json.count).toBe(1);

      // a refusal is the tool's error, with the HTTP answer's message and body
      const typo = await tool(inBox, 'simVerifyRequests', {
        body: { match: { operation_id: 'createSwich' }, count: { exactly: 1 } },
      });
      const http = await server().call('POST', '/__sim/requests/verify', {
        key: box.json.keys.admin,
        body: { match: { operation_id: 'createSwich' }, count: { exactly: 1 } },
      });
      expect(typo.error).toBe(true);
      expect(typo.text).toContain('Did you mean `createSwitch`');
      expect(typo.text.split('\n')[0]).toBe(
        `HTTP ${http.status}: ${http.body.errors.map((e: any) => e.detail).join(' ')}`,
      );
      const other = await tool(inBox, 'getSwitch', { id: '01JZZZZZZZZZZZZZZZZZZZZZZZ' });
      expect(other.error).toBe(true);
      expect(other.text).toMatch(/^HTTP 404/);
      // an argument the tool does not take is refused before any call
      const misnamed = await tool(inBox, 'getSwitch', { switch_id: sw.json.data.id });
      expect(misnamed).toMatchObject({
        error: true,
        text: 'getSwitch takes no switch_id. getSwitch needs id. Its arguments: id.',
      });
    },
  );

  it('over HTTP: guarded as the rest of /__sim, each call journaled as its caller; a notification answers 202', async () => {
    const guarded = await startTestServer({ simAdminToken: 'tok' });
    try {
      const post = (headers: Record<string, string>, body: unknown) =>
        fetch(`${guarded.base}/__sim/mcp`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
          body: JSON.stringify(body),
        });
      const list = { jsonrpc: '2.0', id: 1, method: 'tools/list' };
      expect((await post({}, list)).status).toBe(403);
      const listed = await post({ 'x-sim-admin-token': 'tok' }, list);
      expect(listed.status).toBe(200);
      expect(((await listed.json()) as any).result.tools.length).toBeGreaterThan(100);
      // with a key, a tool acts as that key's account: the partner's carts, not Demo's
      const call = { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'listCarts', arguments: {} } };
      const partner = await post({ authorization: 'Bearer partner-admin-key' }, call);
      const text = ((await partner.json()) as any).result.content[0].text as string;
      expect(JSON.parse(text).results).toEqual([]);
      const journal = await guarded.call('GET', '/__sim/requests?operation_id=listCarts', {
        key: null,
        headers: { 'x-sim-admin-token': 'tok' },
      });
      expect(journal.body.requests.map((e: any) => e.account_id)).toContain('0a0a0a0a-0000-4000-8000-000000000002');
      const note = await post({ 'x-sim-admin-token': 'tok' }, { jsonrpc: '2.0', method: 'notifications/initialized' });
      expect(note.status).toBe(202);
      // what is no JSON-RPC message is answered with JSON-RPC's own error
      const junk = await post({ 'x-sim-admin-token': 'tok' }, [{ id: 7, hello: true }]);
      expect(await junk.json()).toEqual([
        { jsonrpc: '2.0', id: 7, error: { code: -32600, message: 'Invalid Request: not a JSON-RPC 2.0 message' } },
      ]);
      // a body that is not JSON, or JSON that is no message at all: JSON-RPC's errors too, not the REST envelope
      const raw = (body: string) =>
        fetch(`${guarded.base}/__sim/mcp`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-sim-admin-token': 'tok' },
          body,
        });
      const unparsed = await raw('{"jsonrpc": "2.0", "id": 1, "method": ');
      expect(unparsed.status).toBe(400);
      expect(await unparsed.json()).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32700 } });
      const number = await raw('42');
      expect(number.status).toBe(400);
      expect(await number.json()).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32600 } });
    } finally {
      await guarded.close();
    }
  });

  it("a tool call not answered in time is the tool's error, and the next call goes on", async () => {
    const client = new Client({ name: 'test-agent', version: '1.0.0' });
    const [ours, theirs] = InMemoryTransport.createLinkedPair();
    await mcpServer({ url: server().base, key: 'demo-admin-key', timeoutMs: 1_000 }).connect(theirs);
    await client.connect(ours);
    clients.push(client);
    // the fault is added over HTTP: only the delayed call meets the agent's short timeout (a busy machine's
    // other calls may take a good part of it)
    const added = await server().call('POST', '/__sim/faults', {
      key: null,
      body: { match: { operation_id: 'listCarts' }, effect: { delay_ms: 2_000 }, times: 1 },
    });
    expect(added.status, added.text).toBe(201);
    expect(await tool(client, 'listCarts', {})).toMatchObject({
      error: true,
      text: `GET /api/v1/carts at ${server().base}: no answer within 1 s`,
    });
    const next = await tool(client, 'listCarts', {});
    expect(next.error, next.text).toBe(false);
  });
});
