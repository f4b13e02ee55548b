/**
 * The composition of a dipswitch, in one place: the store, the clocks, the nondeterminism of
 * src/deps.ts, the scheduler and its delivery worker, faults, the journal, snapshots, and the app
 * built on them. main.ts, the library API and the tests all start a server through `buildServer`.
 */
import type { Server } from 'node:http';
import { createApp, type App, type AppOptions } from './app.js';
import { consoleLogger, makeIds, seededRandom, systemRandom, wallClock, type Logger } from './deps.js';
import { Clocks } from './sim/clock.js';
import { DeliveryWorker, type OutboundPolicy } from './sim/deliveries.js';
import { Faults } from './sim/faults.js';
import { Journal } from './sim/journal.js';
import { Snapshots } from './sim/sandboxes.js';
import { Scheduler } from './sim/scheduler.js';
import { runners } from './sim/simulation.js';
import { makeWork } from './sim/work.js';
import { fixtureState } from './store/fixtures.js';
import { JsonStore, type JsonStoreOptions } from './store/json_store.js';
import type { ClockMode, DbData } from './store/rows.js';

export type { Runtime } from './runtime.js';
import type { Runtime } from './runtime.js';

export interface ServerOptions extends AppOptions {
  store: JsonStoreOptions;
  /** A seed makes ids and secrets repeatable (tests); without one they come from the OS. */
  seed?: number;
  clockMode?: ClockMode;
  startTime?: Date;
  logger?: Logger;
  /** Host names (or `*.suffix` patterns) deliveries may reach; all when empty or absent. */
  outboundAllow?: string[];
  /** The state an empty store (and a reset) starts from; fixtures/default.json by default. */
  fixtures?: () => DbData;
}

/** Hosts a delivery may reach (`--outbound-allow`): all when the list is empty. */
export function allowListPolicy(allow: string[]): OutboundPolicy {
  return {
    refusal(url) {
      if (!allow.length) return null;
      let host: string;
      try {
        host = new URL(url.includes('://') ? url : `sftp://${url}`).hostname.replace(/^\[|\]$/g, '');
      } catch {
        return 'the target is not a URL';
      }
      return allow.some((a) => (a.startsWith('*.') ? host.endsWith(a.slice(1)) : host === a))
        ? null
        : 'the host is not in --outbound-allow';
    },
  };
}

export async function createRuntime(opts: ServerOptions): Promise<Runtime> {
  const logger = opts.logger ?? consoleLogger;
  const store = await JsonStore.open(opts.store, logger);
  const fixtures = opts.fixtures ?? (() => fixtureState());
  if (store.created) await store.run({ global: true }, (w) => w.replaceAll(fixtures()));
  const random = opts.seed === undefined ? systemRandom() : seededRandom(opts.seed);
  const startMs = opts.startTime?.getTime() ?? wallClock();
  const clocks = new Clocks(wallClock, { mode: opts.clockMode ?? 'real', startMs });
  const ids = makeIds(random, () => clocks.server().ms());
  const faults = new Faults(random);
  const journal = new Journal();
  const deliveries = new DeliveryWorker({
    store,
    clocks,
    faults,
    policy: allowListPolicy(opts.outboundAllow ?? []),
    logger,
  });
  const scheduler = new Scheduler({
    store,
    clocks,
    ids,
    random,
    logger,
    deliveries,
    runners,
    wall: wallClock,
    setTimer: (fn, ms) => {
      const t = setTimeout(fn, ms);
      t.unref();
      return { cancel: () => clearTimeout(t) };
    },
  });
  const runtime: Runtime = {
    store,
    clocks,
    ids,
    random,
    logger,
    faults,
    journal,
    deliveries,
    scheduler,
    snapshots: new Snapshots(),
    fixtures,
    async work(accountId, fn, workOpts = {}) {
      let earliest: number | null = null;
      const result = await store.run(workOpts.read ? { read: true } : { account: accountId }, async (w) => {
        const work = makeWork({ ids, random }, w, accountId, await clocks.of(w, accountId));
        const out = await fn(work);
        earliest = work.sim.earliest;
        return out;
      });
      if (earliest !== null) scheduler.notify(accountId);
      return result;
    },
    async reset() {
      await store.run({ global: true }, (w) => w.replaceAll(fixtures()));
      clocks.forget();
      faults.clear();
      journal.clear();
      await scheduler.rearm();
    },
    async close() {
      scheduler.stop();
      await store.close();
    },
  };
  scheduler.start();
  return runtime;
}

/** Opens the store (seeding an empty one from the fixtures), starts the simulation, builds the app. */
export async function buildServer(opts: ServerOptions): Promise<{ app: App; runtime: Runtime }> {
  const runtime = await createRuntime(opts);
  const app = await createApp(runtime, opts);
  return { app, runtime };
}

/** Listens and resolves with the bound server. */
export function listen(app: App, port: number, host: string): Promise<Server> {
  return new Promise((resolve, reject) => {
    const server = app.listen(port, host, () => resolve(server));
    server.on('error', reject);
  });
}
