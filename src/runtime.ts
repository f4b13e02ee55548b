/**
 * What a running dipswitch is made of, as the pipeline and the control API see it. The one
 * composition that builds it is `createRuntime` in src/server.ts.
 */
import type { Ids, Logger, Random } from './deps.js';
import type { Limits } from './limits.js';
import type { Clocks } from './engine/clock.js';
import type { DeliveryWorker } from './engine/deliveries.js';
import type { Listeners } from './engine/listeners.js';
import type { Faults } from './engine/faults.js';
import type { Metrics } from './observability/metrics.js';
import type { Tracing } from './observability/tracing.js';
import type { Journal } from './harness/journal.js';
import type { Coverage } from './harness/coverage.js';
import type { Snapshots } from './harness/sandboxes.js';
import type { components } from './generated/sim.js';
import type { Scheduler } from './engine/scheduler.js';
import type { WorkRunner } from './engine/work.js';
import type { SmppHooks } from './engine/transport/smpp_hooks.js';
import type { SmppBinds } from './engine/transport/smpp_binds.js';
import type { DbData } from './store/schema.js';
import type { Store } from './store/store.js';

/** A call of a server by path (its query in it) and fetch's options, answered as fetch answers (src/http/inject.ts). */
export type Fetcher = (path: string, init?: RequestInit) => Promise<Response>;

/**
 * The scenarios a server lists and runs (`GET /__sim/scenarios`, `POST /__sim/scenarios/{name}`):
 * src/testing/scenario_runner.ts's ScenarioCatalog, made by the composition root.
 */
export interface ScenarioCatalog {
  catalog(): Promise<{ scenarios: ReadonlyMap<string, { scenario: { title: string } }>; problems: string[] }>;
  /**
   * Runs one against a server: at a base URL (with the admin token it requires), or its core in the
   * process (`{ request }`, the server's own authority already in it).
   */
  run(
    target: string | { request: Fetcher },
    name: string,
    adminToken?: string,
  ): Promise<components['schemas']['scenario_result']>;
}

/** Everything a running dipswitch is made of. */
export interface Runtime {
  store: Store;
  /** The server's metrics (`GET /__sim/metrics`). */
  metrics: Metrics;
  /** Traces, when the `OTEL_*` variables ask for them (docs/observability.md); else NO_TRACES. */
  tracing: Tracing;
  clocks: Clocks;
  ids: Ids;
  random: Random;
  logger: Logger;
  faults: Faults;
  journal: Journal;
  /** Coverage of the contract, kept past the accounts that made it (`GET /__sim/coverage`). */
  coverage: Coverage;
  deliveries: DeliveryWorker;
  /** The listeners of accounts' deliveries (`dipswitch listen`) connected here, and those other instances told of. */
  listeners: Listeners;
  /** SMPP: the binds of this process, what a bind does to the account, and the server (src/smpp/) once listening. */
  smpp: { binds: SmppBinds; hooks: SmppHooks; server?: { close(): Promise<void> } };
  scheduler: Scheduler;
  snapshots: Snapshots;
  fixtures: () => DbData;
  limits: Limits;
  /** The live answers open now (journal streams), each as the function that ends it: `close` ends them all. */
  streams: Set<() => void>;
  /** The scenarios `POST /__sim/scenarios/{name}` runs: the built-in ones and the user's folders. */
  scenarios: ScenarioCatalog;
  /** The one runner of units of work: `work` for an account's, `run` for whole-state work and reads. */
  runner: WorkRunner;
  /**
   * The whole server back to the fixtures: state, clocks, schedule, delivery log, faults and
   * journal; every sandbox kept as it is with everything of its own (`keepSandboxes: false`: removed).
   */
  reset(opts?: { keepSandboxes?: boolean }): Promise<void>;
  /**
   * One account back to how it began (a sandbox as made, with its keys and numbers; a fixture
   * account as the fixtures give it), its fault rules and journal entries dropped; false when there is no such account.
   */
  resetAccount(accountId: string): Promise<boolean>;
  /** Removes an account, everything it owns, its fault rules and journal entries; false when there is no such account. */
  removeAccount(accountId: string): Promise<boolean>;
  close(): Promise<void>;
}
