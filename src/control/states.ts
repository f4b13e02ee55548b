/** Control API (contract/sim.yaml): states on demand: orders, requests and bulk dip tasks moved by hand, by their tables. */
import { invalidField, notFound } from '../domain/errors.js';
import type { OrderStatus } from '../domain/transitions.js';
import { MAX_TIME_MS } from '../engine/clock.js';
import type { Work } from '../engine/work.js';
import type { ControlPort } from '../handling/control_port.js';
import type { SimHandlerMap } from '../handling/handler.js';
import { abortBulkDip, scheduleBulkDip } from '../simulation/bulk_dips.js';
import { moveOrderTo, moveRequestTo } from '../simulation/orders.js';

/**
 * The steps a move made due run once it is durable, before the call answers (as `advance` runs them):
 * each in a unit of its own, the account's lock free again.
 */
function runDueOnceDurable(port: ControlPort, w: Work): void {
  w.afterCommit(async () => void (await port.scheduler.runDue(w.accountId)));
}

export const stateHandlers = {
  simMoveOrder: async ({ port, work, params, body }) => {
    const w = await work();
    const row = await w.orders.get(params.id);
    if (!row) throw notFound('order', params.id);
    const order = await moveOrderTo(w, row, body.status as OrderStatus);
    runDueOnceDurable(port, w);
    return { status: 200, body: { data: order.data, type: 'order' } };
  },

  simMoveRequest: async ({ port, work, params, body }) => {
    const w = await work();
    const row = await w.requests.get(params.id);
    if (!row?.order_id) throw notFound('request', params.id);
    const request = await moveRequestTo(w, row, body.status, body.error_code);
    runDueOnceDurable(port, w);
    return { status: 200, body: { data: request.data, type: 'request' } };
  },

  simAbortBulkDip: async ({ work, params }) => {
    const w = await work();
    const row = await w.bulkDipTasks.get(params.id);
    if (!row) throw notFound('bulk_dip_task', params.id);
    const task = await abortBulkDip(w, row);
    return { status: 200, body: { data: task.data, type: 'bulk_dip_task' } };
  },

  simScheduleBulkDip: async ({ work, params, body }) => {
    const until = Date.parse(body.until);
    if (!Number.isFinite(until) || until > MAX_TIME_MS)
      throw invalidField('/until', 'until must be a time before year 10000.');
    const w = await work();
    const row = await w.bulkDipTasks.get(params.id);
    if (!row) throw notFound('bulk_dip_task', params.id);
    const task = await scheduleBulkDip(w, row, until);
    return { status: 200, body: { data: task.data, type: 'bulk_dip_task' } };
  },
} satisfies Partial<SimHandlerMap>;
