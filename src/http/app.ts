/**
 * The HTTP layer in one page: express for the wire, and one pipeline for both APIs (the simulated
 * `/api/v1` and the control API `/__sim`), its stages named in the order a call meets them:
 * route (compiled from the contracts), authenticate, faults, authorize, parse, validate
 * (openapi-backend's Ajv 2020-12 validators), handle (inside one unit of work, committed before
 * answering), answer (checked against the contract in the test suite), journal.
 */
import cors from 'cors';
import express, { type NextFunction, type Request, type Response } from 'express';
import { OpenAPIBackend, type Document } from 'openapi-backend';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { elapsedMs, stopwatch, wallClock } from '../deps.js';
import { authenticate, authorize, type Principal } from './auth.js';
import { loadContract, type ApiName, type OperationId, type OperationMeta, type SimOperationId } from '../contract.js';
import { DomainError, invalidField } from '../domain/errors.js';
import { envelope, statusOf } from './errors.js';
import type { Ctx, HandlerMap, SimCtx, StreamWriter } from './handler.js';
import { readMultipart, type Upload } from './multipart.js';
import { compileRoutes, type Route } from './router.js';
import { validationError } from './validation.js';
import { handlers as allHandlers } from '../api/index.js';
import type { Runtime } from '../runtime.js';
import type { Clock } from '../engine/clock.js';
import { simHandlers } from '../control/index.js';
import { DEMO_ACCOUNT } from '../store/fixtures.js';
import type { FaultEffect } from '../engine/faults.js';
import { StorageUnavailable } from '../store/store.js';

export const JSON_LIMIT = '1mb';
/** How long a browser may keep a preflight's answer. */
const CORS_MAX_AGE_S = 600;

export interface AppOptions {
  /** Check every answer against the contract and fail loudly on a mismatch (the test suite sets it). */
  validateResponses?: boolean;
  /** When set, every /__sim call but health needs the header X-Sim-Admin-Token with this value. */
  simAdminToken?: string;
  /** Replaces the handler map (tests of the pipeline itself). */
  handlers?: HandlerMap;
  /**
   * CORS for browser front ends (on unless `false`): preflights are answered before the pipeline,
   * and every answer echoes the caller's `Origin`, as Prism's mock does.
   */
  cors?: boolean;
}

export type App = express.Express & { contractViolations: string[] };

const backends = new Map<ApiName, Promise<OpenAPIBackend>>();

/** The routers and validators hold no state of a server's own, so every app of the process shares them. */
function backend(name: ApiName): Promise<OpenAPIBackend> {
  let api = backends.get(name);
  if (!api) backends.set(name, (api = buildBackend(loadContract(name as 'sim').document)));
  return api;
}

/**
 * Builds the openapi-backend router and validator for a contract (OpenAPI 3.1, Ajv 2020-12).
 * `quick` compiles each operation's validators on its first request, which keeps start-up short.
 */
async function buildBackend(document: Record<string, unknown>): Promise<OpenAPIBackend> {
  const api = new OpenAPIBackend({
    definition: withoutMappings(structuredClone(document)) as unknown as Document,
    apiRoot: '/',
    strict: true,
    quick: true,
    coerceTypes: true,
    ajvOpts: { allErrors: true, strict: false },
    customizeAjv: (_ajv, opts) => {
      const ajv = new Ajv2020({ ...opts, discriminator: true });
      addFormats.default(ajv);
      ajv.addFormat('binary', true);
      return ajv as never;
    },
  });
  // openapi-backend checks documents against the 3.0 schema only; the contracts are linted by spectral instead.
  api.validateDefinition = () => api.document;
  await api.init();
  return api;
}

/**
 * The document as Ajv reads it: a discriminator's `mapping` (there for the generated types, which
 * narrow by its names) is dropped, since Ajv finds each branch by the const of its tag without it.
 */
function withoutMappings<T>(node: T): T {
  if (Array.isArray(node)) node.forEach(withoutMappings);
  else if (node && typeof node === 'object') {
    for (const [k, v] of Object.entries(node)) {
      if (k === 'discriminator' && v && typeof v === 'object') delete (v as { mapping?: unknown }).mapping;
      else withoutMappings(v);
    }
  }
  return node;
}

const queryNames = new WeakMap<object, Set<string>>();

/** The query parameters the operation declares; the others are ignored. */
function declaredQuery(route: Route, query: Record<string, string | string[]>): Record<string, string | string[]> {
  let names = queryNames.get(route.operation);
  if (!names) {
    names = new Set((route.operation.parameters ?? []).flatMap((p) => ('in' in p && p.in === 'query' ? [p.name] : [])));
    queryNames.set(route.operation, names);
  }
  const out: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(query)) if (names.has(name)) out[name] = value;
  return out;
}

function parseJsonBody(req: Request): unknown {
  const raw = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
  if (raw.length === 0) return {};
  const type = (req.headers['content-type'] ?? 'application/json').split(';')[0]?.trim().toLowerCase() ?? '';
  if (type !== 'application/json' && !type.endsWith('+json')) {
    throw invalidField('/', `Content-Type must be application/json, not ${type}.`);
  }
  try {
    return JSON.parse(raw.toString('utf8'));
  } catch (e) {
    throw invalidField('/', `The body is not valid JSON: ${(e as Error).message}.`);
  }
}

/** The server's own bound address, as the socket knows it: never the Host header. */
function ownOrigin(req: Request): string {
  const address = req.socket.localAddress ?? '127.0.0.1';
  return `http://${address.includes(':') ? `[${address}]` : address}:${req.socket.localPort}`;
}

/** What the pipeline knows of a call so far; each stage adds to it. */
interface Call {
  req: Request;
  res: Response;
  started: bigint;
  route?: Route;
  principal: Principal | null;
  /** The failure of authentication, raised after faults had their chance. */
  unauthenticated?: unknown;
  query: Record<string, unknown>;
  body?: unknown;
  upload?: Upload;
  /** The call was answered (an injected fault, or the handler's reply). */
  answered: boolean;
  /** The caller's clock, as the handler saw it (the journal's time). */
  clock?: Clock;
}

type Reply = { status: number; body: unknown; contentType?: string; stream?: (out: StreamWriter) => void };

/** A live answer whose caller has this much unread is ended (it may reconnect): nothing grows without bound. */
const STREAM_BUFFER_BYTES = 1024 * 1024;
/** A comment line this often keeps a live answer's connection (and any proxy on the way) open. */
const STREAM_HEARTBEAT_MS = 15_000;

/** Creates the whole server; `listen` is the caller's business (src/cli/main.ts). */
export async function createApp(runtime: Runtime, opts: AppOptions = {}): Promise<App> {
  const [v1, sim] = [await backend('openapi'), await backend('sim')];
  const handlers = opts.handlers ?? allHandlers;
  /** Checks an answer against the error envelope of the API it belongs to. */
  const errorSchemaOf = (api: OpenAPIBackend) =>
    api.validator
      .getAjv(0 as never)
      .compile(((api.definition.components?.schemas ?? {}) as Record<string, object>).error_response ?? {});
  // compiled at the first check (tests only): the first compile of an Ajv validates the meta-schema, ~100 ms
  const errorSchemas = new Map<OpenAPIBackend, ReturnType<typeof errorSchemaOf>>();
  const errorSchemaFor = (api: OpenAPIBackend) => {
    let schema = errorSchemas.get(api);
    if (!schema) errorSchemas.set(api, (schema = errorSchemaOf(api)));
    return schema;
  };
  const match = compileRoutes([loadContract(), v1], [loadContract('sim'), sim]);
  const { store, faults, journal, clocks } = runtime;
  const app = express() as App;
  app.contractViolations = [];
  app.disable('x-powered-by');
  // no ETag: hashing every answer's body cost more than any client saves on this API
  app.set('etag', false);
  app.set('query parser', 'simple');

  /** Writes the answer; in test mode it is checked against its contract first. Answers the JSON text sent. */
  /** The answer's text (JSON; undefined for another type or no body), checked against the contract in the test suite. */
  function render(
    call: Call,
    status: number,
    body: unknown,
    contentType = 'application/json',
    checked = true,
  ): string | undefined {
    const route = call.route;
    if (opts.validateResponses && checked && contentType === 'application/json' && status !== 204) {
      const declared = route?.operation.responses?.[String(status)];
      const errorSchema = errorSchemaFor(route?.api === sim ? sim : v1);
      const result =
        declared && route
          ? route.api.validator.validateResponse(body, route.operation, status)
          : { errors: errorSchema(body) ? null : errorSchema.errors };
      if (result.errors && result.errors.length) {
        const what = `${route?.meta.operationId ?? 'no operation'} answered ${status} off contract: ${JSON.stringify(result.errors)}`;
        app.contractViolations.push(what);
        runtime.logger.warn(what);
      }
    }
    return status === 204 || contentType !== 'application/json' ? undefined : JSON.stringify(body);
  }

  function send(call: Call, status: number, body: unknown, text: string | undefined, contentType = 'application/json') {
    call.res.status(status).type(contentType);
    if (status === 204) call.res.end();
    else call.res.send(text ?? body);
  }

  /** Sends a live answer's headers and hands its writer to `stream`; the journal keeps no body of it. */
  function openStream(call: Call, stream: (out: StreamWriter) => void): void {
    const res = call.res;
    res.status(200).set({
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-store',
      'x-accel-buffering': 'no',
    });
    res.flushHeaders();
    const closers: (() => void)[] = [];
    let open = true;
    const end = () => {
      if (!open) return;
      open = false;
      clearInterval(heartbeat);
      for (const fn of closers) fn();
      res.end();
    };
    const heartbeat = setInterval(() => writer.write(': still here\n\n'), STREAM_HEARTBEAT_MS);
    heartbeat.unref();
    const writer: StreamWriter = {
      write(chunk) {
        if (!open) return false;
        if (res.writableLength > STREAM_BUFFER_BYTES) {
          end();
          return false;
        }
        res.write(chunk);
        return true;
      },
      onClose: (fn) => closers.push(fn),
      end,
    };
    res.on('close', end);
    runtime.streams.add(end);
    closers.push(() => runtime.streams.delete(end));
    stream(writer);
  }

  // the stages, in the order a call meets them

  /** The operation of the method and path: 404 when no contract has the path, 405 when it lacks the method. */
  function routeStage(call: Call): Route {
    const route = match(call.req.method, call.req.path);
    if (!route) throw new DomainError('not_found', [{ detail: `Nothing at ${call.req.method} ${call.req.path}.` }]);
    if ('allow' in route) {
      call.res.setHeader('allow', route.allow.join(', '));
      throw new DomainError('method_not_allowed', [
        {
          detail: `${call.req.path} takes ${route.allow.join(', ')}, not ${call.req.method}.`,
          params: { allow: route.allow },
        },
      ]);
    }
    call.route = route;
    // query parameters the operation does not declare are ignored, as by most HTTP APIs
    call.query = declaredQuery(route, call.req.query as Record<string, string | string[]>);
    return route;
  }

  /**
   * Who calls: the key of the Authorization header (held until faults had their say). A control
   * call needs the admin token first, when one is set; its key, if any, names the account it acts on.
   */
  async function authenticateStage(call: Call, meta: OperationMeta<string>): Promise<void> {
    if (meta.admin && opts.simAdminToken && call.req.header('x-sim-admin-token') !== opts.simAdminToken) {
      throw new DomainError('access_denied.unauthenticated', [
        { detail: 'The control API needs the header X-Sim-Admin-Token.', sub_code: 'missing_key' },
      ]);
    }
    if (!meta.scope && !(meta.api === 'sim' && call.req.headers.authorization)) return;
    try {
      call.principal = await store.run({ read: true }, (w) => authenticate(w, call.req.headers.authorization));
    } catch (e) {
      call.unauthenticated = e;
    }
  }

  /** An injected fault answers (or delays) a call of the simulated API, before authorization: /__sim/faults. */
  async function faultStage(call: Call, meta: OperationMeta<string>): Promise<void> {
    if (meta.api !== 'openapi') return;
    const effect = await faults.inbound({
      method: call.req.method,
      path: call.req.path,
      template: meta.path,
      operationId: meta.operationId,
      accountId: call.principal?.accountId,
    });
    if (effect) {
      runtime.logger.info(`fault fired on ${call.req.method} ${call.req.path}`, { kind: 'fault', ...effect });
      call.answered = await injectFault(effect, call);
    }
  }

  function authorizeStage(call: Call, meta: OperationMeta<string>): void {
    if (call.unauthenticated) throw call.unauthenticated;
    if (call.principal && meta.scope) authorize(call.principal, meta.scope);
  }

  async function parseStage(call: Call, meta: OperationMeta<string>): Promise<void> {
    call.upload = meta.multipart ? await readMultipart(call.req) : undefined;
    // the file itself is checked by the handler; the schema sees that it is there
    call.body = meta.jsonBody
      ? parseJsonBody(call.req)
      : call.upload
        ? { ...call.upload.fields, ...(call.upload.file ? { file: '' } : {}) }
        : undefined;
  }

  /** The operation's validators, compiled by openapi-backend from its contract; the parameters one coerces in place. */
  function validateStage(call: Call, route: Route): void {
    const parameters: Record<string, unknown> = { path: route.params, query: call.query, header: call.req.headers };
    if (route.meta.jsonBody || route.meta.multipart) parameters.requestBody = call.body;
    const errors = (route.api.validator.getRequestValidatorsForOperation(route.meta.operationId) ?? []).flatMap(
      (validate) => (validate(parameters) ? [] : (validate.errors ?? [])),
    );
    if (errors.length) throw validationError(errors);
  }

  /**
   * The handler. One of the simulated API runs in one unit of work of the caller's account, committed
   * (durable) before this resolves: reads (GET) wait for no one; writes wait for the account's earlier
   * writes. One of the control API drives the simulator through the runtime.
   */
  async function handleStage(call: Call, route: Route): Promise<Reply> {
    const id = route.meta.operationId;
    if (route.meta.api === 'sim') {
      const handler = simHandlers[id as SimOperationId] as (ctx: SimCtx<SimOperationId>) => Reply | Promise<Reply>;
      const ctx = {
        runtime,
        accountId: call.principal?.accountId ?? DEMO_ACCOUNT,
        params: route.params,
        query: call.query,
        body: call.body,
        origin: ownOrigin(call.req),
        adminToken: opts.simAdminToken,
      };
      return handler(ctx as unknown as SimCtx<SimOperationId>);
    }
    const handler = handlers[id as OperationId] as ((ctx: Ctx<OperationId>) => unknown) | undefined;
    if (!handler) throw new DomainError('not_implemented', [{ detail: `${id} is not simulated yet.` }]);
    return runtime.work(
      call.principal?.accountId ?? '',
      async (work) => {
        call.clock = work.clock;
        const ctx = {
          ...work,
          principal: call.principal,
          params: route.params,
          query: call.query,
          body: call.body,
          upload: call.upload,
          meta: route.meta,
        } as unknown as Ctx<OperationId>;
        return (await handler(ctx)) as Reply;
      },
      { read: call.req.method === 'GET' || !call.principal },
    );
  }

  /** Answers, and writes the call into the request journal. */
  async function answerStage(
    call: Call,
    status: number,
    payload: unknown,
    contentType?: string,
    checked = true,
    stream?: (out: StreamWriter) => void,
  ): Promise<void> {
    const meta = call.route?.meta;
    // the clock is read first: once the caller has the answer, the journal already holds the call
    const principal = call.principal;
    const clock =
      call.clock ??
      (principal
        ? await store
            .run({ read: true }, (w) => clocks.of(w, principal.accountId))
            // a store that cannot be read still lets the answer go (its journal time is the server's)
            .catch(() => clocks.server())
        : clocks.server());
    const text = stream ? '"(a stream)"' : render(call, status, payload, contentType, checked);
    call.answered = true;
    const raw = Buffer.isBuffer(call.req.body) ? call.req.body : undefined;
    const latency = elapsedMs(call.started);
    if (meta?.api !== 'sim')
      runtime.logger.info(`${call.req.method} ${call.req.path} ${status} ${latency.toFixed(1)} ms`, {
        kind: 'call',
        method: call.req.method,
        path: call.req.path,
        operation: meta?.operationId ?? null,
        status,
        ms: Math.round(latency * 10) / 10,
        account: call.principal?.accountId ?? null,
      });
    await journal
      .record({
        api: meta?.api ?? (call.req.path.startsWith('/__sim') ? 'sim' : 'openapi'),
        at: clock.iso(),
        wall_at: new Date(wallClock()).toISOString(),
        method: call.req.method,
        path: call.req.path,
        operation_id: meta?.operationId ?? null,
        account_id: call.principal?.accountId ?? null,
        status,
        latency_ms: latency,
        headers: call.req.headers,
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
      .catch((e: Error) => runtime.logger.warn(`journal: ${e.message}`));
    if (stream) openStream(call, stream);
    else send(call, status, payload, text, contentType);
  }

  /**
   * Applies an injected fault; answers whether it answered the call (a delay alone lets it go on).
   * Injected answers are not checked against the contract: they leave it on purpose.
   */
  async function injectFault(effect: FaultEffect, call: Call): Promise<boolean> {
    if (effect.delay_ms) await new Promise((r) => setTimeout(r, effect.delay_ms));
    if (effect.drop) {
      call.req.socket.destroy();
      return true;
    }
    if (effect.malformed) {
      call.res
        .status(effect.status ?? 200)
        .type('application/json')
        .send('{"data": {"id": ');
      return true;
    }
    if (effect.status !== undefined) {
      await answerStage(
        call,
        effect.status,
        effect.body ?? {
          errors: [
            {
              code: 'injected_fault',
              title: 'Injected fault',
              detail: 'A rule of /__sim/faults answered this call.',
              sub_code: 'none',
            },
          ],
        },
        'application/json',
        false,
      );
      return true;
    }
    return false;
  }

  /** The one place a failure becomes an answer. */
  async function failStage(call: Call, err: unknown): Promise<void> {
    const invalidStatus = call.route?.meta.invalidStatus ?? 404;
    let refusal: DomainError;
    if (err instanceof DomainError) refusal = err;
    else if (err instanceof StorageUnavailable)
      refusal = new DomainError('storage_unavailable', [
        {
          detail: 'The simulator could not store the change (its disk refused the write); nothing was kept. Try again.',
        },
      ]);
    else {
      runtime.logger.warn(
        `internal error on ${call.req.method} ${call.req.path}: ${(err as Error).stack ?? String(err)}`,
      );
      refusal = new DomainError('internal_error', [{ detail: 'The simulator failed; this is a dipswitch bug.' }]);
    }
    return answerStage(call, statusOf(refusal, invalidStatus), envelope(refusal));
  }

  /** Runs the stages of one call. */
  async function pipeline(call: Call): Promise<void> {
    try {
      const route = routeStage(call);
      await authenticateStage(call, route.meta);
      await faultStage(call, route.meta);
      if (call.answered) return;
      authorizeStage(call, route.meta);
      await parseStage(call, route.meta);
      validateStage(call, route);
      const reply = await handleStage(call, route);
      await answerStage(call, reply.status, reply.body, reply.contentType, true, reply.stream);
    } catch (err) {
      if (!call.answered)
        await failStage(call, err).catch((e) => runtime.logger.warn(`answering failed: ${String(e)}`));
    }
  }

  const newCall = (req: Request, res: Response): Call => ({
    req,
    res,
    started: stopwatch(),
    principal: null,
    query: {},
    answered: false,
  });

  if (opts.cors !== false) app.use(cors({ origin: true, credentials: true, maxAge: CORS_MAX_AGE_S }));
  app.use(
    express.raw({
      type: (req) => !String(req.headers['content-type'] ?? '').startsWith('multipart/'),
      limit: JSON_LIMIT,
    }),
  );
  app.use((req: Request, res: Response) => pipeline(newCall(req, res)));

  // a body express could not read (over the limit, or broken): answered and journaled like any failure
  app.use((err: { type?: string }, req: Request, res: Response, _next: NextFunction) => {
    const call = newCall(req, res);
    try {
      call.route = (() => {
        const r = match(req.method, req.path);
        return r && !('allow' in r) ? r : undefined;
      })();
    } catch {
      // an unreadable path parameter: the body's failure is the one to say
    }
    void failStage(
      call,
      err.type === 'entity.too.large'
        ? new DomainError('payload_too_large', [{ detail: `The body is over the ${JSON_LIMIT} limit.` }])
        : invalidField('/', 'The body could not be read.'),
    );
  });

  return app;
}
