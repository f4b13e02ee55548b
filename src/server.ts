/**
 * The composition of a dipswitch, in one place: the store, the clocks, the nondeterminism of
 * src/deps.ts, the scheduler and its delivery worker, faults, the journal, snapshots, and the app
 * built on them. main.ts, the library API and the tests all start a server through `buildServer`.
 */
import { servedValued } from './changes/served.js';
import { createServer, type Server } from 'node:http';
import { createApp, type App, type AppOptions } from './http/app.js';
import { serverClasses } from './http/classes.js';
import { handlers } from './api/index.js';
import { simHandlers } from './control/index.js';
import { DEFAULT_LIMITS, type Limits } from './limits.js';
import {
  consoleLogger,
  instanceName,
  makeIds,
  seededRandom,
  silentLogger,
  systemRandom,
  wallClock,
  type Logger,
  type Random,
} from './deps.js';
import { Clocks } from './engine/clock.js';
import { DeliveryWorker } from './engine/deliveries.js';
import { Listeners } from './engine/listeners.js';
import { admits } from './handling/principal.js';
import { classify, OutboundPolicy, type Deniable } from './engine/transport/outbound.js';
import { Faults } from './engine/faults.js';
import { Journal } from './harness/journal.js';
import { Coverage } from './harness/coverage.js';
import { openStore, sideStores } from './backends.js';
import { Metrics } from './observability/metrics.js';
import { openTracing } from './observability/tracing.js';
import { packageVersion } from './contract.js';
import { Snapshots } from './harness/sandboxes.js';
import { ScenarioCatalog } from './testing/scenario_runner.js';
import type { Fired } from './engine/schedule.js';
import { Claims } from './engine/claims.js';
import { Scheduler } from './engine/scheduler.js';
import { WorkRunner, type Units } from './engine/work.js';
import { SmppServer } from './smpp/server.js';
import type { SmppHooks } from './engine/transport/smpp_hooks.js';
import { SmppBinds, type Bound } from './engine/transport/smpp_binds.js';
import { smppHooks } from './simulation/smpp.js';
import { runners } from './simulation/simulation.js';
import { settleDelivery } from './simulation/bulk_dips.js';
import { providerEffects } from './simulation/outbound.js';
import { fixtureState } from './store/fixtures.js';
import type { MessageIdForm } from './domain/smpp_addresses.js';
import type { JsonStoreOptions } from './store/embedded/json_store.js';
import type { PgStore } from './store/postgres/store.js';
import type { Store } from './store/store.js';
import type { ClockMode } from './domain/rows.js';
import type { DbData } from './store/schema.js';

export type { Runtime } from './runtime.js';
import type { Runtime } from './runtime.js';
import { lostWith } from './domain/side_paths.js';
import { resets } from './harness/resets.js';

export interface ServerOptions extends AppOptions {
  /** The embedded store (a file, or memory), or PostgreSQL (`{ postgres: url }`). */
  store: JsonStoreOptions | { postgres: string };
  /** A seed makes ids and secrets repeatable (tests); without one they come from the OS. */
  seed?: number;
  clockMode?: ClockMode;
  startTime?: Date;
  logger?: Logger;
  /** Host names (or `*.suffix` patterns) deliveries may reach; all when empty or absent. */
  outboundAllow?: string[];
  /** Address classes refused besides unspecified, link-local, metadata and multicast (src/engine/transport/outbound.ts). */
  outboundDeny?: Deniable[];
  /** The state an empty store (and a reset) starts from; fixtures/default.json by default. */
  fixtures?: () => DbData;
  /** Bounds on what callers can make the server hold (src/limits.ts); the defaults for those not given. */
  limits?: Partial<Limits>;
  /** Folders of the user's scenarios (`--scenarios DIR`), besides the built-in ones. */
  scenarioDirs?: string[];
  /** The form of SMPP message ids (`--smpp-message-ids`): ULIDs by default. */
  smppMessageIds?: MessageIdForm;
}

/** Keeps each lifecycle step the clock ran in the journal (`api=step`: the dashboard's timeline reads them). */
function journalStep(journal: Journal, logger: Logger) {
  return (accountId: string, fired: Fired): Promise<void> =>
    journal
      .record({
        api: 'step',
        at: fired.at,
        method: fired.kind,
        path: fired.ref,
        account_id: accountId,
        status: 200,
        responseText: JSON.stringify(fired.what),
      })
      .then(
        () => undefined,
        (e: Error) => logger.warn(`journal: ${e.message}`),
      );
}

/** The metrics of a server, their gauges read from its parts when scraped. */
function serverMetrics(parts: {
  store: Store;
  units: Units;
  journal: Journal;
  binds: { total(): number };
  /** The accounts whose earliest step is due and has not run (the scheduler's own count, asked when scraped). */
  due: () => number;
}): Metrics {
  const { store, units, journal } = parts;
  return new Metrics({
    journalBytes: () => journal.bytes(),
    sandboxes: () => units.run({ read: true }, async (w) => (await w.accounts.sandboxes()).length),
    storeBytes: async () => store.size?.(),
    smppBinds: () => parts.binds.total(),
    steps: async () => ({
      pending: await units.run({ read: true }, (w) => w.steps.waiting()),
      due: parts.due(),
    }),
  });
}

/** What the engine keeps beside the store: fault rules, the journal, snapshots and coverage, over their side stores. */
function shared(pg: PgStore | undefined, store: Store, units: Units, random: Random, limits: Limits, logger: Logger) {
  const { rules, log, snapshots, tallies } = sideStores(pg, limits);
  const faults = new Faults(random, rules);
  const journal = new Journal(log, store.peers, (m) => logger.warn(m), wallClock);
  return {
    faults,
    journal,
    snapshots: new Snapshots({ count: limits.snapshots, bytes: limits.snapshotBytes }, snapshots),
    coverage: new Coverage({ units, journal, faults, kept: tallies, valued: servedValued }),
  };
}

/** What a bind does to the account; a message waiting on another instance is sent here when this one has a bind. */
function wireSmpp(parts: {
  store: Store;
  clocks: Clocks;
  faults: Faults;
  journal: Journal;
  runner: WorkRunner;
  deliveries: DeliveryWorker;
  binds: SmppBinds;
  logger: Logger;
  metrics: Metrics;
  messageIds?: MessageIdForm;
}): SmppHooks {
  const { store, deliveries, binds, runner } = parts;
  store.peers?.hear('smpp', (keyId) => {
    if (binds.count(keyId))
      void deliveries
        .wake(keyId)
        .catch(
          lostWith(
            (m) => parts.logger.warn(m),
            `sending the messages waiting for SMPP key ${keyId} (they go at its next bind)`,
          ),
        );
  });
  const hooks = smppHooks({
    ...parts,
    units: runner,
    messageIds: parts.messageIds,
    work: (accountId, fn) => runner.work(accountId, fn),
    wake: (keyId) => deliveries.wake(keyId),
  });
  // every PDU exchanged is counted as it is journaled
  return {
    ...hooks,
    journal: (exchange) => {
      parts.metrics.pdu(exchange.request.command, exchange.response?.command_status ?? null);
      hooks.journal(exchange);
    },
  };
}

/** The listeners (`dipswitch listen`); an attempt another instance hands over is made by this one's worker. */
function listenersOf(instance: string, store: Store, deliveries: () => DeliveryWorker, logger: Logger): Listeners {
  // ids of their own, from the system's randomness: a seeded server's records get the same ids with listeners or without
  const ids = makeIds(systemRandom(), wallClock);
  return new Listeners({
    instance,
    peers: store.peers,
    id: () => ids.ulid(),
    wall: wallClock,
    warn: (what) => logger.warn(what),
    admits: (authorization) => admits((key) => store.caller(key), authorization),
    request: (accountId, deliveryId) => deliveries().listened(accountId, deliveryId),
  });
}

/** What a bind closed for a full window of deliver_sm it never answered says in the log. */
const stalledBind = (logger: Logger) => (bind: Bound) =>
  logger.warn(
    `SMPP bind of system id ${bind.systemId} closed: it left ${bind.outstanding} deliver_sm unanswered past their time limit (it neither reads nor answers); its messages wait for another bind`,
  );

/** A timer of the scheduler's: it never keeps the process alive by itself. */
function unrefTimer(fn: () => void, ms: number): { cancel(): void } {
  const t = setTimeout(fn, ms);
  t.unref();
  return { cancel: () => clearTimeout(t) };
}

/** The defaults, with the limits the options give. */
function limitsOf(opts: ServerOptions): Limits {
  const given = Object.entries(opts.limits ?? {}).filter(([, v]) => v !== undefined);
  return { ...DEFAULT_LIMITS, ...Object.fromEntries(given) };
}

export async function createRuntime(opts: ServerOptions): Promise<Runtime> {
  const logger = opts.logger ?? consoleLogger;
  const limits = limitsOf(opts);
  const instance = instanceName();
  const tracing = await openTracing(process.env, packageVersion);
  const { pg, store } = await openStore(opts.store, logger, instance, limits);
  const fixtures = opts.fixtures ?? (() => fixtureState());
  const random = opts.seed === undefined ? systemRandom() : seededRandom(opts.seed);
  const startMs = opts.startTime?.getTime() ?? wallClock();
  const clocks = new Clocks(wallClock, { mode: opts.clockMode ?? 'real', startMs });
  const ids = makeIds(random, () => clocks.server().ms());
  const claims = new Claims({ instance, shared: !!store.peers, wall: wallClock });
  // the one runner of every unit of work; its outbox sends the provider's events and CDRs
  const effects = providerEffects;
  const runner = new WorkRunner({ store, clocks, ids, random, effects, claims, tracing });
  if (store.created) await runner.run({ global: true }, (w) => w.replaceAll(fixtures()));
  const { faults, journal, snapshots, coverage } = shared(pg, store, runner, random, limits, logger);
  // the binds journal their deliver_sm through the hooks, made below (they wake the worker)
  const binds = new SmppBinds((exchange) => hooks.journal(exchange), stalledBind(logger));
  const metrics = serverMetrics({ store, units: runner, journal, binds, due: () => scheduler.dueNow() });
  const listeners: Listeners = listenersOf(instance, store, () => deliveries, logger);
  const deliveries = new DeliveryWorker({
    ...{ metrics, tracing },
    smpp: binds,
    listeners,
    settled: settleDelivery,
    units: runner,
    clocks,
    faults,
    policy: new OutboundPolicy({ allow: opts.outboundAllow, deny: opts.outboundDeny }),
    logger,
  });
  const scheduler = new Scheduler({
    store,
    clocks,
    logger,
    deliveries,
    runners,
    ...{ runner, claims, tracing },
    ran: journalStep(journal, logger),
    wall: wallClock,
    setTimer: unrefTimer,
  });
  const hooks = wireSmpp({
    store,
    clocks,
    faults,
    journal,
    runner,
    deliveries,
    binds,
    logger,
    metrics,
    messageIds: opts.smppMessageIds,
  });
  const runtime: Runtime = {
    metrics,
    smpp: { binds, hooks },
    store,
    clocks,
    ids,
    ...{ random, logger, faults, journal, coverage, deliveries, listeners, scheduler, snapshots, fixtures, limits },
    tracing,
    scenarios: new ScenarioCatalog(opts.scenarioDirs),
    streams: new Set(),
    runner,
    ...resets({ units: runner, fixtures, faults, journal, coverage, clocks, scheduler, ids, random }),
    async close() {
      listeners.close();
      for (const end of [...runtime.streams]) end();
      await runtime.smpp.server?.close();
      scheduler.stop();
      await store.close();
      await tracing.shutdown();
    },
  };
  // the timer is set before the first call is served (nothing of the start runs during a call)
  await scheduler.start();
  return runtime;
}

/**
 * Whether the control API may be served on `host`: on a loopback address always; elsewhere only
 * with an admin token, or with `unsafeOpenControl` (then with a warning).
 */
export function controlExposure(
  host: string,
  adminToken: string | undefined,
  unsafeOpenControl: boolean,
): { refuse?: string; warn?: string } {
  const loopback = host === 'localhost' || classify(host) === 'loopback';
  if (loopback || adminToken) return {};
  if (unsafeOpenControl)
    return { warn: `the control API /__sim is open to anyone who reaches ${host} (--unsafe-open-control)` };
  return {
    refuse: `--host ${host} is not a loopback address: set --admin-token (or SIM_ADMIN_TOKEN) to guard /__sim, or pass --unsafe-open-control`,
  };
}

/** A throwaway dipswitch's settings: in memory, the same ids every run, its clock frozen at one start, silent. */
export const scratchOptions = (): ServerOptions => ({
  store: { memory: true },
  seed: 1,
  clockMode: 'frozen',
  startTime: new Date('2026-03-01T12:00:00.000Z'),
  logger: silentLogger,
});

export async function buildServer(opts: ServerOptions): Promise<{ app: App; runtime: Runtime }> {
  const runtime = await createRuntime(opts);
  const app = await createApp(runtime, { api: handlers, sim: simHandlers }, opts);
  return { app, runtime };
}

/**
 * Listens and resolves with the bound server. Slow clients are cut off: headers must arrive within
 * `headersTimeoutMs` and the whole request within `requestTimeoutMs`; connections past
 * `connections` are closed as they arrive.
 */
export function listen(
  app: App,
  port: number,
  host: string,
  limits: Pick<Limits, 'headersTimeoutMs' | 'requestTimeoutMs' | 'connections'> = DEFAULT_LIMITS,
): Promise<Server> {
  const server = createServer(
    {
      headersTimeout: limits.headersTimeoutMs,
      requestTimeout: limits.requestTimeoutMs,
      // how often Node looks for connections past those times
      connectionsCheckingInterval: Math.max(50, Math.min(1_000, limits.headersTimeoutMs / 4)),
      ...serverClasses(app),
    },
    app,
  );
  server.maxConnections = limits.connections;
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve(server);
    });
  });
}

/** The SMPP server of the runtime, listening on `port` (0: any free one) of `host`; closed with the runtime. */
export async function listenSmpp(runtime: Runtime, port: number, host: string): Promise<{ port: number }> {
  const server = new SmppServer(
    runtime.smpp.binds,
    runtime.smpp.hooks,
    {
      unbound: runtime.limits.smppUnbound,
      bindTimeoutMs: runtime.limits.smppBindTimeoutMs,
      bindsPerKey: runtime.limits.smppBindsPerKey,
      enquireLinkMs: runtime.limits.smppEnquireLinkMs,
    },
    (message) => runtime.logger.warn(message),
    runtime.tracing,
  );
  const address = await server.listen(port, host);
  runtime.smpp.server = server;
  return { port: address.port };
}
