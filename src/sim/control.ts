/**
 * The control API under /__sim (interface.md section 7; contract/sim.yaml): not part of the
 * simulated service. Account-scoped calls act on the account of the key in Authorization, the
 * Demo account when none is given.
 */
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { Router, type NextFunction, type Request, type Response } from 'express';
import { forAccount, type Deps } from '../deps.js';
import { authenticate } from '../http/auth.js';
import { readContractDocument } from '../http/contract.js';
import { ApiError, invalidField, notFound } from '../http/errors.js';
import { validationError } from '../http/validation.js';
import { parseDuration } from './duration.js';
import type { FaultEffect, FaultMatch } from './faults.js';
import { inboundCall, inboundSms } from './inbound.js';
import { raiseOverwriteRequest } from './lifecycles.js';
import { createSandbox, Snapshots } from './sandboxes.js';
import { runScenarioByName, scenarioNames } from './scenario_runner.js';
import { resetSimulation } from './simulation.js';

export interface ControlOptions {
  adminToken?: string;
}

export const DEMO_ACCOUNT = '0a0a0a0a-0000-4000-8000-000000000001';

const simDocument = readContractDocument('sim') as { components: { schemas: Record<string, object> } };
const ajv = new Ajv2020({ allErrors: true, strict: false });
addFormats.default(ajv);
ajv.addSchema({ ...simDocument, $id: 'sim' });

/** The body, checked against a schema of contract/sim.yaml. */
function checked<T>(schema: string, body: unknown): T {
  const validate = ajv.getSchema(`sim#/components/schemas/${schema}`)!;
  if (!validate(body)) throw validationError((validate.errors ?? []).map((e) => ({ ...e, instancePath: `/requestBody${e.instancePath}` })));
  return body as T;
}

type Handler = (req: Request, deps: Deps) => Promise<{ status?: number; body: unknown }> | { status?: number; body: unknown };

export function controlRouter(deps: Deps, opts: ControlOptions): Router {
  const router = Router();
  const snapshots = new Snapshots();

  /** The account a call acts on: the key's, or Demo. */
  const accountOf = (req: Request): string => (req.headers.authorization ? authenticate(deps.store, req.headers.authorization).accountId : DEMO_ACCOUNT);
  const clockOf = (accountId: string) => {
    const clock = deps.clocks.for(accountId);
    return { now: clock.iso(), mode: clock.mode };
  };

  const route = (method: 'get' | 'post' | 'delete', path: string, handler: Handler) => {
    router[method](path, async (req: Request, res: Response) => {
      try {
        const { status = 200, body } = await handler(req, deps);
        res.status(status).json(body);
      } catch (err) {
        const e = err instanceof ApiError ? err : new ApiError('internal_error', [{ detail: (err as Error).message }]);
        if (!(err instanceof ApiError)) deps.logger.warn(`control ${req.method} ${req.path}: ${(err as Error).stack}`);
        res.status(e.status(422)).json(e.envelope());
      }
    });
  };

  router.use((req: Request, res: Response, next: NextFunction) => {
    if (opts.adminToken && req.header('x-sim-admin-token') !== opts.adminToken) {
      res.status(403).json(new ApiError('access_denied.unauthenticated', [{ detail: 'The control API needs the header X-Sim-Admin-Token.', sub_code: 'missing_key' }]).envelope());
      return;
    }
    next();
  });

  route('get', '/openapi', () => ({ body: simDocument }));
  route('get', '/health', () => ({ body: { status: 'ok' } }));

  route('post', '/reset', async () => {
    await resetSimulation(deps);
    return { body: { status: 'reset', accounts: deps.store.accounts.list().length } };
  });

  route('get', '/accounts', () => ({
    body: {
      accounts: deps.store.accounts.list().map((a) => ({
        id: a.id,
        name: a.name,
        keys: deps.store.apiKeys.filter((k) => k.account_id === a.id).map((k) => {
          const user = k.user_id ? deps.store.users.getAnyAccount(k.user_id) : undefined;
          return { id: k.data.id, key: k.data.key, name: k.data.name, kind: user ? 'impersonated' : 'standard', role: user?.role ?? null, active: k.data.active };
        }),
      })),
    },
  }));

  route('post', '/accounts', async (req) => ({ status: 201, body: await createSandbox(deps, checked<{ name?: string }>('sandbox_request', req.body ?? {}).name) }));
  route('delete', '/accounts/:id', async (req) => {
    const id = String(req.params.id);
    const account = deps.store.accounts.get(id);
    if (!account) throw notFound('account', id);
    deps.store.deleteAccount(id);
    await deps.store.commit();
    return { body: { id, name: account.name, deleted: true } };
  });

  route('post', '/faults', (req) => {
    const body = checked<{ match: FaultMatch; effect: FaultEffect; times?: number; probability?: number }>('fault_request', req.body ?? {});
    return { status: 201, body: deps.faults.add({ id: deps.ids.uuid(), match: body.match, effect: body.effect, times: body.times ?? null, probability: body.probability ?? null }) };
  });
  route('get', '/faults', () => ({ body: { faults: deps.faults.list() } }));
  route('delete', '/faults/:id', (req) => {
    const rule = deps.faults.remove(String(req.params.id));
    if (!rule) throw notFound('fault', String(req.params.id));
    return { body: rule };
  });

  route('get', '/requests', (req) => {
    const q = req.query as Record<string, string | undefined>;
    const entries = deps.journal.list({ ...q, status: q.status === undefined ? undefined : Number(q.status) });
    return { body: { count: entries.length, requests: entries } };
  });

  route('post', '/snapshots', async (req) => {
    const { name } = checked<{ name: string }>('snapshot_request', req.body ?? {});
    await snapshots.save(deps, name);
    return { status: 201, body: { name, snapshots: snapshots.names() } };
  });
  route('post', '/snapshots/:name/restore', async (req) => {
    const name = String(req.params.name);
    if (!snapshots.has(name)) throw notFound('snapshot', name);
    await snapshots.restore(deps, name);
    return { body: { name, restored: true } };
  });

  route('get', '/clock', (req) => ({ body: clockOf(accountOf(req)) }));
  route('post', '/clock/freeze', (req) => {
    const account = accountOf(req);
    deps.clocks.for(account).freeze();
    return { body: clockOf(account) };
  });
  route('post', '/clock/resume', (req) => {
    const account = accountOf(req);
    deps.clocks.for(account).resume();
    deps.scheduler.rearm();
    return { body: clockOf(account) };
  });
  route('post', '/clock/advance', async (req) => {
    const account = accountOf(req);
    const body = checked<{ by?: string; to?: string; next?: true }>('advance_request', req.body ?? {});
    const clock = deps.clocks.for(account);
    let target: Date | 'next';
    if (body.by !== undefined) {
      const ms = parseDuration(body.by);
      if (ms === null) throw invalidField('/by', `${body.by} is not an ISO 8601 duration such as PT10M.`);
      target = new Date(clock.now().getTime() + ms);
    } else if (body.to !== undefined) {
      target = new Date(body.to);
      if (target.getTime() < clock.now().getTime()) throw invalidField('/to', 'Time never goes backwards: `to` is before the clock.');
    } else {
      target = 'next';
    }
    return { body: await deps.scheduler.advance(account, target) };
  });

  route('get', '/deliveries', (req) => {
    const account = accountOf(req);
    const kind = typeof req.query.kind === 'string' ? req.query.kind : undefined;
    const deliveries = deps.deliveries.list().filter((d) => d.account_id === account && (!kind || d.kind === kind));
    return { body: { count: deliveries.length, deliveries } };
  });

  route('post', '/inbound/sms', async (req) => {
    const account = accountOf(req);
    const body = checked<{ to: string; from: string; text: string; media_urls?: string[] }>('inbound_sms', req.body ?? {});
    return { body: await inboundSms(forAccount(deps, account), account, body) };
  });

  route('post', '/inbound/call', async (req) => {
    const account = accountOf(req);
    const body = checked<{ to: string; from: string }>('inbound_call', req.body ?? {});
    return { body: await inboundCall(forAccount(deps, account), account, body) };
  });

  route('post', '/osr/overwrite_requests', async (req) => {
    const account = accountOf(req);
    const body = checked<{ number: string; service_provider?: string }>('raise_overwrite', req.body ?? {});
    const e164 = body.number.startsWith('+') ? body.number : `+${body.number}`;
    const number = deps.store.numbers.byNumber(account, e164);
    if (!number) throw invalidField('/number', `${e164} is not a number of this account.`);
    const row = await raiseOverwriteRequest(forAccount(deps, account), account, number.data.id, body.service_provider ?? 'Northwind Messaging (NNID 741852)');
    return { status: 201, body: { data: row.data, type: 'osr_overwrite_request' } };
  });

  route('get', '/scenarios', () => ({ body: { scenarios: scenarioNames() } }));
  route('post', '/scenarios/:name', async (req) => ({ body: await runScenarioByName(`${req.protocol}://${req.get('host')}`, String(req.params.name)) }));

  router.use((req: Request, res: Response) => {
    res.status(404).json(new ApiError('not_found', [{ detail: `Nothing at ${req.method} /__sim${req.path}.` }]).envelope());
  });

  return router;
}
