/**
 * The last stages of a call: the answer (checked against its contract in the test suite), its line
 * in the log, its entry in the request journal, and the one place a failure becomes an answer.
 */
import { elapsedMs } from '../deps.js';
import { DomainError } from '../domain/errors.js';
import { StorageUnavailable } from '../store/store.js';
import type { Call } from './call.js';
import { envelope, statusOf } from './errors.js';
import type { StreamWriter } from '../handling/handler.js';
import type { Pipeline } from './pipeline.js';

/** What a call is answered with: a handler's reply, an injected fault (not checked: it leaves the contract on purpose), or a failure. */
export interface Answer {
  /** Null only with `wire: 'drop'`: no answer at all. */
  status: number | null;
  body: unknown;
  contentType?: string;
  /** Checked against the contract when the app checks answers; true unless said otherwise. */
  checked?: boolean;
  /** A live answer: its writer is handed over once the headers are sent. */
  stream?: (out: StreamWriter) => void;
  /** What a fault writes on the wire instead: the connection closed (`drop`), or MALFORMED as the body. */
  wire?: 'drop' | 'malformed';
}

/** The body a `malformed` fault answers: JSON cut short. */
export const MALFORMED = '{"data": {"id": ';

/** The answer's text (JSON; undefined for another type or no body), checked against the contract in the test suite. */
export function render(
  p: Pipeline,
  call: Call,
  status: number,
  body: unknown,
  contentType = 'application/json',
  checked = true,
): string | undefined {
  const route = call.route;
  if (p.opts.validateResponses && checked && contentType === 'application/json' && status !== 204) {
    const declared = route?.operation.responses?.[String(status)];
    const errorSchema = p.errorSchemaFor(route?.api === p.sim ? p.sim : p.v1);
    const result =
      declared && route
        ? route.api.validator.validateResponse(body, route.operation, status)
        : { errors: errorSchema(body) ? null : errorSchema.errors };
    if (result.errors && result.errors.length) {
      const what = `${route?.meta.operationId ?? 'no operation'} answered ${status} off contract: ${JSON.stringify(result.errors)}`;
      p.violations.push(what);
      p.runtime.logger.warn(what);
    }
  }
  return status === 204 || contentType !== 'application/json' ? undefined : JSON.stringify(body);
}

/** The header the dashboard sends with every call of its own (docs/dashboard.md). */
export const DASHBOARD_HEADER = 'x-dipswitch-dashboard';

/** The operations that serve the dashboard's page and files: the dashboard's own, never a client's call. */
const DASHBOARD_OPERATIONS = new Set(['simDashboard', 'simDashboardAsset']);
/** An orchestrator's probes: asked every few seconds, never the client's traffic, and answered without the store. */
const PROBES = new Set(['simHealth', 'simReady']);

/** Makes the call's answer (call.reply: its front door writes it), and writes the call into the request journal. */
export async function answerStage(p: Pipeline, call: Call, answer: Answer): Promise<void> {
  const { status, body: payload, contentType, stream, wire } = answer;
  const meta = call.route?.meta;
  // the journal's time: the caller's clock as its handler saw it, or as read with its key; else the server's
  const clock = call.clock ?? p.runtime.clocks.server();
  const text = wire
    ? wire === 'malformed'
      ? MALFORMED
      : ''
    : stream
      ? '"(a stream)"'
      : render(p, call, status ?? 0, payload, contentType, answer.checked !== false);
  call.answered = true;
  call.status = status;
  const raw = call.req.body;
  const latency = elapsedMs(call.started);
  if (meta?.api !== 'sim')
    p.runtime.logger.info(`${call.req.method} ${call.req.path} ${status ?? 'dropped'} ${latency.toFixed(1)} ms`, {
      kind: 'call',
      method: call.req.method,
      path: call.req.path,
      operation: meta?.operationId ?? null,
      status,
      ms: Math.round(latency * 10) / 10,
      account: call.principal?.accountId ?? null,
    });
  p.runtime.metrics.call(meta?.api === 'sim' ? 'sim' : 'v1', meta?.operationId ?? null, status, latency / 1000);
  // the dashboard's own calls are not the client's traffic: not journaled, so never verified or counted in coverage
  if (
    call.req.headers[DASHBOARD_HEADER] === undefined &&
    !DASHBOARD_OPERATIONS.has(meta?.operationId ?? '') &&
    !PROBES.has(meta?.operationId ?? '')
  )
    await p.runtime.journal
      .record({
        api: meta?.api ?? (call.req.path.startsWith('/__sim') ? 'sim' : 'openapi'),
        at: clock.iso(),
        method: call.req.method,
        path: call.req.path,
        operation_id: meta?.operationId ?? null,
        // a call refused before any account is known is the server's; one refused for an account's credentials is that account's too
        account_id: call.principal?.accountId ?? call.claimed ?? null,
        status,
        latency_ms: latency,
        trace_id: call.span.traceId,
        headers: call.req.headers,
        query: call.req.query,
        // a caller without a valid key leaves no body behind
        requestBody:
          call.unauthenticated || (meta?.scope && !call.principal)
            ? undefined
            : meta?.multipart
              ? (call.body as Record<string, unknown>)
              : raw?.toString('utf8'),
        responseText: text ?? (status === 204 ? '' : '"(not JSON)"'),
      })
      // the answer goes whatever the journal met (a shared store that is down is logged)
      .catch((e: Error) => p.runtime.logger.warn(`journal: ${e.message}`));
  const reply = call.reply;
  reply.status = wire === 'drop' ? null : stream ? 200 : status;
  if (stream) reply.stream = stream;
  else if (wire !== 'drop') {
    reply.contentType = contentType ?? 'application/json';
    reply.body = status === 204 || payload === undefined ? undefined : (text ?? (payload as string | Buffer));
  }
}

/** A body a JSON-RPC operation could not read (`x-jsonrpc`): answered as JSON-RPC (contract/sim.yaml `jsonrpc_error`). */
export class JsonRpcRefusal extends Error {
  constructor(
    readonly code: -32700 | -32600,
    readonly detail: string,
  ) {
    super(`${code === -32700 ? 'Parse error' : 'Invalid Request'}: ${detail}`);
  }
}

/** The one place a failure becomes an answer. */
export async function failStage(p: Pipeline, call: Call, err: unknown): Promise<void> {
  const invalidStatus = call.route?.meta.invalidStatus ?? 404;
  if (err instanceof JsonRpcRefusal)
    return answerStage(p, call, {
      status: 400,
      body: { jsonrpc: '2.0', id: null, error: { code: err.code, message: err.message } },
    });
  let refusal: DomainError;
  if (err instanceof DomainError) refusal = err;
  else if (err instanceof StorageUnavailable)
    refusal = new DomainError('storage_unavailable', [
      {
        detail:
          'The simulator could not reach its store (its disk refused a write, or its database did not answer); nothing was changed. Try again.',
      },
    ]);
  else {
    p.runtime.logger.warn(
      `internal error on ${call.req.method} ${call.req.path}: ${(err as Error).stack ?? String(err)}`,
    );
    refusal = new DomainError('internal_error', [{ detail: 'The simulator failed; this is a dipswitch bug.' }]);
  }
  return answerStage(p, call, { status: statusOf(refusal, invalidStatus), body: envelope(refusal) });
}
