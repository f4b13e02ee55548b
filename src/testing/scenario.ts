/**
 * The scenario DSL: a script calls the API over HTTP as a client would, moves the clock, sends
 * simulated traffic, starts local receivers for what the platform sends out, and states what it
 * expects. Running one answers its timeline, on the simulated clock.
 */
import { startReceiver, type Receiver } from './receiver.js';
import type { Fetcher } from '../handling/handler.js';

/* eslint-disable @typescript-eslint/no-explicit-any -- a scenario reads JSON answers by their fields, as a client would */
export interface Answer<T = any> {
  status: number;
  body: T;
}

export interface ScenarioContext {
  /** Calls the API (`/api/v1` or `/__sim`) with a key, the Demo admin's by default. */
  api<T = any>(method: string, path: string, opts?: { key?: string | null; body?: unknown }): Promise<Answer<T>>;
  /** Moves the Demo clock by an ISO 8601 duration, running what falls due. */
  advance(by: string): Promise<{ now: string; fired: { what: string }[] }>;
  sms(to: string, from: string, text: string): Promise<any>;
  call(to: string, from: string): Promise<any>;
  /* eslint-enable @typescript-eslint/no-explicit-any */
  /** A local endpoint (loopback) that records what it receives; closed when the scenario ends. */
  receiver(): Promise<Receiver>;
  /** Records an expectation; a false one fails the scenario at once. */
  expect(condition: boolean, what: string): void;
  /** Records an expectation and goes on; a false one fails the scenario once it has run to its end (a recorded replay). */
  check(condition: boolean, what: string): void;
  note(what: string): void;
}

export interface Scenario {
  name: string;
  title: string;
  run(s: ScenarioContext): Promise<void>;
}

export const scenario = (name: string, title: string, run: Scenario['run']): Scenario => ({ name, title, run });

export interface TimelineEntry {
  at: string;
  step: string;
  detail: string;
}

export interface ScenarioResult {
  name: string;
  title: string;
  passed: boolean;
  error?: string;
  timeline: TimelineEntry[];
}

class ExpectationFailed extends Error {}

/** The result of a scenario that ran to its end: failed when one of its checks did. */
function ranToEnd(sc: Scenario, timeline: TimelineEntry[], differences: string[]): ScenarioResult {
  const [first] = differences;
  const failed = first ? { passed: false, error: `${differences.length} check(s) failed, the first: ${first}` } : {};
  return { name: sc.name, title: sc.title, passed: true, ...failed, timeline };
}

/**
 * Where a scenario's calls go: a server's base URL; a function answering the server of each call
 * (instances over one store); or a server's core in the process (`{ request }`: the server runs it).
 */
export type ScenarioTarget = string | (() => string) | { request: Fetcher };

/** Runs a scenario against `target` and answers its timeline; `adminToken` goes with its /__sim calls. */
export async function runScenario(target: ScenarioTarget, sc: Scenario, adminToken?: string): Promise<ScenarioResult> {
  const send: Fetcher =
    typeof target === 'object'
      ? target.request
      : (path, init) => fetch((typeof target === 'string' ? target : target()) + path, init);
  const timeline: TimelineEntry[] = [];
  const receivers: Receiver[] = [];
  let now = '';
  const log = (step: string, detail: string) => timeline.push({ at: now, step, detail });
  const differences: string[] = [];

  const api = async (
    method: string,
    path: string,
    opts: { key?: string | null; body?: unknown } = {},
  ): Promise<Answer> => {
    const key = opts.key === undefined ? 'demo-admin-key' : opts.key;
    const res = await send(path, {
      method,
      headers: {
        ...(key ? { authorization: `Bearer ${key}` } : {}),
        ...(opts.body !== undefined ? { 'content-type': 'application/json' } : {}),
        ...(adminToken && path.startsWith('/__sim') ? { 'x-sim-admin-token': adminToken } : {}),
      },
      body: opts.body === undefined ? undefined : JSON.stringify(opts.body),
    });
    const text = await res.text();
    const body = text ? JSON.parse(text) : null;
    log('api', `${method} ${path} → ${res.status}`);
    return { status: res.status, body };
  };

  const context: ScenarioContext = {
    api,
    async advance(by) {
      const res = await api('POST', '/__sim/clock/advance', { key: null, body: { by } });
      now = res.body.now;
      for (const f of res.body.fired ?? []) log('fired', f.what);
      return res.body;
    },
    async sms(to, from, text) {
      const res = await api('POST', '/__sim/inbound/sms', { key: null, body: { to, from, text } });
      for (const t of res.body.trace ?? []) log('sms', `${t.step}: ${t.detail}`);
      return res.body;
    },
    async call(to, from) {
      const res = await api('POST', '/__sim/inbound/call', { key: null, body: { to, from } });
      for (const t of res.body.steps ?? []) log('call', `${t.step}: ${t.detail}`);
      return res.body;
    },
    async receiver() {
      const r = await startReceiver();
      receivers.push(r);
      return r;
    },
    expect(condition, what) {
      log(condition ? 'ok' : 'FAILED', what);
      if (!condition) throw new ExpectationFailed(what);
    },
    check(condition, what) {
      log(condition ? 'ok' : 'FAILED', what);
      if (!condition) differences.push(what);
    },
    note: (what) => log('note', what),
  };

  try {
    now = (await api('GET', '/__sim/clock', { key: null })).body.now;
    timeline.length = 0;
    await sc.run(context);
    return ranToEnd(sc, timeline, differences);
  } catch (e) {
    if (!(e instanceof ExpectationFailed)) log('FAILED', (e as Error).message);
    return { name: sc.name, title: sc.title, passed: false, error: (e as Error).message, timeline };
  } finally {
    await Promise.all(receivers.map((r) => r.close()));
  }
}

/** Prints a result as lines a person reads. */
export function formatTimeline(result: ScenarioResult): string {
  const lines = result.timeline.map((e) => `${e.at}  ${e.step.padEnd(6)}  ${e.detail}`);
  return [
    `${result.passed ? 'PASSED' : 'FAILED'}  ${result.name}: ${result.title}`,
    ...lines,
    ...(result.error ? [`error: ${result.error}`] : []),
  ].join('\n');
}
