/**
 * Parity (`dipswitch proxy --shadow`): the real service's answer and dipswitch's to the same call,
 * compared field by field, ignoring what always differs (ids, timestamps, secrets, cursors), and
 * kept per operation with the documented decision behind dipswitch's answer where there is one.
 */
import { secretFields } from '../contract.js';

export interface Difference {
  /** A JSON pointer into the answer (array positions as `*`), or `status`. */
  field: string;
  real: unknown;
  dipswitch: unknown;
  /** How many calls differed there. */
  times: number;
  /** The decision (docs/decisions.md) behind dipswitch's answer, where there is one. */
  decision: string | null;
}

export interface OperationParity {
  operation_id: string;
  calls: number;
  agreeing: number;
  differing: number;
  differences: Difference[];
}

export interface ParityReport {
  operations: OperationParity[];
  /** Calls not compared: the shadow fell behind, or the call named no operation of the contract. */
  not_compared: number;
}

/** The distinct fields one operation keeps differences of; further ones are counted, not kept. */
export const DIFFERENCES_PER_OPERATION = 50;

/**
 * The decisions of docs/decisions.md a difference may rest
 * on: an operation (or any, `*`) and the field, and the decision's heading there.
 */
const DECISIONS: {
  operations: RegExp;
  field: RegExp;
  /** The two values it explains, when not every pair. */
  values?: (real: unknown, dipswitch: unknown) => boolean;
  decision: string;
}[] = [
  {
    operations: /.*/,
    field: /^status$/,
    values: (a, b) => [a, b].every((s) => s === 404 || s === 422),
    decision: 'Status of `invalid_parameter`',
  },
  {
    operations: /^createDestination$/,
    field: /^\/data\/(activated|priority|wait_time)$/,
    decision: 'DID destinations',
  },
  { operations: /^reviewOverwriteRequest$/, field: /^status$/, decision: 'OSR review' },
  { operations: /^createApiKey$/, field: /^\/data\/active$/, decision: 'API keys' },
  { operations: /^createEventSubscription$/, field: /^\/data\/enabled$/, decision: 'Event subscriptions' },
  { operations: /^createBulkDipTask$/, field: /^\/data\/format$/, decision: 'Bulk dip tasks' },
  { operations: /^createSwitch$/, field: /^\/data\/mms_auth_method$/, decision: 'Switches' },
  { operations: /^(getCart|checkoutCart)$/, field: /^status$/, decision: 'Carts' },
  { operations: /./, field: /^\/(data|results\/\*\/data)\/notes$/, decision: 'Unset optional strings' },
];

/** The decision behind a difference, most particular first (a status difference of a review is the OSR review's). */
export function decisionOf(operationId: string, field: string, real: unknown, dipswitch: unknown): string | null {
  const found = DECISIONS.filter(
    (d) => d.operations.test(operationId) && d.field.test(field) && (d.values?.(real, dipswitch) ?? true),
  ).sort((a, b) => Number(a.operations.source === '.*') - Number(b.operations.source === '.*'))[0];
  return found ? `docs/decisions.md: ${found.decision}` : null;
}

/** Always differ between two services: ids, timestamps, keys and secrets, and page cursors. */
function ignored(key: string, pointer: string): boolean {
  return (
    key === 'id' ||
    key.endsWith('_id') ||
    key.endsWith('_at') ||
    key === 'key' ||
    key === 'identity' ||
    secretFields().has(key) ||
    /^\/page_info\/(first|last)$/.test(pointer)
  );
}

const ISO_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;

/** Every leaf where the two answers differ, by pointer (positions as `*`), with both values. */
export function differences(
  real: unknown,
  dipswitch: unknown,
  at = '',
): { field: string; real: unknown; dipswitch: unknown }[] {
  if (typeof real === 'string' && typeof dipswitch === 'string' && ISO_TIME.test(real) && ISO_TIME.test(dipswitch))
    return [];
  const bothObjects = real && dipswitch && typeof real === 'object' && typeof dipswitch === 'object';
  if (!bothObjects || Array.isArray(real) !== Array.isArray(dipswitch))
    return JSON.stringify(real) === JSON.stringify(dipswitch) ? [] : [{ field: at || '/', real, dipswitch }];
  if (Array.isArray(real) && Array.isArray(dipswitch)) {
    if (real.length !== dipswitch.length)
      return [{ field: `${at}/length`, real: real.length, dipswitch: dipswitch.length }];
    return real.flatMap((r, i) => differences(r, dipswitch[i], `${at}/*`));
  }
  const a = real as Record<string, unknown>;
  const b = dipswitch as Record<string, unknown>;
  return [...new Set([...Object.keys(a), ...Object.keys(b)])]
    .filter((k) => !ignored(k, `${at}/${k}`))
    .flatMap((k) => differences(a[k], b[k], `${at}/${k}`));
}

/** The parity of every operation seen so far. */
export class Parity {
  private readonly operations = new Map<string, OperationParity>();
  private notCompared = 0;

  /** One call's two answers. */
  compare(
    operationId: string,
    real: { status: number; body: unknown },
    dipswitch: { status: number; body: unknown },
  ): void {
    const op = this.operations.get(operationId) ?? {
      operation_id: operationId,
      calls: 0,
      agreeing: 0,
      differing: 0,
      differences: [],
    };
    this.operations.set(operationId, op);
    op.calls++;
    const found = [
      ...(real.status === dipswitch.status
        ? []
        : [{ field: 'status', real: real.status, dipswitch: dipswitch.status }]),
      ...(real.status === dipswitch.status ? differences(real.body, dipswitch.body) : []),
    ];
    if (!found.length) {
      op.agreeing++;
      return;
    }
    op.differing++;
    for (const d of found) {
      const kept = op.differences.find((k) => k.field === d.field);
      if (kept) kept.times++;
      else if (op.differences.length < DIFFERENCES_PER_OPERATION)
        op.differences.push({ ...d, times: 1, decision: decisionOf(operationId, d.field, d.real, d.dipswitch) });
    }
  }

  skip(): void {
    this.notCompared++;
  }

  report(): ParityReport {
    const operations = [...this.operations.values()].sort((a, b) => a.operation_id.localeCompare(b.operation_id));
    return { operations: structuredClone(operations), not_compared: this.notCompared };
  }
}

const cell = (v: unknown) => `\`${JSON.stringify(v) ?? 'absent'}\``.replace(/\|/g, '\\|');

/** The report as Markdown: a table of operations, then each difference. */
export function parityMarkdown(report: ParityReport): string {
  const rows = report.operations.map((o) => `| ${o.operation_id} | ${o.calls} | ${o.agreeing} | ${o.differing} |`);
  const diffs = report.operations.flatMap((o) =>
    o.differences.map(
      (d) =>
        `| ${o.operation_id} | ${d.field} | ${cell(d.real)} | ${cell(d.dipswitch)} | ${d.times} | ${d.decision ?? '—'} |`,
    ),
  );
  return [
    '# Parity: the real service and dipswitch',
    '',
    '| operation | calls | agreeing | differing |',
    '|---|---|---|---|',
    ...rows,
    '',
    `Calls not compared: ${report.not_compared}.`,
    '',
    '## Differences',
    '',
    ...(diffs.length
      ? ['| operation | field | real service | dipswitch | calls | decision |', '|---|---|---|---|---|---|', ...diffs]
      : ['None.']),
    '',
  ].join('\n');
}
