/**
 * The control API under /__sim (interface.md section 7; contract/sim.yaml), handlers keyed by
 * operationId: not part of the simulated service. It goes through the same pipeline as /api/v1
 * (src/http/app.ts); account-scoped calls act on the account of the key in Authorization, the Demo
 * account when none is given.
 */
import { toE164 } from '../domain/addresses.js';
import { loadContract } from '../http/contract.js';
import { ApiError, invalidField, invalidParameter, notFound } from '../http/errors.js';
import type { SimHandlerMap, StreamWriter } from '../http/handler.js';
import type { Runtime } from '../runtime.js';
import type { UnitOfWork } from '../store/store.js';
import { MAX_TIME_MS } from '../engine/clock.js';
import { dashboardAsset } from './ui.js';
import { addDuration } from '../engine/duration.js';
import { JOURNAL_STREAMS } from '../engine/journal.js';
import { finishSmsTrace, receiveSms, routeCall } from '../simulation/inbound.js';
import type { OrderStatus } from '../domain/lifecycles.js';
import { abortBulkDip, raiseOverwriteRequest, scheduleBulkDip } from '../simulation/lifecycles.js';
import { moveOrderTo, moveRequestTo } from '../simulation/orders.js';
import { createSandbox } from '../engine/sandboxes.js';

/** Suspends or reinstates a user of the account (spec: a suspended user keeps informational services). */
async function setSuspended(runtime: Runtime, accountId: string, id: string, suspended: boolean) {
  const user = await runtime.work(accountId, async (w) => {
    const row = await w.store.users.get(accountId, id);
    if (!row) throw notFound('user', id);
    return w.store.users.update(row, (d) => {
      d.suspended = suspended;
      d.data.updated_at = w.clock.iso();
    });
  });
  return { status: 200 as const, body: { data: user.data, type: 'user' } };
}

export const DEMO_ACCOUNT = '0a0a0a0a-0000-4000-8000-000000000001';

const read = <T>(runtime: Runtime, fn: (w: UnitOfWork) => Promise<T>) => runtime.store.run({ read: true }, fn);

/** The account's clock and the steps waiting on it. */
async function clockOf(runtime: Runtime, accountId: string) {
  return read(runtime, async (w) => {
    const clock = await runtime.clocks.of(w, accountId);
    const steps = (await w.steps.list(accountId)).slice(0, 100);
    return {
      now: clock.iso(),
      mode: clock.mode,
      account_id: accountId,
      pending: steps.map((s) => ({ id: s.data.id, at: s.data.at, kind: s.data.kind, ref: s.data.ref })),
    };
  });
}

export const simHandlers: SimHandlerMap = {
  simOpenapi: () => ({ status: 200, body: loadContract('sim').document }),

  simHealth: () => ({ status: 200, body: { status: 'ok' } }),

  simReset: async ({ runtime }) => {
    await runtime.reset();
    return { status: 200, body: { status: 'reset', accounts: (await read(runtime, (w) => w.accounts.all())).length } };
  },

  simAccounts: async ({ runtime }) => ({
    status: 200,
    body: {
      accounts: await read(runtime, async (w) => {
        const out = [];
        for (const a of await w.accounts.all()) {
          const keys = [];
          for (const k of await w.apiKeys.list(a.data.id)) {
            const user = k.user_id ? await w.users.getAnyAccount(k.user_id) : undefined;
            keys.push({
              id: k.data.id,
              key: k.data.key,
              name: k.data.name,
              kind: user ? ('impersonated' as const) : ('standard' as const),
              role: user?.role ?? null,
              active: k.data.active,
            });
          }
          out.push({ id: a.data.id, name: a.data.name, keys });
        }
        return out;
      }),
    },
  }),

  simCreateSandbox: async ({ runtime, body }) => {
    const id = runtime.ids.uuid();
    // whole-state work, so that parallel creates cannot pass the limit together
    const box = await runtime.store.run({ global: true }, async (w) =>
      createSandbox(w, runtime, await runtime.clocks.of(w, id), id, body?.name, runtime.limits.sandboxes),
    );
    return { status: 201, body: box };
  },

  simDeleteAccount: async ({ runtime, params }) => {
    const account = await read(runtime, (w) => w.accounts.getAnyAccount(params.id));
    if (!account) throw notFound('account', params.id);
    await runtime.store.run({ global: true }, (w) => w.removeAccount(params.id));
    return { status: 200, body: { id: params.id, name: account.data.name, deleted: true } };
  },

  simAddFault: async ({ runtime, body }) => ({
    status: 201,
    body: await runtime.faults.add({
      id: runtime.ids.uuid(),
      match: body.match,
      effect: body.effect,
      times: body.times ?? null,
      probability: body.probability ?? null,
    }),
  }),

  simListFaults: async ({ runtime }) => ({ status: 200, body: { faults: await runtime.faults.list() } }),

  simDeleteFault: async ({ runtime, params }) => {
    const rule = await runtime.faults.remove(params.id);
    if (!rule) throw notFound('fault', params.id);
    return { status: 200, body: rule };
  },

  simRequests: async ({ runtime, query }) => {
    if (query.cursor !== undefined && !/^\d{1,15}$/.test(query.cursor))
      throw invalidParameter('cursor', 'cursor is not a next_cursor of this journal.');
    const { limit = 100, cursor, ...filter } = query;
    return { status: 200, body: await runtime.journal.page(filter, limit, cursor) };
  },

  simListSnapshots: async ({ runtime }) => ({ status: 200, body: { snapshots: await runtime.snapshots.list() } }),

  simSaveSnapshot: async ({ runtime, body }) => {
    await runtime.store.run({ global: true }, (w) => runtime.snapshots.save(w, body.name));
    return { status: 201, body: { name: body.name, snapshots: await runtime.snapshots.list() } };
  },

  simRestoreSnapshot: async ({ runtime, params }) => {
    await runtime.store.run({ global: true }, async (w) => {
      if (!(await runtime.snapshots.restore(w, params.name))) throw notFound('snapshot', params.name);
    });
    runtime.clocks.forget();
    await runtime.scheduler.rearm();
    return { status: 200, body: { name: params.name, restored: true } };
  },

  simClock: async ({ runtime, accountId }) => ({ status: 200, body: await clockOf(runtime, accountId) }),

  simFreeze: async ({ runtime, accountId }) => {
    await runtime.store.run({ account: accountId }, (w) => runtime.clocks.freeze(w, accountId));
    await runtime.scheduler.rearm();
    return { status: 200, body: await clockOf(runtime, accountId) };
  },

  simResume: async ({ runtime, accountId }) => {
    await runtime.store.run({ account: accountId }, (w) => runtime.clocks.resume(w, accountId));
    await runtime.scheduler.rearm();
    return { status: 200, body: await clockOf(runtime, accountId) };
  },

  simAdvance: async ({ runtime, accountId, body }) => {
    const now = (await read(runtime, (w) => runtime.clocks.of(w, accountId))).ms();
    let target: number | 'next' = 'next';
    if (body.by !== undefined) {
      const to = addDuration(now, body.by);
      if (typeof to === 'string') throw invalidField('/by', to);
      if (to > MAX_TIME_MS) throw invalidField('/by', `${body.by} takes the clock past the year 9999.`);
      target = to;
    } else if (body.to !== undefined) {
      target = Date.parse(body.to);
      if (target < now) throw invalidField('/to', 'Time never goes backwards: `to` is before the clock.');
      if (target > MAX_TIME_MS) throw invalidField('/to', '`to` is past the year 9999.');
    }
    return { status: 200, body: await runtime.scheduler.advance(accountId, target) };
  },

  simDeliveries: async ({ runtime, accountId, query }) => {
    const rows = await read(runtime, (w) => w.deliveries.list(accountId));
    const deliveries = rows.filter((d) => !query.kind || d.data.kind === query.kind).map((d) => d.data);
    return { status: 200, body: { count: deliveries.length, deliveries } };
  },

  simInboundSms: async ({ runtime, accountId, body }) => {
    const outcome = await runtime.work(accountId, (w) => receiveSms(w, body));
    // a simulated message waits for the first attempt of its delivery, as `advance` does
    await runtime.scheduler.runDue(accountId);
    const sent = outcome.switchDelivery;
    const delivery = sent && (await read(runtime, (w) => w.deliveries.getAnyAccount(sent.id)));
    return { status: 200, body: finishSmsTrace(outcome, delivery) };
  },

  simInboundCall: async ({ runtime, accountId, body }) => {
    const result = await runtime.work(
      accountId,
      (work) =>
        routeCall(
          {
            work,
            route: async (spec) =>
              runtime.deliveries.sendNow(
                await runtime.work(accountId, (w) => w.sim.deliver('route', spec, { retry: false, now: true })),
              ),
          },
          body,
        ),
      { read: true },
    );
    return { status: 200, body: result };
  },

  simRaiseOverwrite: async ({ runtime, accountId, body }) => {
    const row = await runtime.work(accountId, async (w) => {
      const number = await w.store.numbers.byNumber(accountId, toE164(body.number));
      if (!number) throw invalidField('/number', `${toE164(body.number)} is not a number of this account.`);
      return raiseOverwriteRequest(w, number, body.service_provider ?? 'Northwind Messaging (NNID 741852)');
    });
    // a simulated event waits for the deliveries it sets off, as `advance` does
    await runtime.scheduler.runDue(accountId);
    return { status: 201, body: { data: row.data, type: 'osr_overwrite_request' } };
  },

  simMoveOrder: async ({ runtime, accountId, params, body }) => {
    const order = await runtime.work(accountId, async (w) => {
      const row = await w.store.orders.get(accountId, params.id);
      if (!row) throw notFound('order', params.id);
      return moveOrderTo(w, row, body.status as OrderStatus);
    });
    await runtime.scheduler.runDue(accountId);
    return { status: 200, body: { data: order.data, type: 'order' } };
  },

  simMoveRequest: async ({ runtime, accountId, params, body }) => {
    const request = await runtime.work(accountId, async (w) => {
      const row = await w.store.requests.get(accountId, params.id);
      if (!row?.order_id) throw notFound('request', params.id);
      return moveRequestTo(w, row, body.status, body.error_code);
    });
    await runtime.scheduler.runDue(accountId);
    return { status: 200, body: { data: request.data, type: 'request' } };
  },

  simAbortBulkDip: async ({ runtime, accountId, params }) => {
    const task = await runtime.work(accountId, async (w) => {
      const row = await w.store.bulkDipTasks.get(accountId, params.id);
      if (!row) throw notFound('bulk_dip_task', params.id);
      return abortBulkDip(w, row);
    });
    return { status: 200, body: { data: task.data, type: 'bulk_dip_task' } };
  },

  simScheduleBulkDip: async ({ runtime, accountId, params, body }) => {
    const until = Date.parse(body.until);
    if (!Number.isFinite(until) || until > MAX_TIME_MS)
      throw invalidField('/until', 'until must be a time before year 10000.');
    const task = await runtime.work(accountId, async (w) => {
      const row = await w.store.bulkDipTasks.get(accountId, params.id);
      if (!row) throw notFound('bulk_dip_task', params.id);
      return scheduleBulkDip(w, row, until);
    });
    return { status: 200, body: { data: task.data, type: 'bulk_dip_task' } };
  },

  simSuspendUser: ({ runtime, accountId, params }) => setSuspended(runtime, accountId, params.id, true),
  simReinstateUser: ({ runtime, accountId, params }) => setSuspended(runtime, accountId, params.id, false),

  simCreateGroup: async ({ runtime, accountId, body }) => {
    const group = await runtime.work(accountId, async (w) =>
      w.store.sharedResourceGroups.insert({
        account_id: accountId,
        data: { id: w.ids.uuid(), name: body.name, inserted_at: w.clock.iso() },
      }),
    );
    return { status: 201, body: group.data };
  },

  simListScenarios: ({ runtime }) => ({ status: 200, body: { scenarios: runtime.scenarios.names() } }),

  simDashboard: () => {
    const page = dashboardAsset('index.html');
    if (!page) throw notFound('asset', 'index.html');
    return { status: 200, body: page.text, contentType: page.contentType };
  },

  simDashboardAsset: ({ params }) => {
    const asset = params.asset === 'index.html' ? null : dashboardAsset(params.asset);
    if (!asset) throw notFound('asset', params.asset);
    return { status: 200, body: asset.text, contentType: asset.contentType };
  },

  simRequestStream: ({ runtime, query }) => {
    // calls journaled before the writer is handed over wait here
    let out: StreamWriter | undefined;
    const early: string[] = [];
    const stop = runtime.journal.listen({ api: query.api ?? 'v1' }, (entry) => {
      const event = `event: call\nid: ${entry.id}\ndata: ${JSON.stringify(entry)}\n\n`;
      if (out) out.write(event);
      else early.push(event);
    });
    if (!stop)
      throw new ApiError('limit_reached', [
        { detail: `${JOURNAL_STREAMS} journal streams are open; close one (or read GET /__sim/requests).` },
      ]);
    return {
      status: 200,
      body: '',
      contentType: 'text/event-stream',
      stream: (writer) => {
        out = writer;
        writer.onClose(stop);
        writer.write(': the calls journaled from now on\n\n');
        for (const event of early.splice(0)) writer.write(event);
      },
    };
  },

  simRedeliver: async ({ runtime, accountId, params }) => {
    const delivery = await runtime.deliveries.redeliver(accountId, params.id);
    if (!delivery) throw notFound('delivery', params.id);
    return { status: 200, body: delivery.data };
  },

  simScenario: async ({ runtime, params, origin, adminToken }) => ({
    status: 200,
    body: await runtime.scenarios.run(origin, params.name, adminToken),
  }),
};
