/**
 * The order lifecycle: NEW → PROCESSING → COMPLETED or ERROR, its requests moving with it, and
 * each request's effect on the account (numbers added or removed, bindings changed) as it completes.
 */
import { toE164 } from '../domain/addresses.js';
import { newDid } from '../domain/numbers.js';
import { newNumbersProblem } from '../domain/requests.js';
import {
  assertMove,
  MAGIC,
  ORDER_FIRST,
  ORDER_PROCESSING,
  orderSteps,
  orderTransitions,
  requestTransitions,
  type OrderStatus,
  type RequestStatus,
} from '../domain/transitions.js';
import type { components } from '../generated/api.js';
import { invalidField } from '../domain/errors.js';
import type { Draft, NumberRow, OrderRow, RequestRow, StepRow } from '../domain/rows.js';
import { applyRegistry } from './registry.js';
import { RequestFailure } from './request_failure.js';
import type { EventKind } from '../engine/outbox.js';
import type { Work } from '../engine/work.js';

const presentNumber = (n: NumberRow) => ({ type: 'did', data: n.data });

/** A submitted request's next status, checked against the request table. */
const moveRequest = (r: RequestRow, to: RequestStatus): RequestStatus =>
  assertMove(requestTransitions, r.data.status ?? 'NEW', to);

/** Schedules a new order's first step and announces it. */
export async function startOrder(work: Work, order: OrderRow): Promise<void> {
  await work.outbox.schedule('order', order.data.id, work.clock.ms() + ORDER_FIRST.afterMs(0));
  await work.outbox.publish('ORDER', 'order.created', { type: 'order', data: order.data });
}

type NewNumbersData = components['schemas']['new_numbers_data'];

/** The most numbers one new-numbers request can be given (docs/simulation.md: the simulated inventory). */
export const NEW_NUMBERS_INVENTORY = 1_000;

/** The account's numbers a request names; one that vanished since fails the request. */
async function namedNumbers(work: Work, named: readonly string[]): Promise<NumberRow[]> {
  const rows: NumberRow[] = [];
  // a number named twice is one number
  for (const n of new Set(named.map(toE164))) {
    const row = await work.numbers.byNumber(n);
    if (!row) throw new RequestFailure('NUMBER_NOT_FOUND', `${n} is no longer a number of the account.`);
    rows.push(row);
  }
  return rows;
}

async function changed(work: Work, rows: NumberRow[], kind: EventKind): Promise<void> {
  for (const n of rows) await work.outbox.publish('DID', kind, presentNumber(n));
}

async function newNumbers(work: Work, d: NewNumbersData): Promise<NumberRow[]> {
  const { random, clock, ids } = work;
  if (d.number_type === 'NONE') return [];
  const problem = newNumbersProblem(d);
  if (problem) throw new RequestFailure(problem.code, problem.detail);
  const wanted = d.numbers?.length ? [...new Set(d.numbers.map(toE164))] : [];
  const npa = d.npa ?? (d.number_type === 'TOLLFREE' ? '888' : '312');
  if (!wanted.length) {
    // the simulated inventory: at most NEW_NUMBERS_INVENTORY numbers a request, found in a bounded
    // number of draws; short of `quantity`, `min_quantity` (spec: the least acceptable) decides
    const most = Number(d.quantity ?? 0);
    const least = Number(d.min_quantity ?? d.quantity ?? 0);
    const target = Math.min(most, NEW_NUMBERS_INVENTORY);
    const picked = new Set<string>();
    for (let draw = 0; picked.size < target && draw < target * 20 + 100; draw++) {
      const nxx = d.nxx ?? String(200 + Math.floor(random.float() * 800));
      const candidate = `+1${npa}${nxx}${String(Math.floor(random.float() * 10_000)).padStart(4, '0')}`;
      if (!(await work.numbers.taken(candidate))) picked.add(candidate);
    }
    if (picked.size < least)
      throw new RequestFailure(
        'NUMBER_UNAVAILABLE',
        `Only ${picked.size} numbers are available; ${least} at least were wanted.`,
      );
    wanted.push(...picked);
  }
  // every number is checked before any is added: a request that fails leaves the account as it was
  for (const number of wanted) {
    if (await work.numbers.taken(number)) throw new RequestFailure('NUMBER_UNAVAILABLE', `${number} is not available.`);
  }
  const now = clock.iso();
  const rows: NumberRow[] = [];
  for (const number of wanted) {
    rows.push(
      await work.numbers.insert({
        switch_id: null,
        api_key_id: null,
        auto_response_id: null,
        campaign_id: null,
        data: newDid({
          id: ids.uuid(),
          number,
          rate_center: d.rate_center ?? d.city?.toUpperCase() ?? null,
          state: d.state ?? null,
          inserted_at: now,
          updated_at: now,
        }),
      }),
    );
  }
  return rows;
}

async function campaignOf(work: Work, tcr: string): Promise<string> {
  const c = await work.campaigns.visibleByTcr(tcr);
  if (!c) throw new RequestFailure('CAMPAIGN_NOT_FOUND', `No campaign ${tcr} for the account.`);
  return c.data.id;
}

/** What completing a request does to the account; the request's `type` tells its `data`. */
async function applyRequest(work: Work, request: RequestRow): Promise<void> {
  const { clock } = work;
  const now = clock.iso();
  const set = async (rows: NumberRow[], change: (d: Draft<NumberRow>) => void) => {
    const updated: NumberRow[] = [];
    for (const n of rows) {
      updated.push(
        await work.numbers.update(n, (d) => {
          change(d);
          d.data.updated_at = now;
        }),
      );
    }
    await changed(work, updated, 'did.updated');
  };
  const r = request.data;
  switch (r.type) {
    case 'NEW_NUMBERS':
      return changed(work, await newNumbers(work, r.data), 'did.created');
    case 'REMOVE_NUMBERS': {
      const rows = await namedNumbers(work, r.data.numbers);
      for (const n of rows) {
        for (const d of await work.destinations.ofNumber(n.data.id)) await work.destinations.remove(d);
        for (const o of await work.optoutItems.ofNumber(n.data.id)) await work.optoutItems.remove(o);
        await work.numbers.remove(n);
      }
      return changed(work, rows, 'did.deleted');
    }
    case 'ADD_CAMPAIGN_NUMBERS': {
      const campaign = await campaignOf(work, r.data.tcr_campaign_id);
      return set(await namedNumbers(work, r.data.numbers), (d) => (d.campaign_id = campaign));
    }
    case 'REMOVE_CAMPAIGN_NUMBERS':
      await campaignOf(work, r.data.tcr_campaign_id);
      return set(await namedNumbers(work, r.data.numbers), (d) => (d.campaign_id = null));
    case 'ADD_MESSAGING_NUMBERS':
    case 'ADD_VOICE_NUMBERS': {
      const { switch_id: switchId } = r.data;
      if (switchId && !(await work.switches.get(switchId)))
        throw new RequestFailure('SWITCH_NOT_FOUND', `No switch ${switchId} in the account.`);
      return set(await namedNumbers(work, r.data.numbers), (d) => {
        if (switchId) d.switch_id = switchId;
        if (r.type === 'ADD_MESSAGING_NUMBERS') Object.assign(d.data, { sms_enabled: true, mms_enabled: true });
        else d.data.voice_enabled = true;
      });
    }
    case 'REMOVE_MESSAGING_NUMBERS':
      return set(await namedNumbers(work, r.data.numbers), (d) =>
        Object.assign(d.data, { sms_enabled: false, mms_enabled: false }),
      );
    case 'REMOVE_VOICE_NUMBERS':
      return set(await namedNumbers(work, r.data.numbers), (d) => (d.data.voice_enabled = false));
    default:
      return applyRegistry(work, r);
  }
}

/** Request statuses a request never leaves. */
const FINAL: readonly RequestStatus[] = ['COMPLETED', 'ERROR', 'CANCELLED'];
/** The spec's manual stages: the order waits while a request is in one (spec: "each processing stage waits"). */
const WAITING: readonly RequestStatus[] = ['MANUAL', 'REVIEW', 'AUTHOR_REVIEW'];

const statusOf = (r: RequestRow): RequestStatus => r.data.status ?? 'NEW';

/** Applies a request's effect and ends it COMPLETED, or ERROR with the cause's code; with its event. */
async function finishRequest(work: Work, r: RequestRow): Promise<RequestRow> {
  const now = work.clock.iso();
  try {
    if ((r.data.name ?? '').startsWith(MAGIC.failingRequest))
      throw new RequestFailure('SIMULATED_FAILURE', 'The request name asks for a failure.');
    await applyRequest(work, r);
    const done = await work.requests.update(r, (d) =>
      Object.assign(d.data, { status: moveRequest(r, 'COMPLETED'), error_code: 'OK', updated_at: now }),
    );
    await work.outbox.publish('REQUEST', 'request.completed', { type: 'request', data: done.data });
    return done;
  } catch (e) {
    if (!(e instanceof RequestFailure)) throw e;
    return failRequest(work, r, e.code);
  }
}

async function failRequest(work: Work, r: RequestRow, code: string): Promise<RequestRow> {
  const done = await work.requests.update(r, (d) =>
    Object.assign(d.data, { status: moveRequest(r, 'ERROR'), error_code: code, updated_at: work.clock.iso() }),
  );
  await work.outbox.publish('REQUEST', 'request.failed', { type: 'request', data: done.data });
  return done;
}

/** Ends a PROCESSING order once none of its requests is left to finish: COMPLETED, or ERROR if one failed. */
async function settleOrder(work: Work, order: OrderRow): Promise<OrderRow> {
  if (order.data.status !== 'PROCESSING') return order;
  const requests = await work.requests.ofOrder(order.data.id);
  if (requests.some((r) => !FINAL.includes(statusOf(r)))) return order;
  const failed = requests.some((r) => statusOf(r) === 'ERROR');
  const status = assertMove(orderTransitions, order.data.status, failed ? 'ERROR' : 'COMPLETED');
  const done = await work.orders.update(order, (d) =>
    Object.assign(d.data, { status, error_code: failed ? 'REQUEST_FAILED' : 'OK', updated_at: work.clock.iso() }),
  );
  await work.outbox.publish('ORDER', failed ? 'order.failed' : 'order.completed', { type: 'order', data: done.data });
  return done;
}

export async function runOrder(step: StepRow, work: Work): Promise<string> {
  const { clock, outbox } = work;
  const order = await work.orders.get(step.data.ref);
  if (!order) return 'the order is gone';
  const timed = orderSteps[order.data.status];
  if (!timed) return `the order is ${order.data.status} already`;
  const requests = await work.requests.ofOrder(order.data.id);
  const now = clock.iso();
  if (timed.next === 'PROCESSING') {
    const moved = await work.orders.update(order, (d) =>
      Object.assign(d.data, { status: assertMove(orderTransitions, order.data.status, 'PROCESSING'), updated_at: now }),
    );
    for (const r of requests) {
      if (statusOf(r) !== 'NEW') continue;
      const updated = await work.requests.update(r, (d) =>
        Object.assign(d.data, { status: moveRequest(r, 'PROCESSING'), updated_at: now }),
      );
      await outbox.publish('REQUEST', 'request.updated', { type: 'request', data: updated.data });
    }
    await outbox.publish('ORDER', 'order.updated', { type: 'order', data: moved.data });
    await outbox.schedule('order', order.data.id, clock.ms() + ORDER_PROCESSING.afterMs(requests.length));
    return `order NEW → PROCESSING (${requests.length} request(s))`;
  }
  // requests in a manual stage wait (a control call moves them on); the rest finish now
  for (const r of requests) if (statusOf(r) === 'PROCESSING') await finishRequest(work, r);
  const settled = await settleOrder(work, order);
  if (settled.data.status === 'PROCESSING') {
    const waiting = requests.filter((r) => WAITING.includes(statusOf(r))).length;
    return `order PROCESSING: waiting for ${waiting} request(s) in a manual stage`;
  }
  return `order PROCESSING → ${settled.data.status}`;
}

/** Removes the pending lifecycle steps of a record (its status moved by hand). */
export async function dropSteps(work: Work, ref: string): Promise<void> {
  for (const step of await work.steps.ofRef(ref)) if (step.data.kind !== 'delivery') await work.steps.remove(step);
}

/** A 422 naming the move a table does not have. */
const noMove = (what: string, from: string, to: string, allowed: readonly string[]) =>
  invalidField(
    '/status',
    `${/^[aeiou]/.test(what) ? 'An' : 'A'} ${what} cannot move from ${from} to ${to}; from ${from} it may move to ${allowed.length ? allowed.join(', ') : 'nothing'}.`,
  );

/** Control API: moves a submitted request to a status its table allows, with what that means for its order. */
export async function moveRequestTo(
  work: Work,
  r: RequestRow,
  to: RequestStatus,
  errorCode?: string,
): Promise<RequestRow> {
  const from = statusOf(r);
  if (!requestTransitions[from].includes(to)) throw noMove('request', from, to, requestTransitions[from]);
  const order = r.order_id ? await work.orders.get(r.order_id) : undefined;
  let moved: RequestRow;
  if (to === 'COMPLETED') moved = await finishRequest(work, r);
  else if (to === 'ERROR') moved = await failRequest(work, r, errorCode ?? 'SIMULATED_FAILURE');
  else {
    moved = await work.requests.update(r, (d) => Object.assign(d.data, { status: to, updated_at: work.clock.iso() }));
    await work.outbox.publish('REQUEST', 'request.updated', { type: 'request', data: moved.data });
  }
  if (order?.data.status === 'PROCESSING') {
    // back in the queue: the order finishes it after a processing time, as it would have
    if (to === 'PROCESSING')
      await work.outbox.schedule('order', order.data.id, work.clock.ms() + ORDER_PROCESSING.afterMs(1));
    await settleOrder(work, order);
  }
  return (await work.requests.get(r.data.id)) ?? moved;
}

/** Control API: moves an order to a status its table allows; its requests follow. */
export async function moveOrderTo(work: Work, order: OrderRow, to: OrderStatus): Promise<OrderRow> {
  const from = order.data.status;
  if (!orderTransitions[from].includes(to)) throw noMove('order', from, to, orderTransitions[from]);
  const requests = await work.requests.ofOrder(order.data.id);
  if (to === 'CANCELLED' || to === 'PROCESSING') {
    for (const r of requests) {
      if (statusOf(r) !== 'NEW') continue;
      const moved = await work.requests.update(r, (d) =>
        Object.assign(d.data, { status: moveRequest(r, to), updated_at: work.clock.iso() }),
      );
      await work.outbox.publish('REQUEST', 'request.updated', { type: 'request', data: moved.data });
    }
    const moved = await work.orders.update(order, (d) =>
      Object.assign(d.data, { status: to, updated_at: work.clock.iso() }),
    );
    // the step that was to start it must not finish it early
    await dropSteps(work, order.data.id);
    if (to === 'PROCESSING')
      await work.outbox.schedule('order', order.data.id, work.clock.ms() + ORDER_PROCESSING.afterMs(requests.length));
    await work.outbox.publish('ORDER', 'order.updated', { type: 'order', data: moved.data });
    return moved;
  }
  // COMPLETED or ERROR from PROCESSING: every unfinished request is finished (or failed) now
  for (const r of requests) {
    const status = statusOf(r);
    if (FINAL.includes(status)) continue;
    if (to === 'ERROR') {
      if (!requestTransitions[status].includes('ERROR'))
        throw noMove('request', status, 'ERROR', requestTransitions[status]);
      await failRequest(work, r, 'SIMULATED_FAILURE');
    } else {
      if (!requestTransitions[status].includes('COMPLETED'))
        throw noMove('request', status, 'COMPLETED', requestTransitions[status]);
      await finishRequest(work, r);
    }
  }
  return settleOrder(work, order);
}
