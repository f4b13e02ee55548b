/** `dipswitch mcp`: an MCP server on stdin and stdout (src/mcp/server.ts) over a running dipswitch, for a local agent. */
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { mcpServer, type McpTarget } from '../mcp/server.js';

export async function mcp(f: McpTarget): Promise<void> {
  const server = mcpServer(f);
  const transport = new StdioServerTransport();
  const closed = new Promise<void>((resolve) => (transport.onclose = resolve));
  await server.connect(transport);
  // stdout is the protocol's: nothing else is written to it
  process.stdin.on('end', () => void server.close());
  await closed;
}
