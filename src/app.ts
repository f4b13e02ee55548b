/**
 * The HTTP layer in one page: express for the wire, openapi-backend to route each request to its
 * operation and Ajv (draft 2020-12) to validate it against the contract, then auth, the handler,
 * and one place that writes every answer.
 */
import express, { type NextFunction, type Request, type Response } from 'express';
import { OpenAPIBackend, type Document, type Operation } from 'openapi-backend';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { forAccount, type Deps } from './deps.js';
import { authenticate, authorize, type Principal } from './http/auth.js';
import { loadContract, type OperationId, type OperationMeta } from './http/contract.js';
import { ApiError, invalidField } from './http/errors.js';
import type { Ctx, HandlerMap } from './http/handler.js';
import { readMultipart } from './http/multipart.js';
import { compileRoutes } from './http/router.js';
import { validationError } from './http/validation.js';
import { handlers as allHandlers } from './resources/index.js';
import { controlRouter } from './sim/control.js';
import type { FaultEffect } from './sim/faults.js';

export const JSON_LIMIT = '1mb';

export interface AppOptions {
  /** Check every answer against the contract and fail loudly on a mismatch (the test suite sets it). */
  validateResponses?: boolean;
  /** When set, every /__sim call needs the header X-Sim-Admin-Token with this value. */
  simAdminToken?: string;
  /** Replaces the handler map (tests of the pipeline itself). */
  handlers?: HandlerMap;
}

export type App = express.Express & { contractViolations: string[] };

let sharedBackend: Promise<OpenAPIBackend> | undefined;

/** The router and validator hold no state of a server's own, so every app of the process shares one. */
function backend(document: Record<string, unknown>): Promise<OpenAPIBackend> {
  sharedBackend ??= buildBackend(document);
  return sharedBackend;
}

/**
 * Builds the openapi-backend router and validator for the contract (OpenAPI 3.1, Ajv 2020-12).
 * `quick` compiles each operation's validators on its first request, which keeps start-up short.
 */
async function buildBackend(document: Record<string, unknown>): Promise<OpenAPIBackend> {
  const api = new OpenAPIBackend({
    definition: structuredClone(document) as unknown as Document,
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
  // openapi-backend checks documents against the 3.0 schema only; the contract is linted by spectral instead.
  api.validateDefinition = () => api.document;
  await api.init();
  return api;
}

const queryNames = new WeakMap<Operation, Set<string>>();

/** The query parameters the operation declares; the others are ignored. */
function declaredQuery(operation: Operation, query: Record<string, string | string[]>): Record<string, string | string[]> {
  let names = queryNames.get(operation);
  if (!names) {
    names = new Set((operation.parameters ?? []).flatMap((p) => ('in' in p && p.in === 'query' ? [p.name] : [])));
    queryNames.set(operation, names);
  }
  const out: Record<string, string | string[]> = {};
  for (const name in query) if (names.has(name)) out[name] = query[name]!;
  return out;
}

type Answer = (status: number, payload: unknown, contentType?: string, checked?: boolean) => void;

/**
 * Applies an injected fault; answers whether it answered the call (a delay alone lets it go on).
 * Injected answers are not checked against the contract: they leave it on purpose.
 */
async function injectFault(effect: FaultEffect, req: Request, res: Response, answer: Answer): Promise<boolean> {
  if (effect.delay_ms) await new Promise((r) => setTimeout(r, effect.delay_ms));
  if (effect.drop) {
    req.socket.destroy();
    return true;
  }
  if (effect.malformed) {
    res.status(effect.status ?? 200).type('application/json').send('{"data": {"id": ');
    return true;
  }
  if (effect.status !== undefined) {
    answer(effect.status, effect.body ?? { errors: [{ code: 'injected_fault', title: 'Injected fault', detail: 'A rule of /__sim/faults answered this call.', sub_code: 'none' }] }, 'application/json', false);
    return true;
  }
  return false;
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

/** Creates the whole server; `listen` is the caller's business (src/main.ts). */
export async function createApp(deps: Deps, opts: AppOptions = {}): Promise<App> {
  const contract = loadContract();
  const api = await backend(contract.document);
  const handlers = opts.handlers ?? allHandlers;
  const schemas = (api.definition.components?.schemas ?? {}) as Record<string, object>;
  const errorSchema = api.validator.getAjv(0 as never).compile(schemas.error_response ?? {});
  const match = compileRoutes(contract, api);
  const app = express() as App;
  app.contractViolations = [];
  app.disable('x-powered-by');
  // no ETag: hashing every answer's body cost more than any client saves on this API
  app.set('etag', false);
  app.set('query parser', 'simple');

  /** The one place an answer is written; in test mode it is checked against the contract first. */
  /** Writes the answer; answers the JSON text sent (for the journal), if it was JSON. */
  function send(res: Response, status: number, body: unknown, operation?: Operation, contentType = 'application/json', checked = true): string | undefined {
    if (opts.validateResponses && checked && contentType === 'application/json' && status !== 204) {
      const declared = operation?.responses?.[String(status)];
      const result = declared && operation
        ? api.validator.validateResponse(body, operation, status)
        : { errors: errorSchema(body) ? null : errorSchema.errors };
      if (result.errors && result.errors.length) {
        const what = `${operation?.operationId ?? 'no operation'} answered ${status} off contract: ${JSON.stringify(result.errors)}`;
        app.contractViolations.push(what);
        deps.logger.warn(what);
      }
    }
    res.status(status).type(contentType);
    if (status === 204) {
      res.end();
      return undefined;
    }
    const text = contentType === 'application/json' ? JSON.stringify(body) : undefined;
    res.send(text ?? body);
    return text;
  }

  app.use('/__sim', express.json({ limit: JSON_LIMIT }), controlRouter(deps, { adminToken: opts.simAdminToken }));

  app.use(express.raw({ type: (req) => !String(req.headers['content-type'] ?? '').startsWith('multipart/'), limit: JSON_LIMIT }));

  app.use(async (req: Request, res: Response) => {
    const started = process.hrtime.bigint();
    let operation: Operation | undefined;
    let meta: OperationMeta | undefined;
    let principal: Principal | null = null;
    let body: unknown;
    /** Answers, and writes the call into the request journal. */
    const answer = (status: number, payload: unknown, contentType?: string, checked = true) => {
      const text = send(res, status, payload, checked ? operation : undefined, contentType, checked);
      const clock = principal ? deps.clocks.for(principal.accountId) : deps.clock;
      deps.journal.record({
        at: clock.iso(), method: req.method, path: req.path, operation_id: meta?.operationId ?? null, account_id: principal?.accountId ?? null,
        status, latency_ms: Number(process.hrtime.bigint() - started) / 1e6,
        request: { headers: req.headers, body: meta?.multipart ? body : Buffer.isBuffer(req.body) ? req.body.toString('utf8') : undefined },
        response: { text: text ?? (status === 204 ? '' : '"(not JSON)"') },
      });
    };
    try {
      const route = match(req.method, req.path);
      operation = route?.operation;
      meta = route?.meta;
      if (!route || !operation || !meta) throw new ApiError('not_found', [{ detail: `Nothing at ${req.method} ${req.path}.` }]);
      // query parameters the operation does not declare are ignored, as by most HTTP APIs
      const query: Record<string, unknown> = declaredQuery(operation, req.query as Record<string, string | string[]>);
      let unauthenticated: unknown;
      try {
        principal = meta.scope ? authenticate(deps.store, req.headers.authorization) : null;
      } catch (e) {
        unauthenticated = e;
      }
      const fault = deps.faults.inbound({ method: req.method, path: req.path, template: meta.path, operationId: meta.operationId, accountId: principal?.accountId });
      if (fault && (await injectFault(fault, req, res, answer))) return;
      if (unauthenticated) throw unauthenticated;
      if (principal && meta.scope) authorize(principal, meta.scope);
      const upload = meta.multipart ? await readMultipart(req) : undefined;
      // the file itself is checked by the handler; the schema sees that it is there
      body = meta.jsonBody ? parseJsonBody(req) : upload ? { ...upload.fields, ...(upload.file ? { file: '' } : {}) } : undefined;
      // the operation's validators, compiled by openapi-backend from the contract; the parameters one coerces in place
      const parameters: Record<string, unknown> = { path: route.params, query, header: req.headers };
      if (meta.jsonBody || meta.multipart) parameters.requestBody = body;
      const errors = (api.validator.getRequestValidatorsForOperation(meta.operationId) ?? []).flatMap((validate) => (validate(parameters) ? [] : validate.errors ?? []));
      if (errors.length) throw validationError(errors);
      const handler = handlers[meta.operationId] as ((ctx: Ctx<OperationId>) => unknown) | undefined;
      if (!handler) throw new ApiError('not_implemented', [{ detail: `${meta.operationId} is not simulated yet.` }]);
      const scoped = principal ? forAccount(deps, principal.accountId) : deps;
      const ctx = { deps: scoped, principal, params: route.params, query, body, upload, meta } as unknown as Ctx<OperationId>;
      const reply = (await handler(ctx)) as { status: number; body: unknown; contentType?: string };
      answer(reply.status, reply.body, reply.contentType);
    } catch (err) {
      if (err instanceof ApiError) return answer(err.status(meta?.invalidStatus ?? 404), err.envelope());
      deps.logger.warn(`internal error on ${req.method} ${req.path}: ${(err as Error).stack ?? String(err)}`);
      answer(500, new ApiError('internal_error', [{ detail: 'The simulator failed; this is a dipswitch bug.' }]).envelope());
    }
  });

  // errors thrown before routing: an oversized or unreadable body
  app.use((err: { type?: string; status?: number }, _req: Request, res: Response, _next: NextFunction) => {
    if (err.type === 'entity.too.large') {
      return send(res, 413, new ApiError('payload_too_large', [{ detail: `The body is over the ${JSON_LIMIT} limit.` }]).envelope());
    }
    send(res, 422, invalidField('/', 'The body could not be read.').envelope());
  });

  return app;
}
