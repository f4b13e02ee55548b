/**
 * The order lifecycle: NEW → PROCESSING → COMPLETED or ERROR, its requests moving with it, and
 * each request's effect on the account (numbers added or removed, bindings changed) as it completes.
 */
import { assertMove, MAGIC, orderSteps, orderTransitions, requestTransitions, type RequestStatus } from '../domain/lifecycles.js';
import type { Deps } from '../deps.js';
import type { NumberRow, OrderRow, RequestRow, ScheduledStep } from '../store/rows.js';
import { publish } from './events.js';

class RequestFailure extends Error {
  constructor(readonly code: string, detail: string) {
    super(detail);
  }
}

const presentNumber = (n: NumberRow) => ({ type: 'number', data: n.data });

/** A submitted request's next status, checked against the request table. */
const moveRequest = (r: RequestRow, to: RequestStatus): RequestStatus => assertMove(requestTransitions, r.data.status ?? 'NEW', to);

/** Schedules a new order's first step and announces it. */
export async function startOrder(deps: Deps, order: OrderRow): Promise<void> {
  deps.scheduler.at(order.account_id, deps.clock.now().getTime() + orderSteps.NEW!.afterMs(0), 'order', order.data.id);
  await publish(deps, order.account_id, 'ORDER', 'order.created', { type: 'order', data: order.data });
}

/** The account's numbers a request names; one that vanished since fails the request. */
function namedNumbers(deps: Deps, request: RequestRow): NumberRow[] {
  const numbers = ((request.data.data as { numbers?: string[] }).numbers ?? []).map((n) => (n.startsWith('+') ? n : `+${n}`));
  return numbers.map((n) => {
    const row = deps.store.numbers.byNumber(request.account_id, n);
    if (!row) throw new RequestFailure('NUMBER_NOT_FOUND', `${n} is no longer a number of the account.`);
    return row;
  });
}

async function changed(deps: Deps, rows: NumberRow[], kind: string): Promise<void> {
  for (const n of rows) await publish(deps, n.account_id, 'DID', kind, presentNumber(n));
}

function newNumbers(deps: Deps, request: RequestRow): NumberRow[] {
  const d = request.data.data as { number_type: string; quantity?: string; numbers?: string[]; npa?: string; nxx?: string; state?: string; rate_center?: string; city?: string };
  if (d.number_type === 'NONE') return [];
  const wanted = d.numbers?.length ? d.numbers.map((n) => (n.startsWith('+') ? n : `+${n}`)) : [];
  const npa = d.npa ?? (d.number_type === 'TOLLFREE' ? '888' : '312');
  const count = wanted.length || Number(d.quantity ?? 0);
  const taken = (n: string) => deps.store.numbers.find((r) => r.data.number === n) !== undefined;
  while (wanted.length < count) {
    const nxx = d.nxx ?? String(200 + Math.floor(deps.random.float() * 800));
    const candidate = `+1${npa}${nxx}${String(Math.floor(deps.random.float() * 10_000)).padStart(4, '0')}`;
    if (!taken(candidate) && !wanted.includes(candidate)) wanted.push(candidate);
  }
  const now = deps.clock.iso();
  return wanted.map((number) => {
    if (taken(number)) throw new RequestFailure('NUMBER_UNAVAILABLE', `${number} is not available.`);
    return deps.store.numbers.insert({
      account_id: request.account_id, switch_id: null, api_key_id: null, auto_response_id: null, campaign_id: null,
      data: {
        id: deps.ids.uuid(), number, messaging_enabled: true, voice_enabled: true,
        rate_center: d.rate_center ?? d.city?.toUpperCase() ?? null, state: d.state ?? null, inserted_at: now, updated_at: now,
      },
    });
  });
}

function campaignOf(deps: Deps, request: RequestRow): string {
  const tcr = (request.data.data as { tcr_campaign_id: string }).tcr_campaign_id;
  const c = deps.store.campaigns.find((r) => r.data.tcr_campaign_id === tcr && (r.account_id === request.account_id || r.shared_with.includes(request.account_id)));
  if (!c) throw new RequestFailure('CAMPAIGN_NOT_FOUND', `No campaign ${tcr} for the account.`);
  return c.data.id;
}

/** What completing a request does to the account. */
async function applyRequest(deps: Deps, request: RequestRow): Promise<void> {
  const now = deps.clock.iso();
  const set = async (rows: NumberRow[], fields: Partial<NumberRow>, data: Partial<NumberRow['data']> = {}) => {
    for (const n of rows) {
      Object.assign(n, fields);
      Object.assign(n.data, data, { updated_at: now });
      deps.store.numbers.touch(n);
    }
    await changed(deps, rows, 'did.updated');
  };
  const switchId = (request.data.data as { switch_id?: string }).switch_id;
  switch (request.data.type) {
    case 'NEW_NUMBERS':
      return changed(deps, newNumbers(deps, request), 'did.created');
    case 'REMOVE_NUMBERS': {
      const rows = namedNumbers(deps, request);
      for (const n of rows) {
        for (const d of deps.store.destinations.ofNumber(n.account_id, n.data.id)) deps.store.destinations.remove(d);
        for (const o of deps.store.optoutItems.ofNumber(n.account_id, n.data.id)) deps.store.optoutItems.remove(o);
        deps.store.numbers.remove(n);
      }
      return changed(deps, rows, 'did.deleted');
    }
    case 'ADD_CAMPAIGN_NUMBERS':
      return set(namedNumbers(deps, request), { campaign_id: campaignOf(deps, request) });
    case 'REMOVE_CAMPAIGN_NUMBERS':
      campaignOf(deps, request);
      return set(namedNumbers(deps, request), { campaign_id: null });
    case 'ADD_MESSAGING_NUMBERS':
      return set(namedNumbers(deps, request), switchId ? { switch_id: switchId } : {}, { messaging_enabled: true });
    case 'REMOVE_MESSAGING_NUMBERS':
      return set(namedNumbers(deps, request), {}, { messaging_enabled: false });
    case 'ADD_VOICE_NUMBERS':
      return set(namedNumbers(deps, request), switchId ? { switch_id: switchId } : {}, { voice_enabled: true });
    case 'REMOVE_VOICE_NUMBERS':
      return set(namedNumbers(deps, request), {}, { voice_enabled: false });
    case 'REGISTER_BRAND':
    case 'VET_BRAND':
    case 'UNREGISTER_BRAND':
    case 'REGISTER_CAMPAIGN':
    case 'UNREGISTER_CAMPAIGN': {
      const [topic, kind] = REGISTRY_EVENTS[request.data.type];
      await publish(deps, request.account_id, topic, kind, { type: 'request', data: request.data });
    }
  }
}

/** The registry requests announce themselves on the brand and campaign topics. */
const REGISTRY_EVENTS = {
  REGISTER_BRAND: ['CSP_BRAND', 'brand.registered'],
  VET_BRAND: ['CSP_BRAND', 'brand.vetted'],
  UNREGISTER_BRAND: ['CSP_BRAND', 'brand.unregistered'],
  REGISTER_CAMPAIGN: ['CSP_CAMPAIGN', 'campaign.registered'],
  UNREGISTER_CAMPAIGN: ['CSP_CAMPAIGN', 'campaign.unregistered'],
} as const;

export async function runOrder(step: ScheduledStep, deps: Deps): Promise<string> {
  const order = deps.store.orders.getAnyAccount(step.ref);
  if (!order) return 'the order is gone';
  const timed = orderSteps[order.data.status];
  if (!timed) return `the order is ${order.data.status} already`;
  const requests = deps.store.requests.ofOrder(order.account_id, order.data.id);
  const now = deps.clock.iso();
  if (timed.next === 'PROCESSING') {
    Object.assign(order.data, { status: assertMove(orderTransitions, order.data.status, 'PROCESSING'), updated_at: now });
    deps.store.orders.touch(order);
    for (const r of requests) {
      Object.assign(r.data, { status: moveRequest(r, 'PROCESSING'), updated_at: now });
      deps.store.requests.touch(r);
      await publish(deps, r.account_id, 'REQUEST', 'request.updated', { type: 'request', data: r.data });
    }
    await publish(deps, order.account_id, 'ORDER', 'order.updated', { type: 'order', data: order.data });
    deps.scheduler.at(order.account_id, deps.clock.now().getTime() + orderSteps.PROCESSING!.afterMs(requests.length), 'order', order.data.id);
    return `order NEW → PROCESSING (${requests.length} request(s))`;
  }
  let failed = 0;
  for (const r of requests) {
    try {
      if ((r.data.name ?? '').startsWith(MAGIC.failingRequest)) throw new RequestFailure('SIMULATED_FAILURE', 'The request name asks for a failure.');
      await applyRequest(deps, r);
      Object.assign(r.data, { status: moveRequest(r, 'COMPLETED'), error_code: 'OK', updated_at: now });
      deps.store.requests.touch(r);
      await publish(deps, r.account_id, 'REQUEST', 'request.completed', { type: 'request', data: r.data });
    } catch (e) {
      if (!(e instanceof RequestFailure)) throw e;
      failed++;
      Object.assign(r.data, { status: moveRequest(r, 'ERROR'), error_code: e.code, updated_at: now });
      deps.store.requests.touch(r);
      await publish(deps, r.account_id, 'REQUEST', 'request.failed', { type: 'request', data: r.data });
    }
  }
  const status = assertMove(orderTransitions, order.data.status, failed ? 'ERROR' : 'COMPLETED');
  Object.assign(order.data, { status, error_code: failed ? 'REQUEST_FAILED' : 'OK', updated_at: now });
  deps.store.orders.touch(order);
  await publish(deps, order.account_id, 'ORDER', failed ? 'order.failed' : 'order.completed', { type: 'order', data: order.data });
  return `order PROCESSING → ${order.data.status}`;
}
