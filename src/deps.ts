/**
 * Every source of nondeterminism dipswitch has: wall time, randomness, identifiers.
 * Nothing else in src/ reads the clock or a random source; tests and scenarios inject their own.
 */
import { randomBytes, randomFillSync } from 'node:crypto';
import { monotonicFactory } from 'ulid';
import { v4 as uuidv4 } from 'uuid';

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

/** Where the server writes what it does; `fields` are structured context (JSON logs keep them). */
export interface Logger {
  info(message: string, fields?: Record<string, unknown>): void;
  warn(message: string, fields?: Record<string, unknown>): void;
}

/** The wall clock, read here and only here. */
export const wallClock = (): number => Date.now();

/** Elapsed time for latencies, read here and only here. */
export const elapsedMs = (since: bigint): number => Number(process.hrtime.bigint() - since) / 1e6;
export const stopwatch = (): bigint => process.hrtime.bigint();

/** sfc32: a small, fast PRNG whose whole state comes from a seed, so runs repeat exactly. */
export function seededRandom(seed: number): Random {
  let a = 0x9e3779b9;
  let b = 0x243f6a88;
  let c = 0xb7e15162;
  let d = seed >>> 0;
  const next = (): number => {
    a >>>= 0;
    b >>>= 0;
    c >>>= 0;
    d >>>= 0;
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

/** Bytes drawn from the operating system at once into the pool `systemRandom` hands out. */
const RANDOM_POOL_BYTES = 4096;

/**
 * Randomness from the operating system, for a server that people run. Drawn a pool at a time: a
 * ULID takes 16 floats, and one system call each cost a create more than its store write.
 */
export function systemRandom(): Random {
  const pool = Buffer.allocUnsafeSlow(RANDOM_POOL_BYTES);
  let used = RANDOM_POOL_BYTES;
  const take = (n: number): number => {
    if (used + n > RANDOM_POOL_BYTES) {
      randomFillSync(pool);
      used = 0;
    }
    used += n;
    return used - n;
  };
  return {
    bytes(n) {
      if (n > RANDOM_POOL_BYTES) return randomBytes(n);
      const at = take(n);
      return Buffer.from(pool.subarray(at, at + n));
    },
    float: () => pool.readUInt32BE(take(4)) / 4294967296,
  };
}

/** A name for this running instance among others over one store: unique whatever the seed. */
export const instanceName = (): string => `${process.pid}-${randomBytes(6).toString('hex')}`;

/** Identifiers drawn from `random`; ULIDs timed by `nowMs` unless given a time. */
export function makeIds(random: Random, nowMs: () => number): Ids {
  const ulid = monotonicFactory(() => random.float());
  return {
    uuid: () => uuidv4({ random: random.bytes(16) }),
    ulid: (at) => ulid(at ?? nowMs()),
  };
}

/** The same generators, ULIDs timed by another clock (an account's). */
export const idsAt = (ids: Ids, nowMs: () => number): Ids => ({
  uuid: ids.uuid,
  ulid: (at) => ids.ulid(at ?? nowMs()),
});

export const consoleLogger: Logger = {
  info: (m) => console.log(m),
  warn: (m) => console.warn(m),
};

export const silentLogger: Logger = { info: () => {}, warn: () => {} };
