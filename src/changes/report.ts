/**
 * A diff's report (`contract_diff` in contract/sim.yaml) and its forms: text for a person, Markdown
 * for a pull request's comment, JSON, JUnit XML (a case per operation the suite used) and GitHub
 * workflow annotations.
 */
import { escapeXml } from '../domain/xml.js';
import { diff } from './diff.js';
import type { Contract } from './document.js';
import type { Shape } from './shape.js';
import { cross, fails, type Crossed, type FailOn, type Footprint, type Report } from './verdict.js';

export type Format = 'text' | 'markdown' | 'json' | 'junit' | 'github';
export const FORMATS: readonly Format[] = ['text', 'markdown', 'json', 'junit', 'github'];

const side = (c: Contract) => ({ source: c.source, title: c.shape.title, version: c.shape.version });

/** What `--against` says of a change: the provider serves what dipswitch does not simulate, or the reverse, or a difference. */
const driftOf = (c: Crossed): Crossed['drift'] =>
  c.id === 'endpoint-added' || c.id === 'webhook-added'
    ? 'not-simulated'
    : c.id.startsWith('api-removed') || c.id === 'webhook-removed'
      ? 'not-served'
      : 'differs';

export interface ReportOptions {
  footprint?: { source: string; value: Footprint };
  failOn: FailOn;
  against?: boolean;
}

/** The report of the changes from `base` to `next`. */
export function report(base: Contract, next: Contract, o: ReportOptions): Report {
  const changes = cross(diff(base.shape, next.shape), o.footprint?.value).map((c) =>
    o.against ? { ...c, drift: driftOf(c) } : c,
  );
  const count = (p: (c: Crossed) => boolean) => changes.filter(p).length;
  return {
    base: side(base),
    next: side(next),
    ...(o.footprint
      ? {
          footprint: {
            source: o.footprint.source,
            operations: o.footprint.value.operations.length,
            webhooks: o.footprint.value.webhooks.length,
          },
        }
      : {}),
    ...(o.against ? { against: true } : {}),
    fail_on: o.failOn,
    failed: changes.some((c) => fails(c.verdict, o.failOn)),
    summary: {
      changes: changes.length,
      breaking: count((c) => c.level === 'breaking'),
      may_break: count((c) => c.level === 'may-break'),
      safe: count((c) => c.level === 'safe'),
      breaks_you: count((c) => c.verdict === 'breaks-you'),
      may_break_you: count((c) => c.verdict === 'may-break-you'),
      not_used: count((c) => c.verdict === 'not-used'),
    },
    changes,
  };
}

const VERDICT_WORDS: Record<Crossed['verdict'], string> = {
  'breaks-you': 'breaks you',
  'may-break-you': 'may break you',
  'not-used': 'not used by you',
  safe: 'safe',
};
const DRIFT_WORDS = {
  'not-simulated': 'not simulated by dipswitch',
  'not-served': 'simulated, not served',
  differs: 'differs',
};

const opName = (c: Crossed) =>
  c.operation.kind === 'webhook'
    ? `webhook ${c.operation.path}`
    : `${c.operation.method} ${c.operation.path}${c.operation.operation_id ? ` (${c.operation.operation_id})` : ''}`;

const ORDER: Crossed['verdict'][] = ['breaks-you', 'may-break-you', 'not-used', 'safe'];
const byVerdict = (a: Crossed, b: Crossed) => ORDER.indexOf(a.verdict) - ORDER.indexOf(b.verdict);

function summaryLine(r: Report): string {
  const s = r.summary;
  if (!s.changes) return `No changes from ${r.base.source} to ${r.next.source}.`;
  const yours = r.footprint
    ? `; for this suite: ${s.breaks_you} break${s.breaks_you === 1 ? 's' : ''} you, ${s.may_break_you} may break you, ${s.not_used} not used`
    : '';
  return `${s.changes} change${s.changes === 1 ? '' : 's'}: ${s.breaking} breaking, ${s.may_break} may break, ${s.safe} safe${yours}.`;
}

function text(r: Report): string {
  const lines = [`${r.base.source} → ${r.next.source}${r.footprint ? `, crossed with ${r.footprint.source}` : ''}`, ''];
  for (const c of [...r.changes].sort(byVerdict)) {
    const label = r.against && c.drift ? DRIFT_WORDS[c.drift] : VERDICT_WORDS[c.verdict];
    lines.push(`${label.toUpperCase().padEnd(16)} ${opName(c)}: ${c.text}  [${c.id}, ${c.level}]`);
    if (c.why) lines.push(`${' '.repeat(17)}${c.why}`);
  }
  if (r.changes.length) lines.push('');
  lines.push(summaryLine(r));
  return lines.join('\n');
}

const cell = (s: string) => s.replace(/\|/g, '\\|').replace(/\n/g, ' ');

function markdown(r: Report): string {
  const mine = r.changes.filter((c) => c.verdict === 'breaks-you' || c.verdict === 'may-break-you').sort(byVerdict);
  const rest = r.changes.filter((c) => !mine.includes(c));
  const row = (c: Crossed) =>
    `| ${r.against && c.drift ? DRIFT_WORDS[c.drift] : VERDICT_WORDS[c.verdict]} | ${cell(opName(c))} | ${cell(c.text)} | \`${c.id}\` | ${cell(c.why)} |`;
  const head = ['| verdict | operation | change | check | why |', '|---|---|---|---|---|'];
  const out = [
    `### Contract changes: ${cell(r.base.title)} ${cell(r.base.version)} → ${cell(r.next.version)}`,
    '',
    summaryLine(r),
    '',
  ];
  if (mine.length) out.push(...head, ...mine.map(row), '');
  if (rest.length)
    out.push(
      `<details><summary>${rest.length} other change${rest.length === 1 ? '' : 's'}</summary>`,
      '',
      ...head,
      ...rest.map(row),
      '',
      '</details>',
    );
  return out.join('\n');
}

/** A case per operation the suite used (each operation of the base without a footprint); its failure the changes that fail it. */
function junit(r: Report, base: Shape, fp: Footprint | undefined): string {
  const names = fp
    ? [
        ...fp.operations.map((o) => ({
          key: `${o.method} ${o.path}`,
          name: `${o.method} ${o.path} (${o.operation_id})`,
        })),
        ...fp.webhooks.map((w) => ({ key: `webhook ${w.webhook}`, name: `webhook ${w.webhook}` })),
      ]
    : [...base.operations.values()].map((o) => ({
        key: o.kind === 'webhook' ? `webhook ${o.path}` : o.key,
        name: o.kind === 'webhook' ? `webhook ${o.path}` : `${o.key}${o.operationId ? ` (${o.operationId})` : ''}`,
      }));
  const keyOf = (c: Crossed) => (c.operation.kind === 'webhook' ? `webhook ${c.operation.path}` : c.operation.key);
  let failures = 0;
  const cases = names.map(({ key, name }) => {
    const failing = r.changes.filter((c) => keyOf(c) === key && fails(c.verdict, r.fail_on));
    const open = `    <testcase classname="dipswitch.contract" name="${escapeXml(name)}" time="0"`;
    if (!failing.length) return `${open}/>`;
    failures++;
    const detail = failing.map((c) => `${VERDICT_WORDS[c.verdict]}: ${c.text} [${c.id}] (${c.why})`).join('\n');
    return `${open}>\n      <failure message="${escapeXml(`${failing.length} change${failing.length === 1 ? '' : 's'} ${failing.some((c) => c.verdict === 'breaks-you') ? 'break' : 'may break'} this operation`)}" type="contract-change">${escapeXml(detail)}</failure>\n    </testcase>`;
  });
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="dipswitch diff" tests="${cases.length}" failures="${failures}" errors="0" skipped="0">`,
    `  <testsuite name="contract changes" tests="${cases.length}" failures="${failures}" errors="0" skipped="0">`,
    ...cases,
    '  </testsuite>',
    '</testsuites>',
    '',
  ].join('\n');
}

/** A GitHub workflow command's message, its `%`, CR and LF escaped as GitHub reads them. */
const ghData = (s: string) => s.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
const ghProp = (s: string) => ghData(s).replace(/:/g, '%3A').replace(/,/g, '%2C');

function github(r: Report): string {
  const file = /^https?:/.test(r.next.source) ? '' : `file=${ghProp(r.next.source)},`;
  const lines = r.changes
    .filter((c) => c.verdict === 'breaks-you' || c.verdict === 'may-break-you')
    .sort(byVerdict)
    .map((c) => {
      const kind = fails(c.verdict, r.fail_on) ? 'error' : 'warning';
      return `::${kind} ${file}title=${ghProp(`${VERDICT_WORDS[c.verdict]}: ${opName(c)}`)}::${ghData(`${c.text} [${c.id}] ${c.why}`)}`;
    });
  lines.push(`::notice title=dipswitch diff::${ghData(summaryLine(r))}`);
  return lines.join('\n');
}

/** The report in a form. */
export function render(r: Report, format: Format, base: Shape, fp: Footprint | undefined): string {
  switch (format) {
    case 'json':
      return JSON.stringify(r, null, 2);
    case 'markdown':
      return markdown(r);
    case 'junit':
      return junit(r, base, fp);
    case 'github':
      return github(r);
    default:
      return text(r);
  }
}
