/**
 * The HTTP layer in one page: express for the wire, and one pipeline for both APIs (the simulated
 * `/api/v1` and the control API `/__sim`), its stages named in the order a call meets them:
 * route (compiled from the contracts), authenticate, faults, authorize, parse, validate
 * (openapi-backend's Ajv 2020-12 validators), handle (inside one unit of work, committed before
 * answering), answer (checked against the contract in the test suite), journal.
 */
import cors from 'cors';
import express, { type Request, type Response } from 'express';
import { ValidationContext, type OpenAPIBackend } from 'openapi-backend';
import { loadContract, type OperationMeta } from '../contract.js';
import { DomainError, invalidField } from '../domain/errors.js';
import type { HandlerMap, SimHandlerMap } from '../handling/handler.js';
import { controlPort } from '../handling/control_port.js';
import type { Runtime } from '../runtime.js';
import { wallClock } from '../deps.js';
import { Admission, RETRY_AFTER_S } from './admission.js';
import { answerStage, failStage, JsonRpcRefusal } from './answer.js';
import { backend } from './backend.js';
import { newCall, type Call } from './call.js';
import { JSON_LIMIT_BYTES, type Handle, type Incoming, type Outgoing } from './exchange.js';
import { openStream } from './stream.js';
import type { Attributes } from '../observability/tracing.js';
import type { AppOptions, Pipeline } from './pipeline.js';
import { compileRoutes } from './router.js';
import {
  authenticateStage,
  authorizeStage,
  controlAuthority,
  faultStage,
  handleStage,
  parseStage,
  routeStage,
  validateStage,
} from './stages.js';

/** How long a browser may keep a preflight's answer. */
const CORS_MAX_AGE_S = 600;

export type { AppOptions } from './pipeline.js';

/** The server: express's adapter, and the core it feeds (`core`: a call answered in the process, no socket). */
export type App = express.Express & { contractViolations: string[]; core: Handle };

/**
 * Checks of an answer against the error envelope of the API it belongs to, each compiled at its first
 * check (tests only): the first compile of an Ajv validates the meta-schema, ~100 ms.
 */
function errorSchemas(): Pipeline['errorSchemaFor'] {
  const compiled = new Map<OpenAPIBackend, ReturnType<Pipeline['errorSchemaFor']>>();
  return (api) => {
    let schema = compiled.get(api);
    if (!schema) {
      const components = (api.definition.components?.schemas ?? {}) as Record<string, object>;
      compiled.set(
        api,
        (schema = api.validator.getAjv(ValidationContext.Response).compile(components.error_response ?? {})),
      );
    }
    return schema;
  };
}

/** A body its front door could not read (over the limit, or broken): answered and journaled like any failure. */
function unreadable(p: Pipeline, kind: 'too_large' | 'broken', call: Call): Promise<void> {
  const { req } = call;
  try {
    call.route = (() => {
      const r = p.match(req.method, req.path);
      return r && !('allow' in r) ? r : undefined;
    })();
  } catch {
    // an unreadable path parameter: the body's failure is the one to say
  }
  return failStage(
    p,
    call,
    kind === 'too_large'
      ? new DomainError('payload_too_large', [
          { detail: `The body is over the ${JSON_LIMIT_BYTES / 1024 / 1024} MB limit.` },
        ])
      : invalidField('/', 'The body could not be read.'),
  );
}

/**
 * An operation whose body is a JSON-RPC message (`x-jsonrpc`: the MCP endpoint) refuses a body it cannot
 * read as JSON-RPC refuses it: not JSON, -32700; not a message, -32600 (answerStage's JsonRpcRefusal).
 */
async function jsonRpcRefused<T>(
  meta: OperationMeta<string>,
  code: -32700 | -32600,
  stage: () => T | Promise<T>,
): Promise<T> {
  try {
    return await stage();
  } catch (e) {
    if (!meta.jsonRpc || !(e instanceof DomainError)) throw e;
    throw new JsonRpcRefusal(code, e.errors.map((x) => x.detail).join(' '));
  }
}

/** A call's span attributes (OpenTelemetry's stable HTTP conventions, and dipswitch's operation and account). */
function callAttributes(call: Call): Attributes {
  const { req } = call;
  const status = call.status ?? undefined;
  return {
    'http.request.method': KNOWN_METHODS.has(req.method) ? req.method : '_OTHER',
    'http.route': call.route?.meta.path,
    'http.response.status_code': status,
    'error.type': status !== undefined && status >= 500 ? String(status) : call.status === null ? 'dropped' : undefined,
    'url.path': req.path,
    'url.scheme': 'http',
    'network.protocol.version': req.httpVersion,
    'client.address': req.remoteAddress,
    'user_agent.original': req.headers['user-agent'],
    'dipswitch.operation_id': call.route?.meta.operationId,
    'dipswitch.account_id': call.principal?.accountId ?? call.claimed,
  };
}

const KNOWN_METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'CONNECT', 'TRACE']);

/**
 * Runs the stages of one call, in the order it meets them: who calls, faults, authority, the body
 * and its validation come first, holding nothing; the handler alone runs in the call's one unit of
 * work, for the caller's account, committed before the answer goes.
 */
async function pipeline(p: Pipeline, call: Call): Promise<void> {
  let release: (() => void) | undefined;
  try {
    const route = routeStage(p, call);
    const meta = route.meta;
    if (meta.api === 'sim') call.authority = controlAuthority(p, call, meta);
    await authenticateStage(p, call, meta);
    release = await admitted(p, call);
    let answer = await faultStage(p, call, meta);
    if (!answer) {
      authorizeStage(call, meta);
      await jsonRpcRefused(meta, -32700, () => parseStage(call, meta));
      answer = await handleStage(p, call, await jsonRpcRefused(meta, -32600, () => validateStage(call, route)));
    }
    await answerStage(p, call, answer);
  } catch (err) {
    if (!call.answered)
      await failStage(p, call, err).catch((e) => p.runtime.logger.warn(`answering failed: ${String(e)}`));
  } finally {
    release?.();
  }
}

/**
 * Waits for the call's turn among its account's (none for a call of no account, nor for one made inside a call let
 * in); a full backlog: 503, Retry-After.
 */
async function admitted(p: Pipeline, call: Call): Promise<(() => void) | undefined> {
  if (!call.principal || call.req.inside) return undefined;
  try {
    return await p.admission.admit(call.principal.accountId);
  } catch (e) {
    call.reply.headers['retry-after'] = String(RETRY_AFTER_S);
    throw e;
  }
}

/** The handlers of both APIs, keyed by operationId (the composition root gives src/api's and src/control's). */
export interface Handlers {
  api: HandlerMap;
  sim: SimHandlerMap;
}

/** Creates the whole server; `listen` is the caller's business (src/cli/main.ts). */
export async function createApp(runtime: Runtime, handlers: Handlers, opts: AppOptions = {}): Promise<App> {
  const [v1, sim] = [await backend('openapi'), await backend('sim')];
  const errorSchemaFor = errorSchemas();
  const match = compileRoutes([loadContract(), v1], [loadContract('sim'), sim]);
  const app = express() as App;
  app.contractViolations = [];
  const p: Pipeline = {
    runtime,
    opts,
    v1,
    sim,
    match,
    handlers: opts.handlers ?? handlers.api,
    simHandlers: handlers.sim,
    port: controlPort(runtime, { traceViewer: opts.traceViewer ?? null }),
    errorSchemaFor,
    violations: app.contractViolations,
    handle: (req) => handle(req),
    admission: new Admission(
      {
        perAccount: runtime.limits.accountInFlight,
        total: runtime.limits.callsInFlight,
        backlog: runtime.limits.accountBacklog,
        rate: opts.accountRate,
      },
      wallClock,
    ),
  };
  runtime.metrics.queues = () => p.admission.depths();
  runtime.metrics.admissionLimits = () => p.admission.limits;
  app.disable('x-powered-by');
  // no ETag: hashing every answer's body cost more than any client saves on this API
  app.set('etag', false);
  app.set('query parser', 'simple');

  /** The core: one call, from any front door, answered in its server span (docs/observability.md). */
  const handle: Handle = (req) =>
    runtime.tracing.serve(req.headers, async (span) => {
      const call = newCall(req, span);
      await (req.unreadable ? unreadable(p, req.unreadable, call) : pipeline(p, call));
      // off, nothing of the span is made
      if (runtime.tracing.on) {
        span.rename(call.route ? `${req.method} ${call.route.meta.path}` : req.method);
        span.set(callAttributes(call));
        if (call.status === null || (call.status ?? 0) >= 500) span.fail(String(call.status ?? 'dropped'));
      }
      return call.reply;
    });
  app.core = handle;

  const corsLayer = opts.cors === false ? undefined : cors({ origin: true, credentials: true, maxAge: CORS_MAX_AGE_S });
  const bodyLayer = express.raw({
    type: (req) => !String(req.headers['content-type'] ?? '').startsWith('multipart/'),
    limit: JSON_LIMIT_BYTES,
  });
  // one layer in express's router, not one a step: CORS (a preflight is answered here), the body, then the
  // server's root (pointing a browser at the dashboard, which links both contracts) or the core
  app.use((req: Request, res: Response) => {
    const afterCors = () =>
      bodyLayer(req, res, (err?: unknown) => {
        if (req.path === '/' && !err && (req.method === 'GET' || req.method === 'HEAD'))
          return res.redirect(302, '/__sim/ui');
        const unread = err
          ? (err as { type?: string }).type === 'entity.too.large'
            ? 'too_large'
            : 'broken'
          : undefined;
        void handle(incomingOf(req, unread)).then((out) => write(runtime, req, res, out));
      });
    if (corsLayer) corsLayer(req, res, afterCors);
    else afterCors();
  });

  return app;
}

/** What the core reads of an express request. */
function incomingOf(req: Request, unreadable?: Incoming['unreadable']): Incoming {
  const { localAddress = '127.0.0.1', localPort } = req.socket;
  return {
    method: req.method,
    path: req.path,
    query: req.query as Record<string, string | string[]>,
    headers: req.headers,
    body: Buffer.isBuffer(req.body) ? req.body : undefined,
    stream: String(req.headers['content-type'] ?? '').startsWith('multipart/') ? req : undefined,
    unreadable,
    origin: `http://${localAddress.includes(':') ? `[${localAddress}]` : localAddress}:${localPort}`,
    httpVersion: req.httpVersion,
    remoteAddress: req.socket.remoteAddress,
  };
}

/** Writes the core's answer on the wire: dropped, a live stream, or a status with its body (express's `send`). */
function write(runtime: Runtime, req: Request, res: Response, out: Outgoing): void {
  if (out.status === null) {
    req.socket.destroy();
    return;
  }
  for (const [name, value] of Object.entries(out.headers)) res.setHeader(name, value);
  if (out.stream) return openStream(runtime, res, out.stream);
  res.status(out.status).type(out.contentType ?? 'application/json');
  if (out.status === 204 || out.body === undefined) res.end();
  else res.send(out.body);
}
