/**
 * The stages of the pipeline between the route and the answer, in the order a call meets them:
 * route, authenticate, faults, authorize, parse, validate, handle (src/http/app.ts runs them).
 */
import type { ValidateFunction } from 'ajv';
import type { OperationId, OperationMeta, SimOperationId } from '../contract.js';
import { DomainError } from '../domain/errors.js';
import type { FaultEffect } from '../engine/faults.js';
import type { CallerRows, UnitOfWork } from '../store/store.js';
import { MALFORMED, type Answer } from './answer.js';
import type { Work } from '../engine/work.js';
import { authorize, credentialsIn, principalOf } from '../handling/principal.js';
import { declaredQuery, parseJsonBody, type Call, type Reply } from './call.js';
import {
  actingAccount,
  handlerContext,
  runHandler,
  runSimHandler,
  type ApiRequest,
  type BodyOf,
  type PathOf,
  type Fetcher,
  type QueryOf,
  type SimCtx,
  type SimRequest,
} from '../handling/handler.js';
import { injector } from './inject.js';
import { readMultipart } from './multipart.js';
import type { Pipeline } from './pipeline.js';
import type { Route } from './router.js';
import { validationError } from '../handling/validation.js';

/** The operation of the method and path: 404 when no contract has the path, 405 when it lacks the method. */
export function routeStage(p: Pipeline, call: Call): Route {
  const route = p.match(call.req.method, call.req.path);
  if (!route) throw new DomainError('not_found', [{ detail: `Nothing at ${call.req.method} ${call.req.path}.` }]);
  if ('allow' in route) {
    call.reply.headers.allow = route.allow.join(', ');
    throw new DomainError('method_not_allowed', [
      {
        detail: `${call.req.path} takes ${route.allow.join(', ')}, not ${call.req.method}.`,
        params: { allow: route.allow },
      },
    ]);
  }
  call.route = route;
  // query parameters the operation does not declare are ignored, as by most HTTP APIs
  call.query = declaredQuery(route, call.req.query);
  return route;
}

/**
 * Who calls: the key of the Authorization header, read before any unit of work opens (Store.caller;
 * a refusal is held until faults had their say); a control call's key, if any, names the account it
 * acts on; acting without one, or on the whole server, needs the control API's authority (controlAuthority).
 * A control call that acts on no account reads none, so liveness answers while the store is away.
 */
export async function authenticateStage(p: Pipeline, call: Call, meta: OperationMeta<string>): Promise<void> {
  // a control call that acts on nothing (health, readiness, the contract, the dashboard's files) reads no key
  if (!meta.scope && !(meta.api === 'sim' && meta.actsOn && call.req.headers.authorization)) return;
  let rows: CallerRows | undefined;
  try {
    const { key, secret } = credentialsIn(call.req.headers.authorization);
    rows = await p.runtime.store.caller(key);
    call.principal = principalOf(rows, secret);
    call.clock = p.runtime.clocks.from(call.principal.accountId, rows.clock);
  } catch (e) {
    call.unauthenticated = e;
    call.claimed = rows?.key?.account_id;
  }
}

/**
 * The control API's authority over a call (contract/sim.yaml `x-acts-on`): the admin token where
 * one is set, the caller's own account key for what acts on that account alone. Refuses a call
 * that has neither; answers whether the call has the authority (it may act without a key).
 */
export function controlAuthority(p: Pipeline, call: Call, meta: OperationMeta<string>): boolean {
  const token = p.opts.simAdminToken;
  const authority = !token || call.req.headers['x-sim-admin-token'] === token;
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
 * An injected fault answers (or delays) a call of the simulated API, before authorization
 * (/__sim/faults): the rules are read, and a delay waited, before the call's unit of work opens.
 */
export async function faultStage(p: Pipeline, call: Call, meta: OperationMeta<string>): Promise<Answer | undefined> {
  if (meta.api !== 'openapi') return undefined;
  const inbound = {
    method: call.req.method,
    path: call.req.path,
    template: meta.path,
    operationId: meta.operationId,
    accountId: call.principal?.accountId,
  };
  if (p.runtime.faults.quiet(inbound)) return undefined;
  const effect = await p.runtime.faults.inbound(inbound);
  if (!effect) return undefined;
  p.runtime.logger.info(`fault fired on ${call.req.method} ${call.req.path}`, { kind: 'fault', ...effect });
  // a delayed call reads its records after the delay, as the real service would
  if (effect.delay_ms) await new Promise((r) => setTimeout(r, effect.delay_ms));
  return injectFault(effect);
}

/**
 * What an injected fault does to the call: drops it, answers it (malformed on the wire, or an
 * answer of its own), or nothing more (a delay alone lets it go on). Injected answers are not
 * checked against the contract: they leave it on purpose. A dropped or malformed answer is written
 * on the wire by answerStage, once the call is journaled as its client met it.
 */
function injectFault(effect: FaultEffect): Answer | undefined {
  if (effect.drop) return { status: null, body: undefined, checked: false, wire: 'drop' };
  if (effect.malformed) return { status: effect.status ?? 200, body: MALFORMED, checked: false, wire: 'malformed' };
  if (effect.status === undefined) return undefined;
  return {
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
  };
}

export function authorizeStage(call: Call, meta: OperationMeta<string>): void {
  if (call.unauthenticated) throw call.unauthenticated;
  if (call.principal && meta.scope) authorize(call.principal, meta.scope);
}

/** The body: JSON as express read it, or an upload read now (before the call's unit of work opens). */
export async function parseStage(call: Call, meta: OperationMeta<string>): Promise<void> {
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
export function validateStage(call: Call, route: Route): Checked {
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

/** The core in the process, as the call's caller and as the server (SimCtx.callBack). */
function callBack(p: Pipeline, call: Call): SimCtx<SimOperationId>['callBack'] {
  const inject = injector(p.handle, p.runtime, call.req.origin, { inside: true });
  const token = p.opts.simAdminToken;
  const as =
    (add: (path: string) => Record<string, string>): Fetcher =>
    (path, init = {}) =>
      inject(path, { ...init, headers: { ...Object.fromEntries(new Headers(init.headers)), ...add(path) } });
  const { authorization } = call.req.headers;
  return {
    asCaller: as(() => ({
      ...(authorization ? { authorization } : {}),
      ...(token && call.authority ? { 'x-sim-admin-token': token } : {}),
    })),
    asServer: as((path): Record<string, string> =>
      token && path.startsWith('/__sim') ? { 'x-sim-admin-token': token } : {},
    ),
  };
}

/**
 * The handler, in the one unit of work the call opens, for its caller's account: a read, or a write
 * when the call's method writes. A control handler reads in units of its own, and changes its account
 * in the call's unit (`x-unit: account`); any other change drives the simulator through its port
 * (ControlPort), whose units run through the one runner.
 */
export async function handleStage(p: Pipeline, call: Call, checked: Checked): Promise<Reply> {
  const { runtime } = p;
  if (checked.api === 'sim') {
    const accountId = actingAccount(call.principal);
    const ctx = (work?: Work, unit?: UnitOfWork) => ({
      ...checked.request,
      port: p.port,
      // in the call's unit when it has one, else in a read of its own
      read: <T>(fn: (w: UnitOfWork) => Promise<T>) => (unit ? fn(unit) : runtime.runner.run({ read: true }, fn)),
      work: async () => {
        if (!work) throw new Error(`${checked.id} is not marked x-unit: account: it has no unit of its own`);
        return work;
      },
      accountId,
      own: call.principal?.accountId,
      authorization: call.req.headers.authorization,
      callBack: callBack(p, call),
    });
    return call.route?.meta.unit === 'account'
      ? runtime.runner.work(accountId, async (work, unit) => runSimHandler(p.simHandlers, checked.id, ctx(work, unit)))
      : runSimHandler(p.simHandlers, checked.id, ctx());
  }
  const { id, request } = checked;
  const writes = call.req.method !== 'GET' && call.req.method !== 'HEAD';
  const reply = await runtime.runner.work(
    call.principal?.accountId ?? '',
    async (work) => {
      call.clock = work.clock;
      return runHandler(p.handlers, id, handlerContext(request, work));
    },
    { read: !writes, clock: call.clock ?? runtime.clocks.server() },
  );
  if (!reply) throw new DomainError('not_implemented', [{ detail: `${id} is not simulated yet.` }]);
  return reply;
}
