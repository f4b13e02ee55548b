/**
 * The stages of the pipeline between the route and the answer, in the order a call meets them:
 * route, authenticate, faults, authorize, parse, validate, handle (src/http/app.ts runs them).
 */
import type { ValidateFunction } from 'ajv';
import type { OperationId, OperationMeta, SimOperationId } from '../contract.js';
import { DomainError } from '../domain/errors.js';
import type { FaultEffect } from '../engine/faults.js';
import { DEMO_ACCOUNT } from '../store/fixtures.js';
import { beginCall, type Prefetch } from '../store/call.js';
import type { KeyLookup } from '../store/store.js';
import { answerStage } from './answer.js';
import { authorize, credentialsIn, principalOf } from '../handling/principal.js';
import { declaredQuery, ownOrigin, parseJsonBody, release, type Call, type Reply } from './call.js';
import {
  handlerContext,
  runHandler,
  runSimHandler,
  type ApiRequest,
  type BodyOf,
  type PathOf,
  type QueryOf,
  type SimRequest,
} from '../handling/handler.js';
import { windowAhead } from '../handling/pagination.js';
import { readMultipart } from './multipart.js';
import type { Pipeline } from './pipeline.js';
import type { Route } from './router.js';
import { validationError } from '../handling/validation.js';

/** The operation of the method and path: 404 when no contract has the path, 405 when it lacks the method. */
export function routeStage(p: Pipeline, call: Call): Route {
  const route = p.match(call.req.method, call.req.path);
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
 * Who calls: the key of the Authorization header (a refusal is held until faults had their say). The
 * call's work begins here, with the caller's key and what the call will read (prefetchOf); a control
 * call's key, if any, names the account it acts on; acting without one, or on the whole server,
 * needs the control API's authority (controlAuthority).
 */
export async function authenticateStage(p: Pipeline, call: Call, meta: OperationMeta<string>): Promise<void> {
  if (meta.api === 'sim') call.authority = controlAuthority(p, call, meta);
  if (!meta.scope && !(meta.api === 'sim' && call.req.headers.authorization)) return;
  try {
    const { key, secret } = credentialsIn(call.req.headers.authorization);
    call.work = await beginCall(p.runtime.store, prefetchOf(p, call, meta, key));
    call.principal = principalOf(call.work.caller, secret);
  } catch (e) {
    call.unauthenticated = e;
    call.claimed = call.work?.caller.key?.account_id;
    await release(call);
  }
}

/**
 * The control API's authority over a call (contract/sim.yaml `x-acts-on`): the admin token where
 * one is set, the caller's own account key for what acts on that account alone. Refuses a call
 * that has neither; answers whether the call has the authority (it may act without a key).
 */
function controlAuthority(p: Pipeline, call: Call, meta: OperationMeta<string>): boolean {
  const token = p.opts.simAdminToken;
  const authority = !token || call.req.header('x-sim-admin-token') === token;
  if (authority || !meta.actsOn) return authority;
  const sandboxesOpen = meta.operationId === 'simCreateSandbox' && p.opts.openSandboxes === true;
  if (meta.actsOn === 'server' && !sandboxesOpen)
    throw new DomainError('access_denied.unauthenticated', [
      {
        detail: `${meta.method} ${meta.path} acts on the whole server: it needs the header X-Sim-Admin-Token.`,
        sub_code: 'missing_key',
      },
    ]);
  if (meta.actsOn !== 'server' && !call.req.headers.authorization)
    throw new DomainError('access_denied.unauthenticated', [
      {
        detail: `${meta.method} ${meta.path} needs an account's key (Authorization: Bearer <key>, to act on that account) or the header X-Sim-Admin-Token.`,
        sub_code: 'missing_key',
      },
    ]);
  return false;
}

/**
 * What a call of the simulated API will read, told to the store as its work begins: a write, its
 * account (an upload's work begins once its body is read); a GET, the record or the page of a list
 * it reads first (Pipeline's `readsAhead`).
 */
function prefetchOf(p: Pipeline, call: Call, meta: OperationMeta<string>, key: KeyLookup): Prefetch {
  if (meta.api !== 'openapi') return { key };
  if (call.req.method !== 'GET') return { key, writes: meta.multipart ? 'later' : 'now' };
  const reads = p.readsAhead[meta.operationId as OperationId];
  if (!reads) return { key };
  if ('page' in reads) {
    const window = windowAhead(call.query as Record<string, unknown>);
    return window ? { key, reads: { collection: reads.collection, window } } : { key };
  }
  const id = call.route?.params[reads.param];
  return typeof id === 'string' ? { key, reads: { collection: reads.collection, id } } : { key };
}

/** An injected fault answers (or delays) a call of the simulated API, before authorization: /__sim/faults. */
export async function faultStage(p: Pipeline, call: Call, meta: OperationMeta<string>): Promise<void> {
  if (meta.api !== 'openapi') return;
  const inbound = {
    method: call.req.method,
    path: call.req.path,
    template: meta.path,
    operationId: meta.operationId,
    accountId: call.principal?.accountId,
    faultsVersion: call.work?.caller.faultsVersion,
  };
  if (p.runtime.faults.quiet(inbound)) return;
  // a rule may fire: the call's work lets go of its account first (the rules may be read, and a delay
  // must not hold the account); its handler's work begins anew
  await release(call);
  const effect = await p.runtime.faults.inbound(inbound);
  if (effect) {
    p.runtime.logger.info(`fault fired on ${call.req.method} ${call.req.path}`, { kind: 'fault', ...effect });
    // a delayed call reads its records after the delay, as the real service would
    if (effect.delay_ms) call.work?.readAgain();
    call.answered = await injectFault(p, effect, call);
  }
}

/**
 * Applies an injected fault; answers whether it answered the call (a delay alone lets it go on).
 * Injected answers are not checked against the contract: they leave it on purpose.
 */
export async function injectFault(p: Pipeline, effect: FaultEffect, call: Call): Promise<boolean> {
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
    await answerStage(p, call, {
      status: effect.status,
      checked: false,
      body: effect.body ?? {
        errors: [
          {
            code: 'injected_fault',
            title: 'Injected fault',
            detail: 'A rule of /__sim/faults answered this call.',
            sub_code: 'none',
          },
        ],
      },
    });
    return true;
  }
  return false;
}

export function authorizeStage(p: Pipeline, call: Call, meta: OperationMeta<string>): void {
  if (call.unauthenticated) throw call.unauthenticated;
  if (call.principal && meta.scope) authorize(call.principal, meta.scope);
}

export async function parseStage(p: Pipeline, call: Call, meta: OperationMeta<string>): Promise<void> {
  call.upload = meta.multipart ? await readMultipart(call.req) : undefined;
  // the file itself is checked by the handler; the schema sees that it is there
  call.body = meta.jsonBody
    ? parseJsonBody(call.req, meta.api)
    : call.upload
      ? { ...call.upload.fields, ...(call.upload.file ? { file: '' } : {}) }
      : undefined;
}

/** What an operation's validators check: its path and query parameters, its headers, its body. */
interface Parameters {
  path: Record<string, string>;
  query: Record<string, unknown>;
  header: Call['req']['headers'];
  requestBody?: unknown;
}

/** What the validators of an operation of each API passed, typed from the contract the validators are compiled from. */
interface Passed<Params, Query, Body> {
  path: Params;
  query: Query;
  requestBody: Body;
}
type ApiPassed = Passed<PathOf<OperationId>, QueryOf<OperationId>, BodyOf<OperationId>>;
type SimPassed = Passed<
  SimRequest<SimOperationId>['params'],
  SimRequest<SimOperationId>['query'],
  SimRequest<SimOperationId>['body']
>;

/** A call its operation's validators passed: the request its handler is given. */
export type Checked =
  | { api: 'openapi'; id: OperationId; request: ApiRequest<OperationId> }
  | { api: 'sim'; id: SimOperationId; request: SimRequest<SimOperationId> };

/**
 * The operation's validators, compiled by openapi-backend from its contract (coercing the
 * parameters in place). What passes them is what the types generated from the same contract
 * (src/generated) describe: this is where a call's request becomes typed.
 */
export function validateStage(p: Pipeline, call: Call, route: Route): Checked {
  const parameters: Parameters = { path: route.params, query: call.query, header: call.req.headers };
  if (route.meta.jsonBody || route.meta.multipart) parameters.requestBody = call.body;
  const validators = route.api.validator.getRequestValidatorsForOperation(route.meta.operationId) ?? [];
  if (isSim(route.meta)) {
    passes<SimPassed>(validators, parameters);
    const { path: params, query, requestBody: body } = parameters;
    return { api: 'sim', id: route.meta.operationId, request: { params, query, body } };
  }
  if (!isApi(route.meta)) throw new Error(`${route.meta.operationId} belongs to neither contract`);
  passes<ApiPassed>(validators, parameters);
  const { path: params, query, requestBody: body } = parameters;
  const request = { principal: call.principal, params, query, body, upload: call.upload, meta: route.meta };
  return { api: 'openapi', id: route.meta.operationId, request };
}

// the contract an operation comes from names it (src/contract.ts)
const isSim = (meta: OperationMeta<string>): meta is OperationMeta<SimOperationId> => meta.api === 'sim';
const isApi = (meta: OperationMeta<string>): meta is OperationMeta => meta.api === 'openapi';

/** Throws the 400 that lists every problem the validators find; what passes is typed as `T` says. */
function passes<T>(
  validators: readonly ValidateFunction[],
  parameters: Parameters,
): asserts parameters is Parameters & T {
  const errors = validators.flatMap((validate) => (validate(parameters) ? [] : (validate.errors ?? [])));
  if (errors.length) throw validationError(errors);
}

/**
 * The handler. One of the simulated API runs in one unit of work of the caller's account, committed
 * (durable) before this resolves: reads (GET) wait for no one; writes wait for the account's earlier
 * writes. One of the control API drives the simulator through the runtime.
 */
export async function handleStage(p: Pipeline, call: Call, checked: Checked): Promise<Reply> {
  if (checked.api === 'sim')
    return runSimHandler(p.simHandlers, checked.id, {
      ...checked.request,
      runtime: p.runtime,
      accountId: call.principal?.accountId ?? DEMO_ACCOUNT,
      own: call.principal?.accountId,
      origin: ownOrigin(call.req),
      adminToken: p.opts.simAdminToken,
    });
  const { id, request } = checked;
  return p.runtime.work(
    call.principal?.accountId ?? '',
    async (work) => {
      call.clock = work.clock;
      const reply = await runHandler(p.handlers, id, handlerContext(request, work));
      if (!reply) throw new DomainError('not_implemented', [{ detail: `${id} is not simulated yet.` }]);
      return reply;
    },
    // the call's work, begun with the caller's key; an operation needing no key only reads
    call.work ? { call: call.work } : { read: true },
  );
}
