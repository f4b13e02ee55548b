/**
 * What a handler of the control API may do (WireMock's `Admin`, given to each admin task): run units
 * of work through the one runner, and the few operations of each part of the simulator it drives,
 * never the runtime itself (the store, the SMPP server, the live streams, closing the server).
 */
import type { Ids, Random } from '../deps.js';
import type { Clocks } from '../engine/clock.js';
import type { Coverage } from '../harness/coverage.js';
import type { DeliveryWorker } from '../engine/deliveries.js';
import type { Faults } from '../engine/faults.js';
import type { Journal } from '../harness/journal.js';
import type { Listeners } from '../engine/listeners.js';
import type { Metrics } from '../observability/metrics.js';
import type { Snapshots } from '../harness/sandboxes.js';
import type { Scheduler } from '../engine/scheduler.js';
import type { WorkRunner } from '../engine/work.js';
import type { Limits } from '../limits.js';
import type { Runtime, ScenarioCatalog } from '../runtime.js';

export interface ControlPort {
  work: WorkRunner['work'];
  run: WorkRunner['run'];
  reset: Runtime['reset'];
  resetAccount: Runtime['resetAccount'];
  removeAccount: Runtime['removeAccount'];
  clocks: Pick<Clocks, 'of' | 'freeze' | 'resume' | 'forget'>;
  scheduler: Pick<Scheduler, 'advance' | 'runDue' | 'rearm' | 'retime'>;
  faults: Pick<Faults, 'add' | 'list' | 'remove'>;
  deliveries: Pick<DeliveryWorker, 'redeliver' | 'sendNow'>;
  journal: Pick<Journal, 'page' | 'listen'>;
  listeners: Pick<Listeners, 'open' | 'answer' | 'list'>;
  coverage: Pick<Coverage, 'of' | 'knows'>;
  snapshots: Pick<Snapshots, 'save' | 'restore' | 'list'>;
  metrics: Pick<Metrics, 'text' | 'registry' | 'queues' | 'admissionLimits'>;
  scenarios: ScenarioCatalog;
  ids: Pick<Ids, 'uuid'>;
  /** The nondeterminism a sandbox's keys and secrets draw on. */
  sources: { ids: Ids; random: Random };
  limits: Pick<Limits, 'sandboxes'>;
  logger: { warn(message: string): void };
  /** Resolves while the store answers; throws StorageUnavailable while it does not (readiness). */
  reachable(): Promise<void>;
  /** The dashboard's settings (AppOptions): where it links a trace. */
  dashboard: { traceViewer: string | null };
}

/** The port of a running simulator: each member narrowed to what the control API uses, bound to the runtime's parts. */
export function controlPort(
  runtime: Runtime,
  dashboard: ControlPort['dashboard'] = { traceViewer: null },
): ControlPort {
  const { clocks, scheduler, faults, deliveries, journal, coverage, snapshots, metrics, ids, listeners } = runtime;
  return {
    work: (accountId, fn, opts) => runtime.runner.work(accountId, fn, opts),
    run: (scope, fn) => runtime.runner.run(scope, fn),
    reset: (opts) => runtime.reset(opts),
    resetAccount: (id) => runtime.resetAccount(id),
    removeAccount: (id) => runtime.removeAccount(id),
    clocks: {
      of: (w, id) => clocks.of(w, id),
      freeze: (...a) => clocks.freeze(...a),
      resume: (...a) => clocks.resume(...a),
      forget: (id) => clocks.forget(id),
    },
    scheduler: {
      advance: (...a) => scheduler.advance(...a),
      runDue: (...a) => scheduler.runDue(...a),
      rearm: () => scheduler.rearm(),
      retime: (accountId) => scheduler.retime(accountId),
    },
    faults: {
      add: (...a) => faults.add(...a),
      list: (...a) => faults.list(...a),
      remove: (...a) => faults.remove(...a),
    },
    deliveries: {
      redeliver: (...a) => deliveries.redeliver(...a),
      sendNow: (...a) => deliveries.sendNow(...a),
    },
    journal: { page: (...a) => journal.page(...a), listen: (...a) => journal.listen(...a) },
    listeners: {
      open: (...a) => listeners.open(...a),
      answer: (...a) => listeners.answer(...a),
      list: (...a) => listeners.list(...a),
    },
    coverage: { of: (...a) => coverage.of(...a), knows: (...a) => coverage.knows(...a) },
    snapshots: {
      save: (...a) => snapshots.save(...a),
      restore: (...a) => snapshots.restore(...a),
      list: (...a) => snapshots.list(...a),
    },
    metrics: {
      text: () => metrics.text(),
      registry: metrics.registry,
      queues: () => metrics.queues(),
      admissionLimits: () => metrics.admissionLimits(),
    },
    scenarios: runtime.scenarios,
    ids: { uuid: () => ids.uuid() },
    sources: { ids, random: runtime.random },
    limits: { sandboxes: runtime.limits.sandboxes },
    logger: { warn: (m) => runtime.logger.warn(m) },
    reachable: async () => runtime.store.reachable?.(),
    dashboard,
  };
}
