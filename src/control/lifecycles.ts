/** Control API (contract/sim.yaml): states on demand: orders, requests and bulk dip tasks moved by hand, by their tables. */
import { invalidField, notFound } from '../domain/errors.js';
import type { OrderStatus } from '../domain/lifecycles.js';
import { MAX_TIME_MS } from '../engine/clock.js';
import type { SimHandlerMap } from '../handling/handler.js';
import { abortBulkDip, scheduleBulkDip } from '../simulation/lifecycles.js';
import { moveOrderTo, moveRequestTo } from '../simulation/orders.js';

export const lifecycleHandlers = {
  simMoveOrder: async ({ port, accountId, params, body }) => {
    const order = await port.work(accountId, async (w) => {
      const row = await w.store.orders.get(accountId, params.id);
      if (!row) throw notFound('order', params.id);
      return moveOrderTo(w, row, body.status as OrderStatus);
    });
    await port.scheduler.runDue(accountId);
    return { status: 200, body: { data: order.data, type: 'order' } };
  },

  simMoveRequest: async ({ port, accountId, params, body }) => {
    const request = await port.work(accountId, async (w) => {
      const row = await w.store.requests.get(accountId, params.id);
      if (!row?.order_id) throw notFound('request', params.id);
      return moveRequestTo(w, row, body.status, body.error_code);
    });
    await port.scheduler.runDue(accountId);
    return { status: 200, body: { data: request.data, type: 'request' } };
  },

  simAbortBulkDip: async ({ port, accountId, params }) => {
    const task = await port.work(accountId, async (w) => {
      const row = await w.store.bulkDipTasks.get(accountId, params.id);
      if (!row) throw notFound('bulk_dip_task', params.id);
      return abortBulkDip(w, row);
    });
    return { status: 200, body: { data: task.data, type: 'bulk_dip_task' } };
  },

  simScheduleBulkDip: async ({ port, accountId, params, body }) => {
    const until = Date.parse(body.until);
    if (!Number.isFinite(until) || until > MAX_TIME_MS)
      throw invalidField('/until', 'until must be a time before year 10000.');
    const task = await port.work(accountId, async (w) => {
      const row = await w.store.bulkDipTasks.get(accountId, params.id);
      if (!row) throw notFound('bulk_dip_task', params.id);
      return scheduleBulkDip(w, row, until);
    });
    return { status: 200, body: { data: task.data, type: 'bulk_dip_task' } };
  },
} satisfies Partial<SimHandlerMap>;
