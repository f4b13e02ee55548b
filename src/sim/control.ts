/**
 * The control API under /__sim (interface.md section 7; contract/sim.yaml): not part of the
 * simulated service. Account-scoped calls act on the account of the key in Authorization, the
 * Demo account when none is given.
 */
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { Router, type NextFunction, type Request, type Response } from 'express';
import { toE164 } from '../domain/addresses.js';
import { authenticate } from '../http/auth.js';
import { readContractDocument } from '../http/contract.js';
import { ApiError, invalidField, notFound } from '../http/errors.js';
import { validationError } from '../http/validation.js';
import type { Runtime } from '../server.js';
import { StorageUnavailable } from '../store/store.js';
import { MAX_TIME_MS } from './clock.js';
import { parseDuration } from './duration.js';
import type { FaultEffect, FaultMatch } from './faults.js';
import { finishSmsTrace, receiveSms, routeCall } from './inbound.js';
import { raiseOverwriteRequest } from './lifecycles.js';
import { createSandbox } from './sandboxes.js';
import { runScenarioByName, scenarioNames } from './scenario_runner.js';

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

type Handler = (req: Request) => Promise<{ status?: number; body: unknown }> | { status?: number; body: unknown };

export function controlRouter(runtime: Runtime, opts: ControlOptions): Router {
  const router = Router();
  const { store, clocks, scheduler, faults, journal, snapshots } = runtime;
  const read = <T>(fn: Parameters<typeof store.run<T>>[1]) => store.run<T>({ read: true }, fn);

  /** The account a call acts on: the key's, or Demo. */
  const accountOf = async (req: Request): Promise<string> =>
    (req.headers.authorization ? (await read((w) => authenticate(w, req.headers.authorization))).accountId : DEMO_ACCOUNT);
  const clockOf = async (accountId: string) => {
    const clock = await read((w) => clocks.of(w, accountId));
    return { now: clock.iso(), mode: clock.mode };
  };

  const route = (method: 'get' | 'post' | 'delete', path: string, handler: Handler) => {
    router[method](path, async (req: Request, res: Response) => {
      try {
        const { status = 200, body } = await handler(req);
        res.status(status).json(body);
      } catch (err) {
        const e = err instanceof ApiError ? err
          : err instanceof StorageUnavailable ? new ApiError('storage_unavailable', [{ detail: err.message }])
            : new ApiError('internal_error', [{ detail: (err as Error).message }]);
        if (!(err instanceof ApiError) && !(err instanceof StorageUnavailable)) runtime.logger.warn(`control ${req.method} ${req.path}: ${(err as Error).stack}`);
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
    await runtime.reset();
    return { body: { status: 'reset', accounts: (await read((w) => w.accounts.all())).length } };
  });

  route('get', '/accounts', async () => ({
    body: {
      accounts: await read(async (w) => {
        const out = [];
        for (const a of await w.accounts.all()) {
          const keys = [];
          for (const k of await w.apiKeys.list(a.data.id)) {
            const user = k.user_id ? await w.users.getAnyAccount(k.user_id) : undefined;
            keys.push({ id: k.data.id, key: k.data.key, name: k.data.name, kind: user ? 'impersonated' : 'standard', role: user?.role ?? null, active: k.data.active });
          }
          out.push({ id: a.data.id, name: a.data.name, keys });
        }
        return out;
      }),
    },
  }));

  route('post', '/accounts', async (req) => {
    const { name } = checked<{ name?: string }>('sandbox_request', req.body ?? {});
    const id = runtime.ids.uuid();
    const box = await store.run({ account: id }, async (w) => createSandbox(w, runtime, await clocks.of(w, id), id, name));
    return { status: 201, body: box };
  });
  route('delete', '/accounts/:id', async (req) => {
    const id = String(req.params.id);
    const account = await read((w) => w.accounts.getAnyAccount(id));
    if (!account) throw notFound('account', id);
    await store.run({ global: true }, (w) => w.removeAccount(id));
    return { body: { id, name: account.data.name, deleted: true } };
  });

  route('post', '/faults', (req) => {
    const body = checked<{ match: FaultMatch; effect: FaultEffect; times?: number; probability?: number }>('fault_request', req.body ?? {});
    return { status: 201, body: faults.add({ id: runtime.ids.uuid(), match: body.match, effect: body.effect, times: body.times ?? null, probability: body.probability ?? null }) };
  });
  route('get', '/faults', () => ({ body: { faults: faults.list() } }));
  route('delete', '/faults/:id', (req) => {
    const rule = faults.remove(String(req.params.id));
    if (!rule) throw notFound('fault', String(req.params.id));
    return { body: rule };
  });

  route('get', '/requests', (req) => {
    const q = req.query as Record<string, string | undefined>;
    const entries = journal.list({ ...q, status: q.status === undefined ? undefined : Number(q.status) });
    return { body: { count: entries.length, requests: entries } };
  });

  route('post', '/snapshots', async (req) => {
    const { name } = checked<{ name: string }>('snapshot_request', req.body ?? {});
    await store.run({ global: true }, (w) => snapshots.save(w, name));
    return { status: 201, body: { name, snapshots: snapshots.names() } };
  });
  route('post', '/snapshots/:name/restore', async (req) => {
    const name = String(req.params.name);
    if (!snapshots.has(name)) throw notFound('snapshot', name);
    await store.run({ global: true }, (w) => snapshots.restore(w, name));
    clocks.forget();
    await scheduler.rearm();
    return { body: { name, restored: true } };
  });

  route('get', '/clock', async (req) => ({ body: await clockOf(await accountOf(req)) }));
  route('post', '/clock/freeze', async (req) => {
    const account = await accountOf(req);
    await store.run({ account }, (w) => clocks.freeze(w, account));
    await scheduler.rearm();
    return { body: await clockOf(account) };
  });
  route('post', '/clock/resume', async (req) => {
    const account = await accountOf(req);
    await store.run({ account }, (w) => clocks.resume(w, account));
    await scheduler.rearm();
    return { body: await clockOf(account) };
  });
  route('post', '/clock/advance', async (req) => {
    const account = await accountOf(req);
    const body = checked<{ by?: string; to?: string; next?: true }>('advance_request', req.body ?? {});
    const now = (await read((w) => clocks.of(w, account))).ms();
    let target: number | 'next';
    if (body.by !== undefined) {
      const ms = parseDuration(body.by);
      if (ms === null) throw invalidField('/by', `${body.by} is not an ISO 8601 duration such as PT10M.`);
      target = now + ms;
      if (target > MAX_TIME_MS) throw invalidField('/by', `${body.by} takes the clock past the year 9999.`);
    } else if (body.to !== undefined) {
      target = Date.parse(body.to);
      if (target < now) throw invalidField('/to', 'Time never goes backwards: `to` is before the clock.');
      if (target > MAX_TIME_MS) throw invalidField('/to', '`to` is past the year 9999.');
    } else {
      target = 'next';
    }
    return { body: await scheduler.advance(account, target) };
  });

  route('get', '/deliveries', async (req) => {
    const account = await accountOf(req);
    const kind = typeof req.query.kind === 'string' ? req.query.kind : undefined;
    const deliveries = (await read((w) => w.deliveries.list(account))).filter((d) => !kind || d.data.kind === kind).map((d) => d.data);
    return { body: { count: deliveries.length, deliveries } };
  });

  route('post', '/inbound/sms', async (req) => {
    const account = await accountOf(req);
    const body = checked<{ to: string; from: string; text: string; media_urls?: string[] }>('inbound_sms', req.body ?? {});
    const outcome = await runtime.work(account, (w) => receiveSms(w, body));
    // a simulated message waits for the first attempt of its delivery, as `advance` does
    await scheduler.runDue(account);
    const delivery = outcome.switchDelivery && (await read((w) => w.deliveries.getAnyAccount(outcome.switchDelivery!.id)));
    return { body: finishSmsTrace(outcome, delivery) };
  });

  route('post', '/inbound/call', async (req) => {
    const account = await accountOf(req);
    const body = checked<{ to: string; from: string }>('inbound_call', req.body ?? {});
    const result = await runtime.work(account, (work) => routeCall({
      work,
      route: async (spec) => runtime.deliveries.sendNow(await runtime.work(account, (w) => w.sim.deliver('route', spec, { retry: false, now: true }))),
    }, body), { read: true });
    return { body: result };
  });

  route('post', '/osr/overwrite_requests', async (req) => {
    const account = await accountOf(req);
    const body = checked<{ number: string; service_provider?: string }>('raise_overwrite', req.body ?? {});
    const row = await runtime.work(account, async (w) => {
      const number = await w.store.numbers.byNumber(account, toE164(body.number));
      if (!number) throw invalidField('/number', `${toE164(body.number)} is not a number of this account.`);
      return raiseOverwriteRequest(w, number, body.service_provider ?? 'Northwind Messaging (NNID 741852)');
    });
    // a simulated event waits for the deliveries it sets off, as `advance` does
    await scheduler.runDue(account);
    return { status: 201, body: { data: row.data, type: 'osr_overwrite_request' } };
  });

  route('get', '/scenarios', () => ({ body: { scenarios: scenarioNames() } }));
  route('post', '/scenarios/:name', async (req) => ({ body: await runScenarioByName(`${req.protocol}://${req.get('host')}`, String(req.params.name)) }));

  router.use((req: Request, res: Response) => {
    res.status(404).json(new ApiError('not_found', [{ detail: `Nothing at ${req.method} /__sim${req.path}.` }]).envelope());
  });

  return router;
}
