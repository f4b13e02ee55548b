/**
 * `POST /__sim/mcp`: dipswitch's MCP server over Streamable HTTP without sessions (src/mcp/exchange.ts).
 * Its tools call this server's core in the process as the call's own caller: its Authorization as sent,
 * and the admin token when the call had the control API's authority. The MCP SDK is an optional
 * package (src/domain/features.ts): without it the call answers 501 with the line that says what to add.
 */
import { DomainError } from '../domain/errors.js';
import { FeatureMissing, loadFeature } from '../domain/features.js';
import type { SimHandlerMap, SimReply } from '../handling/handler.js';

export const agentHandlers = {
  simMcp: async ({ body, callBack }) => {
    const { exchange } = await loadFeature('mcp', () => import('../mcp/exchange.js')).catch((e: unknown) => {
      if (e instanceof FeatureMissing) throw new DomainError('not_implemented', [{ detail: e.message }]);
      throw e;
    });
    const messages = Array.isArray(body) ? body : [body];
    const answers = await exchange({ request: callBack.asCaller }, messages);
    if (!answers.length) return { status: 202, body: undefined };
    // cast: the contract says a JSON-RPC message is an object, and the SDK's messages are those objects
    const answer = (Array.isArray(body) ? answers : answers[0]) as Extract<SimReply<'simMcp'>, { status: 200 }>['body'];
    return { status: 200, body: answer };
  },
} satisfies Partial<SimHandlerMap>;
