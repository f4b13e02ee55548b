/**
 * Coverage of the contract (`GET /__sim/coverage`), counted from the journal, the delivery log and
 * the fault rules, and kept past its account: when a sandbox is reset or removed, what it covered
 * is added to a tally kept under its id and its run, so a suite that removes its sandboxes in
 * `afterAll` still has its coverage to gate on. At most KEPT_TALLIES accounts' tallies are kept;
 * past that the oldest go first.
 */
import type { DeliveryRow } from '../domain/rows.js';
import type { Units } from '../engine/work.js';
import type { FaultRule, JournalEntry, Tally, TallyStore } from '../store/shared.js';
import type { Faults } from '../engine/faults.js';
import type { Journal } from './journal.js';
import { parseJson } from '../domain/json.js';
import { addCall, addDelivery, addUsed, emptyUsed, type CallSeen, type Valued } from '../changes/footprint.js';

export type { KeptTally, Tally, TallyStore } from '../store/shared.js';

/** The newest calls a tally reads (the journal's own bound, 64 MB, usually holds fewer). */
export const SCANNED_CALLS = 50_000;

/** The accounts whose coverage is kept past them; the oldest kept goes first. */
export const KEPT_TALLIES = 10_000;

/** The lists deliveries are counted in: events by kind, CDRs by kind, messages by format. */
export type DeliveryList = 'events' | 'cdrs' | 'formats';
const LISTS: DeliveryList[] = ['events', 'cdrs', 'formats'];

export const emptyTally = (): Tally => ({
  calls: {},
  deliveries: { events: {}, cdrs: {}, formats: {} },
  faults: {},
  used: emptyUsed(),
});

/** The kind a delivery counts for in a list (an event's kind, a CDR's kind, a message's format). */
function kindOf(row: DeliveryRow, list: DeliveryList): string | undefined {
  if (list === 'formats') return row.data.kind === 'sms' || row.data.kind === 'mms' ? row.request.format : undefined;
  if ((list === 'events') !== (row.data.kind === 'event') || (list === 'cdrs') !== (row.data.kind === 'cdr'))
    return undefined;
  // a body that is not JSON names no kind: counted in no list
  return (parseJson(row.request.body) as { data?: { kind?: string } } | undefined)?.data?.kind;
}

/** What a call or an attempt that had no answer (a dropped connection) is counted under. */
export const NO_ANSWER = 'no answer';

/** The tally of some calls, deliveries and rules; with `valued`, of what they used too (the footprint). */
export function tallyOf(
  calls: readonly (Pick<JournalEntry, 'operation_id' | 'status'> & Partial<CallSeen>)[],
  rows: readonly DeliveryRow[],
  rules: readonly FaultRule[],
  valued?: Valued,
): Tally {
  const used = emptyUsed();
  const t = { ...emptyTally(), used };
  for (const c of calls) {
    if (!c.operation_id) continue;
    if (valued && c.request && c.response) addCall(used, c as CallSeen, valued);
    const statuses = (t.calls[c.operation_id] ??= {});
    const key = c.status === null ? NO_ANSWER : String(c.status);
    statuses[key] = (statuses[key] ?? 0) + 1;
  }
  for (const row of rows) {
    if (valued) addDelivery(used, row.data.kind, parseJson(row.request.body));
    for (const list of LISTS) {
      const kind = kindOf(row, list);
      if (kind === undefined) continue;
      const of = ((t.deliveries[list] ??= {})[kind] ??= { delivered: 0, answers: {} });
      of.delivered++;
      for (const a of row.data.attempts) {
        const key = a.status === null ? NO_ANSWER : String(a.status);
        of.answers[key] = (of.answers[key] ?? 0) + 1;
      }
    }
  }
  for (const rule of rules)
    for (const [name, value] of Object.entries(rule.effect)) {
      if (value === undefined || value === false || name === 'body' || !rule.fired) continue;
      const effect = name === 'status' ? `status ${String(value)}` : name;
      t.faults[effect] = (t.faults[effect] ?? 0) + rule.fired;
    }
  return t;
}

const addCounts = (into: Record<string, number>, from: Record<string, number>): void => {
  for (const [k, n] of Object.entries(from)) into[k] = (into[k] ?? 0) + n;
};

/** `into` with `from` added to it. */
export function addTally(into: Tally, from: Tally): Tally {
  for (const [op, statuses] of Object.entries(from.calls)) addCounts((into.calls[op] ??= {}), statuses);
  for (const [list, kinds] of Object.entries(from.deliveries))
    for (const [kind, d] of Object.entries(kinds)) {
      const of = ((into.deliveries[list] ??= {})[kind] ??= { delivered: 0, answers: {} });
      of.delivered += d.delivered;
      addCounts(of.answers, d.answers);
    }
  addCounts(into.faults, from.faults);
  if (from.used) into.used = addUsed(into.used ?? emptyUsed(), from.used);
  return into;
}

/** Which accounts a coverage report counts: one, the sandboxes of a run, or every account. */
export type CoverageScope = { account_id: string } | { run: string } | 'all';

/** The coverage of accounts, live and kept. */
export class Coverage {
  constructor(
    private readonly parts: {
      units: Units;
      journal: Journal;
      faults: Faults;
      kept: TallyStore;
      valued: Valued;
    },
  ) {}

  /** The tally of the live records of some accounts (every account when `accounts` is undefined). */
  private async live(accounts: readonly string[] | undefined, used: boolean): Promise<Tally> {
    const { units, journal, faults, valued } = this.parts;
    const only = accounts ? new Set(accounts) : undefined;
    const calls: JournalEntry[] = [];
    const filter = { api: 'v1' as const, ...(accounts?.length === 1 ? { account_id: accounts[0] } : {}) };
    let cursor: string | undefined;
    if (!accounts || accounts.length)
      while (calls.length < SCANNED_CALLS) {
        const page = await journal.page(filter, 1_000, cursor);
        calls.push(...page.requests.filter((c) => !only || (c.account_id !== null && only.has(c.account_id))));
        if (!page.next_cursor) break;
        cursor = page.next_cursor;
      }
    const rows = await units.run({ read: true }, async (w) => {
      if (!accounts) return w.deliveries.list();
      const out: DeliveryRow[] = [];
      for (const id of accounts) out.push(...(await w.view(id).deliveries.list()));
      return out;
    });
    const rules = (await faults.list()).filter(
      (r) => !only || (r.match.account_id !== undefined && only.has(r.match.account_id)),
    );
    return tallyOf(calls, rows, rules, used ? valued : undefined);
  }

  /** The live accounts a scope names: the account, a run's sandboxes, or all (undefined). */
  private async accountsOf(scope: CoverageScope): Promise<string[] | undefined> {
    if (scope === 'all') return undefined;
    if ('account_id' in scope) return [scope.account_id];
    const run = scope.run;
    return this.parts.units.run({ read: true }, async (w) =>
      (await w.accounts.sandboxes()).filter((a) => a.sandbox_run === run).map((a) => a.account_id),
    );
  }

  /** What a scope covered: its live accounts' records and the tallies kept of its accounts; with `used`, what their calls used (the footprint), which only its reader pays for. */
  async of(scope: CoverageScope, opts: { used?: boolean } = {}): Promise<Tally> {
    const accounts = await this.accountsOf(scope);
    const kept = await this.parts.kept.list(scope === 'all' ? {} : scope);
    return kept.reduce((t, k) => addTally(t, k.tally), await this.live(accounts, opts.used ?? false));
  }

  /** Whether the scope names accounts that exist or whose coverage is kept. */
  async knows(scope: { account_id: string } | { run: string }): Promise<boolean> {
    if ((await this.parts.kept.list(scope)).length) return true;
    return 'run' in scope && !!(await this.accountsOf(scope))?.length;
  }

  /** Keeps what an account covered so far, before its records go (a reset or a removal). */
  async keep(accountId: string, run: string | null): Promise<void> {
    await this.parts.kept.add({ account_id: accountId, run, tally: await this.live([accountId], true) });
  }

  /** Drops every kept tally (a reset of the whole server that removes its sandboxes). */
  clear(): Promise<void> {
    return this.parts.kept.clear();
  }
}
