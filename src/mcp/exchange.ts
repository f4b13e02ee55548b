/**
 * MCP over Streamable HTTP without sessions (`POST /__sim/mcp`): the messages of one POST given to a
 * fresh server of this request's credentials (server.ts) over the SDK's in-process transport, and
 * the answers to its requests collected. A message that is no JSON-RPC 2.0 message is answered with
 * JSON-RPC's own error (-32600), never left unanswered.
 */
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { isJSONRPCRequest, JSONRPCMessageSchema, type JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { mcpServer, type McpTarget } from './server.js';

/** At most this many messages in one POST's batch. */
export const MCP_BATCH = 100;

/** The answers to the requests among `messages`, in their order (none: notifications only). */
export async function exchange(target: McpTarget, messages: readonly unknown[]): Promise<unknown[]> {
  const server = mcpServer(target);
  const [ours, theirs] = InMemoryTransport.createLinkedPair();
  const waiting = new Map<string | number, (m: JSONRPCMessage) => void>();
  ours.onmessage = (m) => {
    const id = 'id' in m ? m.id : undefined;
    if (id !== undefined && !('method' in m)) waiting.get(id)?.(m);
  };
  await server.connect(theirs);
  await ours.start();
  const answers: unknown[] = [];
  try {
    for (const message of messages.slice(0, MCP_BATCH)) {
      const parsed = JSONRPCMessageSchema.safeParse(message);
      if (!parsed.success) {
        const id = (message as { id?: unknown } | null)?.id;
        const error = { code: -32600, message: 'Invalid Request: not a JSON-RPC 2.0 message' };
        answers.push({ jsonrpc: '2.0', id: typeof id === 'string' || typeof id === 'number' ? id : null, error });
        continue;
      }
      const request = parsed.data;
      if (!isJSONRPCRequest(request)) {
        await ours.send(request);
        continue;
      }
      const answered = new Promise<JSONRPCMessage>((resolve) => waiting.set(request.id, resolve));
      await ours.send(request);
      answers.push(await answered);
    }
  } finally {
    await server.close();
  }
  return answers;
}
