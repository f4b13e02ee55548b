/**
 * Control API (contract/sim.yaml): coverage of the contract by a client's suite, from the journal
 * and the delivery log: which operations it called and which documented answers it saw, what its
 * receivers were sent and how they answered, which fault effects fired. Scoped to the key's account;
 * without a key, to a run's sandboxes, one account, or every account; kept past the sandboxes
 * (src/harness/coverage.ts).
 */
import { loadContract, readContractDocument } from '../contract.js';
import { invalidParameter } from '../domain/errors.js';
import { NO_ANSWER, type CoverageScope, type DeliveryList, type Tally } from '../harness/coverage.js';
import type { SimHandlerMap, Read } from '../handling/handler.js';
import type { ControlPort } from '../handling/control_port.js';
import { checkAccount } from './patterns.js';
import { emptyUsed } from '../changes/footprint.js';

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

/** Each kind of a list with what was delivered and how it was answered, the contract's kinds first. */
function delivered(tally: Tally, list: DeliveryList, kinds: string[]) {
  const of = tally.deliveries[list] ?? {};
  const extra = Object.keys(of).filter((k) => !kinds.includes(k));
  return [...kinds, ...extra].map((kind) => ({
    kind,
    delivered: of[kind]?.delivered ?? 0,
    answers: of[kind]?.answers ?? {},
  }));
}

/** Each operation with its calls and the answers seen, documented first. */
function operationCoverage(tally: Tally) {
  const seen = new Map(Object.entries(tally.calls).map(([op, statuses]) => [op, statuses] as const));
  return operations().map((o) => {
    const counts = seen.get(o.operationId) ?? {};
    // a call answered by no status at all (a dropped connection) is a call, but no answer of the contract
    const statuses = new Map(
      Object.entries(counts)
        .filter(([status]) => status !== NO_ANSWER)
        .map(([status, n]) => [Number(status), n]),
    );
    const extra = [...statuses.keys()].filter((s) => !o.statuses.includes(s)).sort((a, b) => a - b);
    return {
      operation_id: o.operationId,
      method: o.method,
      path: o.path,
      calls: Object.values(counts).reduce((a, b) => a + b, 0),
      answers: [
        ...o.statuses.map((status) => ({ status, documented: true, seen: statuses.get(status) ?? 0 })),
        ...extra.map((status) => ({ status, documented: false, seen: statuses.get(status) ?? 0 })),
      ],
    };
  });
}

/** The accounts a coverage query counts: a run's sandboxes, one account, the key's account, or every account. */
async function scopeOf(
  port: ControlPort,
  read: Read,
  own: string | undefined,
  query: { run?: string; account_id?: string },
): Promise<CoverageScope> {
  if (query.run !== undefined && query.account_id !== undefined)
    throw invalidParameter('run', 'Give run or account_id, not both.');
  if (own !== undefined) {
    if (query.run !== undefined)
      throw invalidParameter('run', "A key's coverage is its account's: ask for a run's without a key.");
    if (query.account_id !== undefined && query.account_id !== own)
      throw invalidParameter('account_id', "A key's coverage is its account's; name no other.");
    return { account_id: own };
  }
  if (query.run !== undefined) {
    const scope = { run: query.run };
    if (!(await port.coverage.knows(scope)))
      throw invalidParameter('run', `No sandbox was made with run ${query.run}.`);
    return scope;
  }
  if (query.account_id !== undefined) {
    await checkAccount(port, read, query.account_id, 'query');
    return { account_id: query.account_id };
  }
  return 'all';
}

/** What a tally's calls and deliveries used, in the contract's order of operations. */
function footprintOf(tally: Tally) {
  const used = tally.used ?? emptyUsed();
  const info = (loadContract().document.info ?? {}) as { title?: string; version?: string };
  const sorted = (o: Record<string, string[]>) =>
    Object.fromEntries(Object.entries(o).sort(([a], [b]) => a.localeCompare(b)));
  return {
    contract: { title: info.title ?? '', version: info.version ?? '' },
    operations: operations()
      .filter((o) => tally.calls[o.operationId])
      .map((o) => {
        const u = used.operations[o.operationId];
        const statuses = tally.calls[o.operationId] ?? {};
        return {
          operation_id: o.operationId,
          method: o.method,
          path: o.path,
          calls: Object.values(statuses).reduce((a, b) => a + b, 0),
          statuses: Object.keys(statuses).sort(),
          request_fields: u?.request ?? [],
          query_parameters: u?.query ?? [],
          values: sorted(u?.values ?? {}),
          response_fields: sorted(u?.response ?? {}),
        };
      }),
    webhooks: Object.entries(used.webhooks)
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([webhook, w]) => ({ webhook, delivered: w.delivered, fields: w.fields })),
  };
}

export const coverageHandlers = {
  simFootprint: async ({ port, read, own, query }) => ({
    status: 200,
    body: footprintOf(await port.coverage.of(await scopeOf(port, read, own, query ?? {}), { used: true })),
  }),
  simCoverage: async ({ port, read, own, query }) => {
    const tally = await port.coverage.of(await scopeOf(port, read, own, query ?? {}));
    const ops = operationCoverage(tally);
    const called = ops.filter((o) => o.calls > 0);
    const answers = called.flatMap((o) => o.answers.filter((a) => a.documented));
    const seen = answers.filter((a) => a.seen > 0).length;
    const kinds = deliveryKinds();
    return {
      status: 200,
      body: {
        summary: {
          operations_called: called.length,
          operations: ops.length,
          answers_seen: seen,
          answers: answers.length,
          // no call seen is no coverage: a gate on an empty suite fails
          percent: answers.length ? Math.round((seen / answers.length) * 1000) / 10 : 0,
        },
        operations: ops,
        deliveries: {
          events: delivered(tally, 'events', kinds.events),
          cdrs: delivered(tally, 'cdrs', kinds.cdrs),
          formats: delivered(tally, 'formats', kinds.formats),
        },
        faults: Object.entries(tally.faults).map(([effect, fired]) => ({ effect, fired })),
      },
    };
  },
} satisfies Partial<SimHandlerMap>;
