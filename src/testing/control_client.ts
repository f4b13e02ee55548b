/**
 * A typed client of the control API, for a client team's tests: its methods are generated from
 * contract/sim.yaml (src/generated/control.ts: one object per area, a method per operation, its body and
 * answer typed from the contract); written here are the HTTP core (each operation's method and path read
 * from the contract the package ships), its errors with the server's envelope, a sandbox's client and
 * waiting for a delivery. `connectDipswitch(url, { key, adminToken })` reaches a server started
 * elsewhere; a sandbox's client acts on that sandbox alone (its key goes with every call).
 */
import { AssertionError } from 'node:assert';
import { loadContract, type SimOperationId } from '../contract.js';
import { wallClock } from '../deps.js';
import {
  clientArea,
  memberAreas,
  sandboxArea,
  serverArea,
  type Body,
  type ClientArea,
  type DeliveriesArea,
  type HttpMethod,
  type Invoke,
  type Ok,
  type SandboxArea,
  type ServerArea,
} from '../generated/control.js';
import type { components, operations } from '../generated/sim.js';

type S = components['schemas'];

export type { HttpMethod };

/** A pattern of calls for `requests.verify`. */
export type CallPattern = Body<'simVerifyRequests'>;

/** A pattern of deliveries for `deliveries.verify`. */
export type DeliveryPattern = Body<'simVerifyDeliveries'>;

/** A fault rule as `faults.add` takes it. */
export type FaultRequest = Body<'simAddFault'>;

/** A call or delivery that came closest to a failed verification, and each field that differed. */
export type NearMiss = S['near_miss'];

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

/** The run a sandbox is made for when none is given: `DIPSWITCH_RUN` of the environment, if set. */
const runOfEnvironment = (): string | undefined => process.env.DIPSWITCH_RUN || undefined;

/** A client's areas (generated), with the one method of the delivery log written by hand: waiting. */
type Members = ReturnType<typeof memberAreas>;

/** A client of the control API: its areas, the calls of any client and of the server, and its sandboxes. */
export interface ControlClient extends ClientArea, ServerArea, Omit<Members, 'deliveries'> {
  readonly url: string;
  deliveries: DeliveriesArea & {
    /**
     * The first delivery that holds the filter, waiting for one up to `timeout` ms (5,000 by default);
     * the filter is checked by the server as a verify's pattern is (an empty or impossible one is refused).
     */
    waitFor(filter: DeliveryFilter, opts?: { timeout?: number }): Promise<S['delivery']>;
  };
  /**
   * A fresh sandbox, and a client that acts on it alone; made for `opts.run` (by default the
   * environment's `DIPSWITCH_RUN`), so a run's coverage is one query.
   */
  sandbox(name?: string, opts?: { run?: string }): Promise<SandboxClient>;
}

/** A sandbox's client: the sandbox as made, and its own calls (`remove`). */
export interface SandboxClient extends ControlClient, SandboxArea, Readonly<S['sandbox']> {}

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

/**
 * Calls one operation of the control API by its id, as the contract says, with the client's key and token:
 * a verify refused with `verification_failed` is a VerificationError, any other refusal a ControlError.
 */
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
    const json = res.headers.get('content-type')?.includes('json') ?? false;
    const parsed = text && json ? (JSON.parse(text) as unknown) : text || undefined;
    if (res.status >= 300) {
      const refused = new ControlError(res.status, (json ? parsed : {}) as ControlError['body'], id);
      if (refused.body.errors?.[0]?.code !== 'verification_failed') throw refused;
      throw verificationFailure(refused, id === 'simVerifyDeliveries' ? 'deliveries' : 'calls');
    }
    // the server answers as its contract says (the test suite checks every answer against it)
    return parsed as Ok<operations[K]>;
  };
}

/** The delivery log of the account, and waiting on it; `waitFor` reads time from `wall` (src/deps.ts's wall clock). */
function deliveriesOf(invoke: Invoke, wall: () => number): ControlClient['deliveries'] {
  const area = memberAreas(invoke).deliveries;
  return {
    ...area,
    async waitFor(filter, opts = {}) {
      const timeout = opts.timeout ?? 5_000;
      const until = wall() + timeout;
      for (;;) {
        // the server's own check and match: a pattern it refuses is thrown at once, not waited on
        try {
          const { matches } = await area.verify({ match: filter, count: { at_least: 1 } });
          const oldest = matches[matches.length - 1];
          const found = (await area.list({ kind: filter.kind })).deliveries.find((d) => d.id === oldest);
          if (found) return found;
        } catch (e) {
          if (!(e instanceof VerificationError)) throw e;
          if (wall() > until) {
            e.message = `No delivery holding ${JSON.stringify(filter)} came within ${timeout} ms.\n${e.message}`;
            throw e;
          }
        }
        await new Promise((r) => setTimeout(r, 50));
      }
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
  const client = clientArea(invoke);
  return {
    url,
    ...client,
    ...serverArea(invoke),
    ...memberAreas(invoke),
    deliveries: deliveriesOf(invoke, wallClock),
    async sandbox(name, boxOpts = {}) {
      const run = boxOpts.run ?? runOfEnvironment();
      const made = await client.createSandbox({
        ...(name === undefined ? {} : { name }),
        ...(run === undefined ? {} : { run }),
      });
      return {
        ...clientAt(url, { key: made.keys.admin, adminToken: opts.adminToken }),
        ...made,
        ...sandboxArea(invoke, made.id),
      };
    },
  };
}
