/**
 * dipswitch as a library, for a client team's own test suite:
 * `const sim = await startDipswitch()` serves the API on a free loopback port with an in-memory store
 * and answers a typed client of its control API; `connectDipswitch(url, { key, adminToken })` is the
 * same client for a server started elsewhere (the command, a container, a shared host).
 */
import type { AddressInfo } from 'node:net';
import { silentLogger, type Logger } from './deps.js';
import type { components } from './generated/sim.js';
import { FIXTURE_KEYS } from './store/fixtures.js';
import { buildServer, listen, listenSmpp } from './server.js';
import { injector } from './http/inject.js';
import { clientAt, type ControlClient, type SandboxClient } from './testing/control_client.js';

export interface StartOptions {
  /** `frozen` (the default here: tests move time themselves) or `real`. */
  clock?: 'frozen' | 'real';
  /** Where the clocks start; now by default. */
  startTime?: Date | string;
  /** Seeds ids, secrets and random choices, so runs repeat. */
  seed?: number;
  /** 0 (the default) picks a free port. */
  port?: number;
  /** The SMPP server's port (0, the default, picks a free one); false for none. */
  smppPort?: number | false;
  logger?: Logger;
}

/** An account's clock, driven as `POST /__sim/clock/...` drives it. */
export type ClockControl = ControlClient['clock'];

/** A sandbox and a client that acts on it alone (its key goes with every call). */
export type SandboxHandle = SandboxClient;

/**
 * A dipswitch of this process: the control client (acting with the control API's own authority:
 * on Demo's clock and traffic, on every account's faults, journal and deliveries), its address and
 * the fixture keys.
 */
export interface Dipswitch extends Omit<ControlClient, 'reset'> {
  /** The base URL, e.g. `http://127.0.0.1:53211`; the API is under `/api/v1`. */
  url: string;
  /** The SMPP server's port on 127.0.0.1 (binds with an API key's smpp_system_id and SMPP secret); null when off. */
  smppPort: number | null;
  /** The fixture keys (interface.md section 3). */
  keys: { admin: string; operator: string; readonly: string; standard: string; partner: string };
  /**
   * The fixture accounts back to how they began, with every fault rule and journal entry that is not a
   * sandbox's; the sandboxes other callers hold go on untouched (`remove_sandboxes`: removed too).
   */
  reset: ControlClient['reset'];
  /**
   * A call answered in the process, through the same core as one over HTTP (journaled, faulted,
   * validated, traced), no socket between: a path with its query and fetch's options in, a standard
   * Response out (`await (await sim.request('/api/v1/numbers', { headers })).json()`). A dropped call
   * (a `drop` fault) rejects, as fetch does; a live answer's body is its stream.
   */
  request(path: string, init?: RequestInit): Promise<Response>;
  /** Stops the server: its connections closed, its ports freed, its store closed once pending writes finish. */
  close(): Promise<void>;
}

export async function startDipswitch(opts: StartOptions = {}): Promise<Dipswitch> {
  const { app, runtime } = await buildServer({
    store: { memory: true },
    seed: opts.seed,
    clockMode: opts.clock ?? 'frozen',
    startTime: opts.startTime === undefined ? undefined : new Date(opts.startTime),
    logger: opts.logger ?? silentLogger,
  });
  const server = await listen(app, opts.port ?? 0, '127.0.0.1', runtime.limits);
  const smpp = opts.smppPort === false ? null : await listenSmpp(runtime, opts.smppPort ?? 0, '127.0.0.1');
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const control = clientAt(url);
  return {
    ...control,
    url,
    smppPort: smpp?.port ?? null,
    keys: { ...FIXTURE_KEYS },
    request: injector(app.core, runtime, url),
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await runtime.close();
    },
  };
}

export type { Sandbox } from './harness/sandboxes.js';
export {
  connectDipswitch,
  ControlError,
  VerificationError,
  type CallPattern,
  type ConnectOptions,
  type ControlClient,
  type DeliveryFilter,
  type DeliveryPattern,
  type FaultRequest,
  type HttpMethod,
  type NearMiss,
  type SandboxClient,
} from './testing/control_client.js';
export type { OperationId, SimOperationId } from './contract.js';
/** The schemas, operations and paths of /api/v1 (contract/openapi.yaml), for a client's own code. */
export type { components as ApiComponents, operations as ApiOperations, paths as ApiPaths } from './generated/api.js';
/** The schemas of /api/v1 by name: `ApiSchemas['did']`. */
export type ApiSchemas = import('./generated/api.js').components['schemas'];
/** The schemas of the control API by name: `SimSchemas['fault']`. */
export type SimSchemas = components['schemas'];
export { coverageGate, type CoverageGateOptions, type CoverageVerdict } from './testing/coverage_gate.js';
export { startReceiver, type Received, type Receiver, type Reply } from './testing/receiver.js';
export { verifySignature } from './testing/signature.js';
export { scenario, type Answer, type Scenario, type ScenarioContext } from './testing/scenario.js';
/** A listener of a (hosted) dipswitch's deliveries, forwarding each to a local URL (`dipswitch listen`, docs/hosted.md). */
export { listen, type Forwarded, type ListenerShape, type ListenOptions, type Listening } from './testing/listener.js';
