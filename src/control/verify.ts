/**
 * Control API (contract/sim.yaml): verify that calls were made, or deliveries sent, as a test
 * expects: the count of matches, or 422 `verification_failed` with the near misses. With an
 * account's key, that account's calls and deliveries alone.
 */
import { DomainError } from '../domain/errors.js';
import { bodyChecks, verify, type Check, type CountRule, type Verification } from '../domain/verify.js';
import type { JournalEntry } from '../harness/journal.js';
import type { DeliveryRow } from '../domain/rows.js';
import type { SimHandlerMap } from '../handling/handler.js';
import type { ControlPort } from '../handling/control_port.js';
import { pathHolds } from '../domain/matching.js';
import { checkCallPattern, checkDeliveryPattern } from './patterns.js';
import { parseJson } from '../domain/json.js';

/** The newest calls a verification looks at (each journal page holds at most 1,000). */
const SCANNED_CALLS = 10_000;

const equal = <R>(field: string, expected: unknown, actual: (r: R) => unknown): Check<R> => ({
  field,
  expected,
  actual,
  holds: (a) => a === expected,
});

type CallPattern = NonNullable<Parameters<SimHandlerMap['simVerifyRequests']>[0]['body']>['match'];

/** The checks of a call pattern, one per field it names. */
function callChecks(match: CallPattern): Check<JournalEntry>[] {
  const checks: Check<JournalEntry>[] = [];
  if (match.method !== undefined) checks.push(equal('method', match.method.toUpperCase(), (e) => e.method));
  if (match.path !== undefined) {
    const path = match.path;
    checks.push({ field: 'path', expected: path, actual: (e) => e.path, holds: (a) => pathHolds(path, String(a)) });
  }
  if (match.operation_id !== undefined) checks.push(equal('operation_id', match.operation_id, (e) => e.operation_id));
  if (match.status !== undefined) checks.push(equal('status', match.status, (e) => e.status));
  if (match.account_id !== undefined) checks.push(equal('account_id', match.account_id, (e) => e.account_id));
  for (const [name, value] of Object.entries(match.query ?? {}))
    checks.push({
      field: `query.${name}`,
      expected: value,
      actual: (e) => e.request.query?.[name],
      holds: (a) => (Array.isArray(a) ? a.includes(value) : a === value),
    });
  for (const name of match.headers ?? [])
    checks.push({
      field: `header ${name.toLowerCase()}`,
      expected: 'present',
      actual: (e) => (name.toLowerCase() in e.request.headers ? 'present' : 'absent'),
      holds: (a) => a === 'present',
    });
  if (match.body !== undefined) checks.push(...bodyChecks<JournalEntry>(match.body, (e) => e.request.body));
  return checks;
}

type DeliveryPattern = NonNullable<Parameters<SimHandlerMap['simVerifyDeliveries']>[0]['body']>['match'];
type Delivery = DeliveryRow['data'];

/** A delivery's body as JSON when it is JSON, else its text. */
// a body that is not JSON is compared as its text
const bodyOf = (d: Delivery): unknown => {
  const parsed = parseJson(d.body);
  return parsed === undefined ? d.body : parsed;
};

/** The checks of a delivery pattern, one per field it names. */
function deliveryChecks(match: DeliveryPattern): Check<Delivery>[] {
  const checks: Check<Delivery>[] = [];
  if (match.kind !== undefined) checks.push(equal('kind', match.kind, (d) => d.kind));
  if (match.method !== undefined) checks.push(equal('method', match.method.toUpperCase(), (d) => d.method));
  if (match.outcome !== undefined) checks.push(equal('outcome', match.outcome, (d) => d.outcome));
  if (match.account_id !== undefined) checks.push(equal('account_id', match.account_id, (d) => d.account_id));
  if (match.target !== undefined) {
    const prefix = match.target;
    checks.push({
      field: 'target',
      expected: prefix,
      actual: (d) => d.target,
      holds: (a) => String(a).startsWith(prefix),
    });
  }
  if (typeof match.body === 'string') {
    const text = match.body;
    checks.push({ field: 'body', expected: text, actual: (d) => d.body, holds: (a) => String(a).includes(text) });
  } else if (match.body !== undefined) checks.push(...bodyChecks<Delivery>(match.body, bodyOf));
  return checks;
}

/** The answer to a verification: 200 with the count, or 422 with the near misses (and the notes given). */
function answered(v: Verification, what: string, notes: string[] = []) {
  if (v.holds) return { status: 200 as const, body: { count: v.count, matches: v.matches } };
  throw new DomainError(
    'verification_failed',
    [{ detail: `Expected ${v.expected} ${what}, found ${v.count}.`, params: { count: v.count, expected: v.expected } }],
    {
      count: v.count,
      expected: v.expected,
      near_misses: v.nearMisses,
      near_misses_left_out: v.leftOut,
      ...(notes.length ? { notes } : {}),
    },
  );
}

/** The trace steps of an inbound message that say it was not sent on to a switch. */
const NOT_SENT = new Set(['discarded', 'intercepted']);
/** The newest inbound messages a failed delivery verify reads for why nothing was sent. */
const MESSAGES_READ = 50;

/**
 * What the journal knows of why messages were not sent on: the newest inbound SMS and MMS of the account
 * (or every account) whose trace says they were discarded or intercepted, a line each, newest first.
 */
async function notSent(port: ControlPort, accountId: string | undefined, kind: string | undefined): Promise<string[]> {
  if (kind !== undefined && kind !== 'sms' && kind !== 'mms') return [];
  const ops =
    kind === undefined ? ['simInboundSms', 'simInboundMms'] : [kind === 'sms' ? 'simInboundSms' : 'simInboundMms'];
  const notes: { id: number; line: string }[] = [];
  for (const operation_id of ops) {
    const filter = { api: 'sim' as const, operation_id, ...(accountId === undefined ? {} : { account_id: accountId }) };
    const page = await port.journal.page(filter, MESSAGES_READ);
    for (const e of page.requests) {
      const sent = e.request.body as { to?: string } | undefined;
      const answer = e.response.body as { trace?: { step: string; detail: string }[] } | undefined;
      const step = answer?.trace?.find((t) => NOT_SENT.has(t.step));
      if (!step) continue;
      const what = operation_id === 'simInboundSms' ? 'SMS' : 'MMS';
      notes.push({
        id: e.id,
        line: `The inbound ${what} to ${sent?.to ?? 'a number'} at ${e.at} was not sent on: ${step.detail}.`,
      });
    }
  }
  return notes
    .sort((a, b) => b.id - a.id)
    .slice(0, NOTES)
    .map((n) => n.line);
}
const NOTES = 5;

const ruleOf = (count: CountRule | undefined): CountRule => count ?? { at_least: 1 };

export const verifyHandlers = {
  simVerifyRequests: async ({ port, read, body, own }) => {
    await checkCallPattern(port, read, body.match, body.api, { pointer: '/match' });
    const calls: JournalEntry[] = [];
    let cursor: string | undefined;
    const filter = { api: body.api ?? 'v1', ...(own === undefined ? {} : { account_id: own }) };
    while (calls.length < SCANNED_CALLS) {
      const page = await port.journal.page(filter, 1_000, cursor);
      calls.push(...page.requests);
      if (!page.next_cursor) break;
      cursor = page.next_cursor;
    }
    const v = verify(
      calls,
      callChecks(body.match),
      ruleOf(body.count as CountRule | undefined),
      (e) => ({
        id: e.id,
        summary: `${e.method} ${e.path} → ${e.status ?? 'no answer'} (${e.operation_id ?? 'no operation'}, ${e.at})`,
      }),
      ['operation_id', 'path'],
    );
    return answered(v, 'matching calls');
  },

  simVerifyDeliveries: async ({ port, read, body, own }) => {
    await checkDeliveryPattern(port, read, body.match, { pointer: '/match' });
    const rows = await read((w) => (own === undefined ? w.deliveries.list() : w.view(own).deliveries.list()));
    // newest first, as the journal answers
    const deliveries = rows.map((r) => r.data).reverse();
    const v = verify(
      deliveries,
      deliveryChecks(body.match),
      ruleOf(body.count as CountRule | undefined),
      (d) => ({ id: d.id, summary: `${d.kind} ${d.method} ${d.target} → ${d.outcome}` }),
      ['kind', 'target'],
    );
    const notes = v.holds ? [] : await notSent(port, own ?? body.match.account_id, body.match.kind);
    return answered(v, 'matching deliveries', notes);
  },
} satisfies Partial<SimHandlerMap>;
