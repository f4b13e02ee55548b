/**
 * Control API (contract/sim.yaml): coverage of the contract by a client's suite, from the journal
 * and the delivery log: which operations it called and which documented answers it saw, what its
 * receivers were sent and how they answered, which fault effects fired. Scoped to the key's account.
 */
import { loadContract, readContractDocument } from '../contract.js';
import type { JournalEntry } from '../engine/journal.js';
import type { DeliveryRow } from '../domain/rows.js';
import type { SimHandlerMap } from '../http/handler.js';
import { read } from './read.js';

/** The newest calls coverage reads (the journal's own bound, 64 MB, usually holds fewer). */
const SCANNED_CALLS = 50_000;

interface Documented {
  operationId: string;
  method: string;
  path: string;
  statuses: number[];
}

let documented: Documented[] | undefined;
let enums: { events: string[]; cdrs: string[]; formats: string[] } | undefined;

/** Every operation of the simulated API with the statuses its contract documents. */
function operations(): Documented[] {
  if (!documented) {
    const paths = (loadContract().document.paths ?? {}) as Record<string, Record<string, { responses?: object }>>;
    documented = [...loadContract().operations.values()].map((o) => ({
      operationId: o.operationId,
      method: o.method,
      path: o.path,
      statuses: Object.keys(paths[o.path]?.[o.method.toLowerCase()]?.responses ?? {})
        .map(Number)
        .filter((n) => Number.isInteger(n))
        .sort((a, b) => a - b),
    }));
  }
  return documented;
}

/** The event kinds, CDR kinds and message formats the contract names. */
function deliveryKinds() {
  if (!enums) {
    const schemas = (readContractDocument('openapi').components as { schemas: Record<string, Record<string, unknown>> })
      .schemas;
    const list = (name: string) => ((schemas[name]?.enum as string[] | undefined) ?? []).slice();
    // the CDR kinds are those the contract's cdr_delivery names
    const cdrData = (
      schemas.cdr_delivery?.properties as Record<string, { properties?: Record<string, { enum?: string[] }> }>
    )?.data;
    const cdrKinds = cdrData?.properties?.kind?.enum ?? [];
    enums = {
      events: list('event_kind'),
      cdrs: cdrKinds,
      formats: [...list('sms_message_format'), ...list('mms_message_format')],
    };
  }
  return enums;
}

/** How a delivery's attempts were answered, counted by status (`no answer` when none came). */
function answersOf(rows: readonly DeliveryRow[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const r of rows)
    for (const a of r.data.attempts) {
      const key = a.status === null ? 'no answer' : String(a.status);
      out[key] = (out[key] ?? 0) + 1;
    }
  return out;
}

/** The kind a delivery counts for in a list (an event's kind, a CDR's kind, a message's format). */
function kindOf(row: DeliveryRow, list: 'events' | 'cdrs' | 'formats'): string | undefined {
  if (list === 'formats') return row.data.kind === 'sms' || row.data.kind === 'mms' ? row.request.format : undefined;
  if ((list === 'events') !== (row.data.kind === 'event') || (list === 'cdrs') !== (row.data.kind === 'cdr'))
    return undefined;
  try {
    return (JSON.parse(row.request.body) as { data?: { kind?: string } }).data?.kind;
  } catch {
    return undefined;
  }
}

function delivered(rows: readonly DeliveryRow[], list: 'events' | 'cdrs' | 'formats', kinds: string[]) {
  return kinds.map((kind) => {
    const of = rows.filter((r) => kindOf(r, list) === kind);
    return { kind, delivered: of.length, answers: answersOf(of) };
  });
}

/** Each operation with its calls and the answers seen, documented first. */
function operationCoverage(calls: readonly JournalEntry[]) {
  const seen = new Map<string, Map<number, number>>();
  for (const c of calls) {
    if (!c.operation_id) continue;
    const statuses = seen.get(c.operation_id) ?? new Map<number, number>();
    statuses.set(c.status, (statuses.get(c.status) ?? 0) + 1);
    seen.set(c.operation_id, statuses);
  }
  return operations().map((o) => {
    const statuses = seen.get(o.operationId) ?? new Map<number, number>();
    const extra = [...statuses.keys()].filter((s) => !o.statuses.includes(s)).sort((a, b) => a - b);
    return {
      operation_id: o.operationId,
      method: o.method,
      path: o.path,
      calls: [...statuses.values()].reduce((a, b) => a + b, 0),
      answers: [
        ...o.statuses.map((status) => ({ status, documented: true, seen: statuses.get(status) ?? 0 })),
        ...extra.map((status) => ({ status, documented: false, seen: statuses.get(status) ?? 0 })),
      ],
    };
  });
}

export const coverageHandlers = {
  simCoverage: async ({ runtime, own }) => {
    const calls: JournalEntry[] = [];
    let cursor: string | undefined;
    const filter = { api: 'v1' as const, ...(own === undefined ? {} : { account_id: own }) };
    while (calls.length < SCANNED_CALLS) {
      const page = await runtime.journal.page(filter, 1_000, cursor);
      calls.push(...page.requests);
      if (!page.next_cursor) break;
      cursor = page.next_cursor;
    }
    const ops = operationCoverage(calls);
    const called = ops.filter((o) => o.calls > 0);
    const answers = called.flatMap((o) => o.answers.filter((a) => a.documented));
    const seen = answers.filter((a) => a.seen > 0).length;
    const rows = await read(runtime, (w) => (own === undefined ? w.deliveries.all() : w.deliveries.list(own)));
    const kinds = deliveryKinds();
    const effects = new Map<string, number>();
    for (const rule of await runtime.faults.list(own))
      for (const [name, value] of Object.entries(rule.effect)) {
        if (value === undefined || value === false || name === 'body' || !rule.fired) continue;
        const effect = name === 'status' ? `status ${String(value)}` : name;
        effects.set(effect, (effects.get(effect) ?? 0) + rule.fired);
      }
    return {
      status: 200,
      body: {
        summary: {
          operations_called: called.length,
          operations: ops.length,
          answers_seen: seen,
          answers: answers.length,
          percent: answers.length ? Math.round((seen / answers.length) * 1000) / 10 : 100,
        },
        operations: ops,
        deliveries: {
          events: delivered(rows, 'events', kinds.events),
          cdrs: delivered(rows, 'cdrs', kinds.cdrs),
          formats: delivered(rows, 'formats', kinds.formats),
        },
        faults: [...effects].map(([effect, fired]) => ({ effect, fired })),
      },
    };
  },
} satisfies Partial<SimHandlerMap>;
