/**
 * dipswitch as a library, for a client team's own test suite:
 * `const sim = await startDipswitch()` serves the API on a free loopback port with an in-memory store.
 */
import type { AddressInfo } from 'node:net';
import { silentLogger, type Logger } from './deps.js';
import type { Sandbox } from './engine/sandboxes.js';
import type { Fired } from './engine/schedule.js';
import { newSandbox } from './control/accounts.js';
import { setFrozen } from './control/clock.js';
import { DEMO_ACCOUNT, FIXTURE_KEYS } from './store/fixtures.js';
import { addDuration } from './engine/duration.js';
import { buildServer, listen, listenSmpp } from './server.js';

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

/** One account's clock, driven as `POST /__sim/clock/...` would. */
export interface ClockControl {
  /** The clock's time, ISO 8601. */
  now(): Promise<string>;
  /** By an ISO 8601 duration (`PT10M`), running every step that falls due. */
  advance(by: string): Promise<{ now: string; fired: Fired[] }>;
  advanceTo(time: Date | string): Promise<{ now: string; fired: Fired[] }>;
  /** To the next scheduled step. */
  next(): Promise<{ now: string; fired: Fired[] }>;
  freeze(): Promise<void>;
  resume(): Promise<void>;
}

export interface SandboxHandle extends Sandbox {
  clock: ClockControl;
  /**
   * This sandbox alone back to how it was made (the same keys and numbers), its clock, schedule,
   * deliveries, fault rules and journal entries cleared; every other account goes on untouched.
   */
  reset(): Promise<void>;
}

export interface Dipswitch {
  /** The base URL, e.g. `http://127.0.0.1:53211`; the API is under `/api/v1`. */
  url: string;
  /** The SMPP server's port on 127.0.0.1 (binds with an API key's smpp_system_id and SMPP secret); null when off. */
  smppPort: number | null;
  /** The fixture keys (interface.md section 3). */
  keys: { admin: string; operator: string; readonly: string; standard: string; partner: string };
  /** The Demo account's clock. */
  clock: ClockControl;
  /** A fresh isolated account with its own keys, numbers and clock. */
  sandbox(name?: string): Promise<SandboxHandle>;
  /**
   * The accounts of the fixtures back to how they began, with every fault rule and journal entry
   * that is not a sandbox's; the sandboxes other callers hold go on untouched (`removeSandboxes`:
   * removed too, the whole server back to the fixtures).
   */
  reset(opts?: { removeSandboxes?: boolean }): Promise<void>;
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
  const { store, clocks, scheduler } = runtime;
  const server = await listen(app, opts.port ?? 0, '127.0.0.1', runtime.limits);
  const smpp = opts.smppPort === false ? null : await listenSmpp(runtime, opts.smppPort ?? 0, '127.0.0.1');
  const nowOf = async (accountId: string) => (await store.run({ read: true }, (w) => clocks.of(w, accountId))).ms();
  const clockOf = (accountId: string): ClockControl => ({
    now: async () => new Date(await nowOf(accountId)).toISOString(),
    advance: async (by) => {
      const to = addDuration(await nowOf(accountId), by);
      if (typeof to === 'string') throw new Error(to);
      return scheduler.advance(accountId, to);
    },
    advanceTo: (time) => scheduler.advance(accountId, new Date(time).getTime()),
    next: () => scheduler.advance(accountId, { next: true }),
    freeze: () => setFrozen(runtime, accountId, true),
    resume: () => setFrozen(runtime, accountId, false),
  });
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    smppPort: smpp?.port ?? null,
    keys: { ...FIXTURE_KEYS },
    clock: clockOf(DEMO_ACCOUNT),
    async sandbox(name) {
      const box = await newSandbox(runtime, name);
      return {
        ...box,
        clock: clockOf(box.id),
        reset: async () => {
          await runtime.resetAccount(box.id);
        },
      };
    },
    reset: (resetOpts) => runtime.reset({ keepSandboxes: !resetOpts?.removeSandboxes }),
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await runtime.close();
    },
  };
}

export type { Sandbox } from './engine/sandboxes.js';
export { scenario, type Answer, type Scenario, type ScenarioContext } from './testing/scenario.js';
