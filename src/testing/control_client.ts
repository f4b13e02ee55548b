/**
 * A typed client of the control API, for a client team's tests: every method calls an operation of
 * contract/sim.yaml by its operationId (its method and path read from the contract the package
 * ships), its body and answer typed from the generated types, its errors thrown with the server's
 * envelope. `connectDipswitch(url, { key, adminToken })` reaches a server started elsewhere; a
 * sandbox's client acts on that sandbox alone (its key goes with every call).
 */
import { AssertionError } from 'node:assert';
import { loadContract, type OperationId, type SimOperationId } from '../contract.js';
import { wallClock } from '../deps.js';
import type { components, operations } from '../generated/sim.js';

type S = components['schemas'];

/** The methods a pattern can name (any case is taken; these are the ones a route has). */
export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE' | 'get' | 'post' | 'put' | 'patch' | 'delete';

/** A pattern's operation and method typed from the contract, so a typo (`listNumbrs`) does not compile. */
type Typed<M> = Omit<M, 'operation_id' | 'method'> & {
  /** An operationId of /api/v1 (or of /__sim, for `api: 'sim'`). */
  operation_id?: OperationId | SimOperationId;
  method?: HttpMethod;
};

/** A pattern of calls for `requests.verify`. */
export type CallPattern = Omit<S['verify_requests'], 'match'> & { match: Typed<S['verify_requests']['match']> };

/** A pattern of deliveries for `deliveries.verify`. */
export type DeliveryPattern = Omit<S['verify_deliveries'], 'match'> & {
  match: Omit<S['verify_deliveries']['match'], 'method'> & { method?: HttpMethod };
};

/** A fault rule as `faults.add` takes it. */
export type FaultRequest = Omit<S['fault_request'], 'match'> & { match: Typed<S['fault_request']['match']> };

/** A query of the journal. */
export type JournalQuery = Typed<NonNullable<operations['simRequests']['parameters']['query']>>;

/** A call or delivery that came closest to a failed verification, and each field that differed. */
export type NearMiss = S['near_miss'];
type JsonBody<Op> = Op extends { requestBody?: { content: { 'application/json': infer B } } } ? B : never;
type Ok<Op> = Op extends { responses: infer R }
  ? R extends { 200: { content: { 'application/json': infer B } } }
    ? B
    : R extends { 201: { content: { 'application/json': infer B } } }
      ? B
      : unknown
  : unknown;

/** An answer the control API refused: its status and its error envelope. */
export class ControlError extends Error {
  constructor(
    readonly status: number,
    readonly body: { errors?: { code: string; detail: string }[] } & Record<string, unknown>,
    operation: string,
  ) {
    super(`${operation} answered ${status}: ${body.errors?.map((e) => `${e.code}: ${e.detail}`).join('; ') ?? ''}`);
  }
}

export interface ConnectOptions {
  /** An account's key: the client acts on that account (a sandbox's, say). */
  key?: string;
  /** The server's admin token, where it has one: for what spans accounts (sandboxes, every account). */
  adminToken?: string;
}

/** A fault rule as made, with what it fired so far and its removal. */
export interface FaultHandle {
  readonly rule: S['fault'];
  /** How often it has fired, as the server counts it now. */
  fired(): Promise<number>;
  remove(): Promise<void>;
}

/** What a delivery must hold for `waitFor`: a pattern of `deliveries.verify` (an empty one is refused). */
export type DeliveryFilter = DeliveryPattern['match'];

/** A failed verification: the count expected and found, and the near misses, typed. */
export class VerificationError extends AssertionError {
  /** How many matched. */
  readonly count: number;
  /** The count asked for, in words (`exactly 1`). */
  readonly expectedCount: string;
  readonly nearMisses: NearMiss[];

  constructor(
    init: { message: string; expected: unknown; actual: unknown; operator: string },
    found: { count: number; expectedCount: string; nearMisses: NearMiss[] },
  ) {
    super(init);
    this.count = found.count;
    this.expectedCount = found.expectedCount;
    this.nearMisses = found.nearMisses;
  }
}

/** Which sandboxes' coverage: one run's (their `run`), or one account's; the client's own without either. */
export interface CoverageQuery {
  run?: string;
  accountId?: string;
}

/** The run a sandbox is made for when none is given: `DIPSWITCH_RUN` of the environment, if set. */
const runOfEnvironment = (): string | undefined => process.env.DIPSWITCH_RUN || undefined;

export interface ControlClient {
  readonly url: string;
  clock: {
    get(): Promise<Ok<operations['simClock']>>;
    now(): Promise<string>;
    advance(by: string): Promise<S['advance_response']>;
    advanceTo(time: Date | string): Promise<S['advance_response']>;
    next(within?: string): Promise<S['advance_response']>;
    freeze(): Promise<void>;
    resume(): Promise<void>;
  };
  inbound: {
    sms(message: S['inbound_sms']): Promise<S['sms_result']>;
    mms(message: S['inbound_mms']): Promise<S['sms_result']>;
    call(call: S['inbound_call']): Promise<S['call_result']>;
  };
  faults: {
    add(rule: FaultRequest): Promise<FaultHandle>;
    list(): Promise<S['fault'][]>;
  };
  deliveries: {
    list(kind?: S['delivery']['kind']): Promise<S['delivery'][]>;
    /**
     * The first delivery that holds the filter, waiting for one up to `timeout` ms (5,000 by default);
     * the filter is checked by the server as a verify's pattern is (an empty or impossible one is refused).
     */
    waitFor(filter: DeliveryFilter, opts?: { timeout?: number }): Promise<S['delivery']>;
    /** Throws a VerificationError naming the nearest misses when the count does not hold. */
    verify(pattern: DeliveryPattern): Promise<S['verified']>;
    /** The listeners (`dipswitch listen`, docs/hosted.md) connected now. */
    listeners(): Promise<S['listener'][]>;
  };
  requests: {
    list(query?: JournalQuery): Promise<S['journal_page']>;
    /** Throws a VerificationError naming the nearest misses when the count does not hold. */
    verify(pattern: CallPattern): Promise<S['verified']>;
  };
  snapshots: {
    save(name: string): Promise<void>;
    restore(name: string): Promise<void>;
    list(): Promise<{ name: string; bytes: number }[]>;
  };
  /** The coverage of the client's account (with a key), of a run's sandboxes, of one account, or of every account. */
  coverage(query?: CoverageQuery): Promise<S['coverage']>;
  /**
   * This client's account back to how it began (with a key); without one, the fixture accounts, the
   * sandboxes others hold kept (`removeSandboxes: true` removes them too).
   */
  reset(opts?: { removeSandboxes?: boolean }): Promise<S['reset_result']>;
  /**
   * A fresh sandbox, and a client that acts on it alone; made for `opts.run` (by default the
   * environment's `DIPSWITCH_RUN`), so a run's coverage is one query.
   */
  sandbox(name?: string, opts?: { run?: string }): Promise<SandboxClient>;
}

export interface SandboxClient extends ControlClient, Readonly<S['sandbox']> {
  /** Removes the sandbox and everything it owns. */
  remove(): Promise<void>;
}

/** The failed verification as a test failure: the expectation, the nearest miss field by field, as a diff. */
function verificationFailure(error: ControlError, of: 'calls' | 'deliveries' = 'calls'): VerificationError {
  const body = error.body as {
    errors?: { detail: string }[];
    near_misses?: NearMiss[];
    near_misses_left_out?: number;
    notes?: string[];
    count?: number;
    expected?: string;
  };
  const misses = body.near_misses ?? [];
  const notes = body.notes ?? [];
  const nearest = misses[0];
  const lines = [body.errors?.[0]?.detail ?? 'The verification failed.', ...notes.map((n) => `  ${n}`)];
  for (const m of misses) {
    lines.push(`  near miss: ${m.summary}`);
    for (const d of m.differences)
      lines.push(`    ${d.field}: expected ${JSON.stringify(d.expected)}, got ${JSON.stringify(d.actual)}`);
  }
  if (body.near_misses_left_out) lines.push(`  … and ${body.near_misses_left_out} further from it, left out`);
  if (!misses.length && !notes.length) lines.push(`  no ${of === 'deliveries' ? 'delivery' : 'call'} came near it`);
  const side = (pick: 'expected' | 'actual') =>
    Object.fromEntries((nearest?.differences ?? []).map((d) => [d.field, d[pick]]));
  return new VerificationError(
    { message: lines.join('\n'), expected: side('expected'), actual: side('actual'), operator: 'verify' },
    { count: body.count ?? 0, expectedCount: body.expected ?? '', nearMisses: misses },
  );
}

/** Calls one operation of the control API by its id, as the contract says, with the client's key and token. */
type Invoke = <K extends SimOperationId>(
  id: K,
  args?: { params?: Record<string, string>; query?: Record<string, unknown>; body?: JsonBody<operations[K]> },
) => Promise<Ok<operations[K]>>;

function invoker(url: string, opts: ConnectOptions): Invoke {
  const contract = loadContract('sim');
  const headers: Record<string, string> = {};
  if (opts.key) headers.authorization = `Bearer ${opts.key}`;
  if (opts.adminToken) headers['x-sim-admin-token'] = opts.adminToken;
  return async <K extends SimOperationId>(id: K, args: Parameters<Invoke>[1] = {}): Promise<Ok<operations[K]>> => {
    const op = contract.operations.get(id);
    if (!op) throw new Error(`the control API has no operation ${id}`);
    const path = op.path.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(args.params?.[name] ?? ''));
    const target = new URL(path, url);
    for (const [k, v] of Object.entries(args.query ?? {})) if (v !== undefined) target.searchParams.set(k, String(v));
    const res = await fetch(target, {
      method: op.method,
      headers: args.body === undefined ? headers : { ...headers, 'content-type': 'application/json' },
      body: args.body === undefined ? undefined : JSON.stringify(args.body),
    });
    const text = await res.text();
    const parsed = text ? (JSON.parse(text) as unknown) : undefined;
    if (res.status >= 300) throw new ControlError(res.status, (parsed ?? {}) as ControlError['body'], id);
    // the server answers as its contract says (the test suite checks every answer against it)
    return parsed as Ok<operations[K]>;
  };
}

/** A call whose failed verification becomes a test's failure (verificationFailure). */
async function verifying<T>(call: () => Promise<T>, of: 'calls' | 'deliveries' = 'calls'): Promise<T> {
  try {
    return await call();
  } catch (e) {
    if (e instanceof ControlError && e.body.errors?.[0]?.code === 'verification_failed')
      throw verificationFailure(e, of);
    throw e;
  }
}

/** The deliveries of the account; `waitFor` reads time from `wall` (src/deps.ts's wall clock). */
function deliveriesOf(invoke: Invoke, wall: () => number): ControlClient['deliveries'] {
  const list = async (kind?: S['delivery']['kind']) =>
    (await invoke('simDeliveries', { query: { kind } })).deliveries as S['delivery'][];
  return {
    list,
    async waitFor(filter, opts = {}) {
      const timeout = opts.timeout ?? 5_000;
      const until = wall() + timeout;
      for (;;) {
        // the server's own check and match: a pattern it refuses is thrown at once, not waited on
        try {
          const { matches } = await invoke('simVerifyDeliveries', { body: { match: filter, count: { at_least: 1 } } });
          const oldest = matches[matches.length - 1];
          const found = (await list(filter.kind)).find((d) => d.id === oldest);
          if (found) return found;
        } catch (e) {
          if (!(e instanceof ControlError && e.body.errors?.[0]?.code === 'verification_failed')) throw e;
          if (wall() > until) {
            const failure = verificationFailure(e, 'deliveries');
            failure.message = `No delivery holding ${JSON.stringify(filter)} came within ${timeout} ms.\n${failure.message}`;
            throw failure;
          }
        }
        await new Promise((r) => setTimeout(r, 50));
      }
    },
    verify: (pattern) => verifying(() => invoke('simVerifyDeliveries', { body: pattern }), 'deliveries'),
    listeners: async () => (await invoke('simListeners')).listeners as S['listener'][],
  };
}

function faultsOf(invoke: Invoke): ControlClient['faults'] {
  const list = async () => (await invoke('simListFaults')).faults as S['fault'][];
  return {
    list,
    async add(rule) {
      const made = await invoke('simAddFault', { body: rule });
      return {
        rule: made,
        fired: async () => (await list()).find((r) => r.id === made.id)?.fired ?? made.fired,
        remove: async () => void (await invoke('simDeleteFault', { params: { id: made.id } })),
      };
    },
  };
}

/**
 * A client of the control API at `url`, else `DIPSWITCH_URL`, acting with `opts`'s key and token (the token
 * given, else `DIPSWITCH_ADMIN_TOKEN`): the settings every client of dipswitch reads, in that order.
 */
export function connectDipswitch(url?: string, opts: ConnectOptions = {}): ControlClient {
  const at = url || process.env.DIPSWITCH_URL;
  if (!at) throw new Error('dipswitch: no server to connect to: give its URL or set DIPSWITCH_URL');
  return clientAt(at, { ...opts, adminToken: opts.adminToken ?? (process.env.DIPSWITCH_ADMIN_TOKEN || undefined) });
}

/** A client of the control API at `url`, acting with `opts`'s key and token alone. */
export function clientAt(url: string, opts: ConnectOptions = {}): ControlClient {
  const invoke = invoker(url, opts);
  return {
    url,
    clock: {
      get: () => invoke('simClock'),
      now: async () => (await invoke('simClock')).now,
      advance: (by) => invoke('simAdvance', { body: { by } }),
      advanceTo: (time) => invoke('simAdvance', { body: { to: new Date(time).toISOString() } }),
      next: (within) => invoke('simAdvance', { body: { next: true, ...(within ? { within } : {}) } }),
      freeze: async () => void (await invoke('simFreeze')),
      resume: async () => void (await invoke('simResume')),
    },
    inbound: {
      sms: (message) => invoke('simInboundSms', { body: message }),
      mms: (message) => invoke('simInboundMms', { body: message }),
      call: (call) => invoke('simInboundCall', { body: call }),
    },
    faults: faultsOf(invoke),
    deliveries: deliveriesOf(invoke, wallClock),
    requests: {
      list: (query) => invoke('simRequests', { query }),
      verify: (pattern) => verifying(() => invoke('simVerifyRequests', { body: pattern })),
    },
    snapshots: {
      save: async (name) => void (await invoke('simSaveSnapshot', { body: { name } })),
      restore: async (name) => void (await invoke('simRestoreSnapshot', { params: { name } })),
      list: async () => (await invoke('simListSnapshots')).snapshots as { name: string; bytes: number }[],
    },
    coverage: (query = {}) => invoke('simCoverage', { query: { run: query.run, account_id: query.accountId } }),
    reset: (resetOpts = {}) =>
      invoke('simReset', { body: resetOpts.removeSandboxes ? { remove_sandboxes: true } : {} }),
    async sandbox(name, boxOpts = {}) {
      const run = boxOpts.run ?? runOfEnvironment();
      const made = await invoke('simCreateSandbox', {
        body: { ...(name === undefined ? {} : { name }), ...(run === undefined ? {} : { run }) },
      });
      const box = clientAt(url, { key: made.keys.admin, adminToken: opts.adminToken });
      return {
        ...box,
        ...made,
        remove: async () => void (await invoke('simDeleteAccount', { params: { id: made.id } })),
      };
    },
  };
}
