/**
 * Every source of nondeterminism dipswitch has: wall time, randomness, identifiers.
 * Nothing else in src/ reads the clock or a random source; tests and scenarios inject their own.
 */
import { randomBytes } from 'node:crypto';
import { monotonicFactory } from 'ulid';
import { v4 as uuidv4 } from 'uuid';
import { Clocks, SimClock, type ClockMode } from './sim/clock.js';
import { Deliveries } from './sim/deliveries.js';
import { Faults } from './sim/faults.js';
import { Journal } from './sim/journal.js';
import { Scheduler } from './sim/scheduler.js';
import type { Store } from './store/store.js';

/** Random bytes and floats; seeded (repeatable) in tests, from the OS otherwise. */
export interface Random {
  bytes(n: number): Buffer;
  float(): number;
}

/** Identifier generators in the spec's formats. */
export interface Ids {
  uuid(): string;
  /** A ULID timed `at` (ms); by default, now on the clock the ids were made for. */
  ulid(at?: number): string;
}

export interface Logger {
  info(message: string): void;
  warn(message: string): void;
}

export interface Deps {
  store: Store;
  /** Every account's clock. */
  clocks: Clocks;
  /** The clock of the account being served (see `forAccount`); the server's own otherwise. */
  clock: SimClock;
  ids: Ids;
  random: Random;
  logger: Logger;
  /** Lifecycle steps on the accounts' clocks. */
  scheduler: Scheduler;
  /** Outbound deliveries and their log. */
  deliveries: Deliveries;
  /** Injected faults, inbound and outbound. */
  faults: Faults;
  /** Every API call, secrets redacted. */
  journal: Journal;
  /** Hosts deliveries may go to (`--outbound-allow`); empty: anywhere. */
  outboundAllow: string[];
}

/** The wall clock, read here and only here. */
export const wallClock = (): number => Date.now();

/** sfc32: a small, fast PRNG whose whole state comes from a seed, so runs repeat exactly. */
export function seededRandom(seed: number): Random {
  let a = 0x9e3779b9, b = 0x243f6a88, c = 0xb7e15162, d = seed >>> 0;
  const next = (): number => {
    a >>>= 0; b >>>= 0; c >>>= 0; d >>>= 0;
    const t = (a + b) | 0;
    a = b ^ (b >>> 9);
    b = (c + (c << 3)) | 0;
    c = (c << 21) | (c >>> 11);
    d = (d + 1) | 0;
    const r = (t + d) | 0;
    c = (c + r) | 0;
    return (r >>> 0) / 4294967296;
  };
  for (let i = 0; i < 16; i++) next();
  return {
    float: next,
    bytes(n) {
      const out = Buffer.alloc(n);
      for (let i = 0; i < n; i++) out[i] = Math.floor(next() * 256);
      return out;
    },
  };
}

/** Randomness from the operating system, for a server that people run. */
export function systemRandom(): Random {
  return {
    bytes: (n) => randomBytes(n),
    float: () => randomBytes(4).readUInt32BE(0) / 4294967296,
  };
}

/** Identifiers drawn from `random`, ULIDs timed by `clock`. */
export function makeIds(random: Random, clock: SimClock): Ids {
  const ulid = monotonicFactory(() => random.float());
  return {
    uuid: () => uuidv4({ random: random.bytes(16) }),
    ulid: (at) => ulid(at ?? clock.now().getTime()),
  };
}

/** The dependencies as seen while serving one account: its clock, and ids timed by it. */
export function forAccount(deps: Deps, accountId: string): Deps {
  const clock = deps.clocks.for(accountId);
  return { ...deps, clock, ids: { uuid: deps.ids.uuid, ulid: (at) => deps.ids.ulid(at ?? clock.now().getTime()) } };
}

export const consoleLogger: Logger = {
  info: (m) => console.log(m),
  warn: (m) => console.warn(m),
};

export const silentLogger: Logger = { info: () => {}, warn: () => {} };

export interface DepsOptions {
  store: Store;
  /** A seed makes ids and secrets repeatable (tests); without one they come from the OS. */
  seed?: number;
  clockMode?: ClockMode;
  startTime?: Date;
  logger?: Logger;
  /** Host names (or `*.suffix` patterns) deliveries may reach; all when empty or absent. */
  outboundAllow?: string[];
}

/** Assembles the dependencies of one server. */
export function createDeps(opts: DepsOptions): Deps {
  const random = opts.seed === undefined ? systemRandom() : seededRandom(opts.seed);
  const clock = new SimClock(wallClock, opts.clockMode ?? 'real', opts.startTime);
  const clocks = new Clocks(wallClock, opts.clockMode ?? 'real', opts.startTime);
  return { store: opts.store, clocks, clock, random, ids: makeIds(random, clock), logger: opts.logger ?? consoleLogger, scheduler: new Scheduler(), deliveries: new Deliveries(), faults: new Faults(random), journal: new Journal(), outboundAllow: opts.outboundAllow ?? [] };
}
