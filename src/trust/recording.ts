/**
 * Recording (`dipswitch proxy --upstream URL --record DIR`): every /api/v1 call that passes through
 * the proxy is kept, secrets redacted as the journal redacts them, and written to DIR as a scenario
 * that makes the same calls against dipswitch, each expecting the status the real service answered,
 * with every id a call created bound to a variable that later calls use. With `--record-fixtures`,
 * the records the real service returned that the session did not create go to a fixture file.
 */
import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Logger } from '../deps.js';
import { redactBody } from '../engine/redact.js';
import { DEMO_ACCOUNT, fixtureProblems, readFixtureFile, type FixtureFile } from '../store/fixtures.js';

export interface RecordedCall {
  method: string;
  /** The path and query, as the client sent them. */
  path: string;
  /** The request's JSON body, redacted; undefined when it had none (or it was not JSON). */
  body?: unknown;
  /** The content type of a body that was not JSON (a document's upload): not kept, so the call is not replayed. */
  opaque?: string;
  status: number;
  /** The answer's JSON body, redacted; undefined when it had none. */
  answer?: unknown;
}

/** The most calls one recording keeps (docs/running.md, "Reference: bounds"); later ones pass through unrecorded. */
export const RECORDED_CALLS = 10_000;
/** How long a recording waits after a call before writing its files (the call's answer never waits). */
const WRITE_DELAY_MS = 200;

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };

/** A value a later call may name: an id a POST created, or a page's cursor; its variable and where the answer holds it. */
interface Bound {
  value: string;
  name: string;
  from: string;
}

/** What each call's answer gives later calls (created ids, page cursors), named by kind, in call order. */
function boundValues(calls: readonly RecordedCall[]): Map<number, Bound[]> {
  const seen = new Set<string>();
  const counts = new Map<string, number>();
  const bound = new Map<number, Bound[]>();
  const bind = (i: number, value: unknown, kind: string, from: string) => {
    if (typeof value !== 'string' || !value || seen.has(value)) return;
    const n = (counts.get(kind) ?? 0) + 1;
    counts.set(kind, n);
    seen.add(value);
    bound.set(i, [...(bound.get(i) ?? []), { value, name: `${kind}_${n}`, from }]);
  };
  calls.forEach((c, i) => {
    const answer = c.answer as
      { type?: unknown; data?: { id?: unknown }; page_info?: Record<string, unknown> } | undefined;
    // a POST on a record's own path (a review, a checkout) acts on it rather than creating it
    if (c.method === 'POST' && !(typeof answer?.data?.id === 'string' && c.path.includes(answer.data.id))) {
      const type = typeof answer?.type === 'string' ? answer.type.replace(/[^a-z0-9_]/gi, '_') : 'record';
      bind(i, answer?.data?.id, type, 'data?.id');
    }
    bind(i, answer?.page_info?.first, 'cursor', 'page_info?.first');
    bind(i, answer?.page_info?.last, 'cursor', 'page_info?.last');
  });
  return bound;
}

/** A string as JavaScript source: a template literal using the variables of the ids it holds, else a plain string. */
function stringSource(text: string, bound: ReadonlyMap<string, string>): string {
  const found = [...bound.keys()].filter((id) => text.includes(id));
  if (!found.length) return JSON.stringify(text);
  let out = text.replace(/[\\`]/g, (c) => `\\${c}`).replace(/\$\{/g, '\\${');
  for (const id of found) out = out.split(id).join(`\${ids.${bound.get(id) ?? ''}}`);
  return `\`${out}\``;
}

/** A JSON value as JavaScript source, ids bound to variables written as the variables. */
function valueSource(value: Json, bound: ReadonlyMap<string, string>): string {
  if (typeof value === 'string') return stringSource(value, bound);
  if (Array.isArray(value)) return `[${value.map((v) => valueSource(v, bound)).join(', ')}]`;
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  return `{ ${Object.entries(value)
    .map(([k, v]) => `${JSON.stringify(k)}: ${valueSource(v, bound)}`)
    .join(', ')} }`;
}

/** The scenario of a recorded session (an ES module that needs nothing imported). */
export function scenarioSource(calls: readonly RecordedCall[], meta: { name: string; title: string }): string {
  const given = boundValues(calls);
  const bound = new Map<string, string>();
  const lines = calls.map((c, i) => {
    if (c.opaque)
      return `    s.note(${JSON.stringify(`not replayed: ${c.method} ${c.path} sent a ${c.opaque} body, which a recording does not keep`)});`;
    const path = stringSource(c.path, bound);
    const body = c.body === undefined ? '' : `, { body: ${valueSource(c.body as Json, bound)} }`;
    const what = JSON.stringify(`${c.method} ${c.path} answers ${c.status}, as the real service did`);
    const call = [
      `    a = await s.api(${JSON.stringify(c.method)}, ${path}${body});`,
      `    s.check(a.status === ${c.status}, ${what});`,
    ];
    for (const b of given.get(i) ?? []) {
      const was = b.name.startsWith('cursor_') ? '' : ` // ${b.value} on the real service`;
      call.push(`    ids.${b.name} = a.body?.${b.from};${was}`);
      bound.set(b.value, b.name);
    }
    return call.join('\n');
  });
  return [
    `// Recorded by dipswitch proxy: replay it with \`dipswitch scenario ${meta.name} --scenarios <this folder>\`.`,
    '/** @type {import("dipswitch").Scenario} */',
    'export default {',
    `  name: ${JSON.stringify(meta.name)},`,
    `  title: ${JSON.stringify(meta.title)},`,
    '  async run(s) {',
    '    const ids = {};',
    '    let a;',
    ...lines,
    '  },',
    '};',
    '',
  ].join('\n');
}

type Hidden = (
  data: Record<string, unknown>,
  numberIds: ReadonlyMap<string, string>,
) => Record<string, unknown> | string;

/** The API record types a fixture file can hold: their collection, and the hidden fields a recorded one starts with (or why it cannot). */
const FIXTURE_TYPES: Record<string, { collection: string; hidden: Hidden }> = {
  did: {
    collection: 'numbers',
    hidden: () => ({ switch_id: null, api_key_id: null, auto_response_id: null, campaign_id: null }),
  },
  csp_campaign: {
    collection: 'campaigns',
    hidden: () => ({ brand: null, shared_resource_group_id: null, shared_with: [] }),
  },
  csp_brand: { collection: 'brands', hidden: () => ({}) },
  osr_overwrite_request: {
    collection: 'overwrite_requests',
    hidden: (d, numberIds) => {
      const number_id = numberIds.get(String(d.tn));
      if (!number_id) return `its number ${String(d.tn)} was not among the numbers seen`;
      return { number_id, service_provider: 'not shown by the API', reviewed_user_id: null };
    },
  },
};

/** Every `{ type, data }` record an answer holds: the record, or a list's results. */
function recordsOf(answer: unknown): { type: string; data: Record<string, unknown> }[] {
  const a = answer as { type?: unknown; data?: unknown; results?: unknown } | undefined;
  if (Array.isArray(a?.results)) return a.results.flatMap(recordsOf);
  if (typeof a?.type === 'string' && typeof a.data === 'object' && a.data && !Array.isArray(a.data))
    return [{ type: a.type, data: a.data as Record<string, unknown> }];
  return [];
}

/**
 * The fixture file of a recorded session: the default fixtures' Demo account with its users and keys
 * (so the replay's key works), and, in it, the first copy seen (the closest to the state the session began from) of each number, brand and campaign the real
 * service returned that no call of the session created. A record the contract refuses is left out and named.
 */
export function recordedFixtures(
  calls: readonly RecordedCall[],
  defaults: FixtureFile = readFixtureFile(),
): { file: FixtureFile; left: string[] } {
  const created = new Set([...boundValues(calls).values()].flat().map((b) => b.value));
  const first = new Map<string, { type: string; data: Record<string, unknown> }>();
  for (const c of calls)
    for (const r of recordsOf(c.answer))
      if (r.type in FIXTURE_TYPES && typeof r.data.id === 'string' && !created.has(r.data.id) && !first.has(r.data.id))
        first.set(r.data.id, r);
  const numberIds = new Map(
    [...first.values()].filter((r) => r.type === 'did').map((r) => [String(r.data.number), String(r.data.id)]),
  );
  const file: FixtureFile = {
    accounts: defaults.accounts.filter((a) => a.id === DEMO_ACCOUNT),
    users: defaults.users.filter((u) => u.account_id === DEMO_ACCOUNT),
    api_keys: defaults.api_keys.filter((k) => k.account_id === DEMO_ACCOUNT),
  };
  const left: string[] = [];
  const holder: Record<string, readonly unknown[]> = file;
  for (const { type, data } of first.values()) {
    const of = FIXTURE_TYPES[type];
    const hidden = of?.hidden(data, numberIds) ?? 'no fixture type';
    const row = typeof hidden === 'string' ? undefined : { account_id: DEMO_ACCOUNT, ...hidden, data };
    const problems = row && of ? fixtureProblems({ ...file, [of.collection]: [row] }) : [hidden as string];
    if (problems.length || !row || !of) left.push(`${type} ${String(data.id)}: ${problems[0] ?? ''}`);
    else holder[of.collection] = [...(holder[of.collection] ?? []), row];
  }
  return { file, left };
}

/** A file written whole or not at all. */
function writeWhole(path: string, text: string): void {
  writeFileSync(`${path}.tmp`, text);
  renameSync(`${path}.tmp`, path);
}

/** A recording in progress: calls kept as they pass, the files written shortly after (and at close). */
export class Recorder {
  private readonly calls: RecordedCall[] = [];
  private timer: NodeJS.Timeout | undefined;
  private full = false;
  private readonly told = new Set<string>();
  private defaults: FixtureFile | undefined;

  constructor(
    private readonly opts: {
      dir: string;
      name: string;
      title: string;
      fixtures: boolean;
      logger: Logger;
    },
  ) {
    mkdirSync(opts.dir, { recursive: true });
  }

  get scenarioFile(): string {
    return join(this.opts.dir, `${this.opts.name}.mjs`);
  }

  get fixtureFile(): string {
    return join(this.opts.dir, `${this.opts.name}.fixtures.json`);
  }

  /** Keeps one call (redacted); the files are written a moment later, off the call's path. */
  add(call: RecordedCall): void {
    if (this.calls.length >= RECORDED_CALLS) {
      if (!this.full) this.opts.logger.warn(`[record] ${RECORDED_CALLS} calls recorded: later calls are not`);
      this.full = true;
      return;
    }
    this.calls.push({ ...call, body: redactBody(call.body), answer: redactBody(call.answer) });
    this.timer ??= setTimeout(() => this.write(), WRITE_DELAY_MS);
  }

  /** Writes the scenario (and the fixtures) as recorded so far. */
  write(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    try {
      writeWhole(this.scenarioFile, scenarioSource(this.calls, this.opts));
      if (!this.opts.fixtures) return;
      // the default fixtures (Demo's account, users and keys) are read once, not at every write
      this.defaults ??= readFixtureFile();
      const { file, left } = recordedFixtures(this.calls, this.defaults);
      writeWhole(this.fixtureFile, `${JSON.stringify(file, null, 2)}\n`);
      for (const l of left.filter((l) => !this.told.has(l))) {
        this.told.add(l);
        this.opts.logger.warn(`[record] not a fixture: ${l}`);
      }
    } catch (e) {
      this.opts.logger.warn(`[record] cannot write ${this.opts.dir}: ${(e as Error).message}`);
    }
  }
}
