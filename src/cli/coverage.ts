/**
 * `dipswitch coverage --url URL`: what a client's suite met of the contract (`GET /__sim/coverage`
 * of a running dipswitch), as a table, JSON, Markdown or JUnit XML; `--fail-under N` exits 1 when
 * the share of documented answers seen, of the operations called, is under N percent (a CI gate;
 * no call seen is 0%). `--run` gates on the sandboxes one run made, removed ones included.
 */
import type { components } from '../generated/sim.js';
import { escapeXml } from '../domain/xml.js';
import { scopedGet, type ScopeFlags } from './scope_get.js';
import { Stop } from './stop.js';

type Coverage = components['schemas']['coverage'];
type Delivered = components['schemas']['coverage_delivered'];

export interface CoverageFlags extends ScopeFlags {
  failUnder?: number;
  format: 'table' | 'json' | 'junit' | 'markdown';
}

const mark = (seen: number) => (seen > 0 ? '✔' : '✘');

/** An operation's answers in a line: `201 ✔  404 ✘  422 ✔`, an undocumented one with its `!`. */
const answersLine = (o: Coverage['operations'][number]) =>
  o.answers.map((a) => `${a.status}${a.documented ? '' : '!'} ${mark(a.seen)}`).join('  ');

const answersOf = (d: Delivered) =>
  Object.entries(d.answers)
    .map(([status, n]) => `${status} ×${n}`)
    .join(', ') || '—';

function rows(c: Coverage): { section: string; name: string; detail: string }[] {
  const out = c.operations
    .filter((o) => o.calls > 0)
    .map((o) => ({ section: 'operation', name: o.operation_id, detail: answersLine(o) }));
  for (const [section, list] of [
    ['event', c.deliveries.events],
    ['cdr', c.deliveries.cdrs],
    ['format', c.deliveries.formats],
  ] as const)
    for (const d of list)
      if (d.delivered) out.push({ section, name: d.kind, detail: `${d.delivered} sent; answered ${answersOf(d)}` });
  for (const f of c.faults) out.push({ section: 'fault', name: f.effect, detail: `fired ${f.fired}` });
  return out;
}

const summaryLine = (c: Coverage) =>
  `${c.summary.answers_seen} of ${c.summary.answers} documented answers of the ${c.summary.operations_called} operations called seen (${c.summary.percent}%); ${c.summary.operations - c.summary.operations_called} of ${c.summary.operations} operations never called`;

function table(c: Coverage): string {
  const all = rows(c);
  const width = Math.max(10, ...all.map((r) => r.name.length));
  return [...all.map((r) => `${r.section.padEnd(9)} ${r.name.padEnd(width)}  ${r.detail}`), '', summaryLine(c)].join(
    '\n',
  );
}

function markdown(c: Coverage): string {
  const cell = (s: string) => s.replace(/\|/g, '\\|');
  return [
    '| what | name | seen |',
    '|---|---|---|',
    ...rows(c).map((r) => `| ${r.section} | ${cell(r.name)} | ${cell(r.detail)} |`),
    '',
    summaryLine(c),
  ].join('\n');
}

type Case = { name: string; failure?: string; skipped?: string };

/**
 * JUnit XML, its counts those of its cases: a suite per kind, and with a gate (`failUnder`) a case
 * for the gate itself. An answer never seen is a failure only when the gate fails (it is what made
 * it fail); otherwise it is skipped with the reason, as is what was never called or sent.
 */
function junit(c: Coverage, failUnder: number | undefined): string {
  const failed = failUnder !== undefined && c.summary.percent < failUnder;
  const suite = (name: string, cases: Case[]) => {
    const failures = cases.filter((t) => t.failure).length;
    const skipped = cases.filter((t) => t.skipped !== undefined).length;
    const body = cases.map((t) => {
      const open = `    <testcase classname="dipswitch.${escapeXml(name)}" name="${escapeXml(t.name)}" time="0"`;
      if (t.failure)
        return `${open}>\n      <failure message="${escapeXml(t.failure)}" type="not-seen"/>\n    </testcase>`;
      if (t.skipped !== undefined)
        return `${open}>\n      <skipped message="${escapeXml(t.skipped)}"/>\n    </testcase>`;
      return `${open}/>`;
    });
    return {
      cases: cases.length,
      failures,
      skipped,
      text: [
        `  <testsuite name="${escapeXml(name)}" tests="${cases.length}" failures="${failures}" errors="0" skipped="${skipped}" time="0">`,
        ...body,
        '  </testsuite>',
      ].join('\n'),
    };
  };
  const operations = c.operations.flatMap((o): Case[] =>
    o.calls
      ? o.answers
          .filter((a) => a.documented)
          .map((a) => {
            const name = `${o.operation_id} ${a.status}`;
            if (a.seen) return { name };
            const why = `${o.operation_id} never answered ${a.status} to the client`;
            return failed ? { name, failure: why } : { name, skipped: `${why} (the gate passes)` };
          })
      : [{ name: o.operation_id, skipped: 'never called' }],
  );
  const sent = (list: readonly Delivered[]): Case[] =>
    list.map((d) => ({ name: d.kind, ...(d.delivered ? {} : { skipped: 'never sent' }) }));
  const suites = [
    ...(failUnder === undefined
      ? []
      : [
          suite('gate', [
            {
              name: `coverage at least ${failUnder}%`,
              ...(failed ? { failure: `coverage ${c.summary.percent}% is under ${failUnder}%` } : {}),
            },
          ]),
        ]),
    suite('operations', operations),
    suite('events', sent(c.deliveries.events)),
    suite('cdrs', sent(c.deliveries.cdrs)),
    suite('formats', sent(c.deliveries.formats)),
  ];
  const total = (k: 'cases' | 'failures' | 'skipped') => suites.reduce((n, s) => n + s[k], 0);
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="dipswitch coverage" tests="${total('cases')}" failures="${total('failures')}" errors="0" skipped="${total('skipped')}">`,
    ...suites.map((s) => s.text),
    '</testsuites>',
  ].join('\n');
}

/** Renders the coverage in a format (`coverage` of the CLI, and its tests). */
export function renderCoverage(c: Coverage, format: CoverageFlags['format'], failUnder?: number): string {
  if (format === 'json') return JSON.stringify(c, null, 2);
  if (format === 'junit') return junit(c, failUnder);
  if (format === 'markdown') return markdown(c);
  return table(c);
}

export async function coverage(f: CoverageFlags): Promise<void> {
  const report = (await scopedGet('/__sim/coverage', f)) as Coverage;
  console.log(renderCoverage(report, f.format, f.failUnder));
  if (f.failUnder !== undefined && report.summary.percent < f.failUnder)
    throw new Stop(`coverage ${report.summary.percent}% is under --fail-under ${f.failUnder}%`, 1);
}
