/**
 * `BENCH_ONLY=diff`: `dipswitch diff` of two full contracts (contract/openapi.yaml and a copy with a dozen changes)
 * crossed with the largest footprint the contract allows (every operation called, every field sent and received):
 * the whole command as a team runs it, and in-process the read of both contracts and the diff with its crossing
 * apart. Median of DIFF_RUNS.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { parse, stringify } from 'yaml';
import { readContract } from '../src/changes/document.js';
import { report } from '../src/changes/report.js';
import type { Footprint } from '../src/changes/verdict.js';
import { median, ROOT } from './harness.js';

const DIFF_RUNS = 7;

/** The contract with changes of many kinds: removed, added, narrowed, widened, required. */
function nextContract(): string {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- a contract edited by path
  const d = parse(readFileSync(join(ROOT, 'contract', 'openapi.yaml'), 'utf8')) as any;
  const s = d.components.schemas;
  delete d.paths['/api/v1/carts/{id}'].delete;
  d.paths['/api/v1/numbers/{number_id}/port_out'] = { post: { responses: { '202': { description: 'Accepted.' } } } };
  s.cart_create.required.push('notes');
  s.auth_method.enum = ['NONE', 'BASIC'];
  s.order_status.enum.push('ON_HOLD');
  s.cart.properties.name.maxLength = 100;
  s.timestamp.format = 'date';
  d.paths['/api/v1/carts'].get.parameters.push({
    name: 'region',
    in: 'query',
    required: true,
    schema: { type: 'string' },
  });
  const file = join(mkdtempSync(join(tmpdir(), 'dipswitch-bench-diff-')), 'next.yaml');
  writeFileSync(file, stringify(d));
  return file;
}

/** A footprint of every operation and webhook, with every field of each. */
async function widestFootprint(): Promise<Footprint> {
  const { shape } = await readContract(join(ROOT, 'contract', 'openapi.yaml'));
  const fields = (m: Map<string, Map<string, unknown>>) =>
    [...new Set([...m.values()].flatMap((f) => [...f.keys()]))].slice(0, 500);
  const ops = [...shape.operations.values()];
  return {
    contract: { title: shape.title, version: shape.version },
    operations: ops
      .filter((o) => o.kind === 'operation' && o.operationId)
      .map((o) => ({
        operation_id: o.operationId ?? '',
        method: o.method,
        path: o.path,
        calls: 10,
        statuses: [...o.responses.keys()],
        request_fields: fields(o.request),
        query_parameters: [...o.parameters.values()].filter((p) => p.in === 'query').map((p) => p.name),
        values: {},
        response_fields: Object.fromEntries([...o.responses].map(([s, m]) => [s, fields(m)])),
      })),
    webhooks: ops
      .filter((o) => o.kind === 'webhook')
      .map((o) => ({ webhook: o.path, delivered: 3, fields: fields(o.request) })),
  };
}

export interface DiffRow {
  what: string;
  ms: number;
}

export async function diffFigures(): Promise<DiffRow[]> {
  const base = join(ROOT, 'contract', 'openapi.yaml');
  const next = nextContract();
  const fpFile = join(tmpdir(), `dipswitch-bench-footprint-${process.pid}.json`);
  writeFileSync(fpFile, JSON.stringify(await widestFootprint()));
  const command: number[] = [];
  const read: number[] = [];
  const crossed: number[] = [];
  let changes = 0;
  for (let i = 0; i < DIFF_RUNS; i++) {
    const t0 = performance.now();
    const run = spawnSync(
      process.execPath,
      ['dist/src/cli/main.js', 'diff', base, next, '--footprint', fpFile, '--format', 'json'],
      {
        cwd: ROOT,
        encoding: 'utf8',
      },
    );
    command.push(performance.now() - t0);
    if (run.status !== 1) throw new Error(`dipswitch diff: exit ${run.status}: ${run.stderr}`);
    const t1 = performance.now();
    const [b, n] = await Promise.all([readContract(base), readContract(next)]);
    const t2 = performance.now();
    const r = report(b, n, {
      failOn: 'breaks',
      footprint: { source: fpFile, value: JSON.parse(readFileSync(fpFile, 'utf8')) as Footprint },
    });
    crossed.push(performance.now() - t2);
    read.push(t2 - t1);
    changes = r.summary.changes;
  }
  return [
    {
      what: `dipswitch diff, two full contracts and the widest footprint (${changes} changes): the command`,
      ms: median(command),
    },
    { what: 'dipswitch diff: both contracts read and shaped, in-process', ms: median(read) },
    { what: 'dipswitch diff: the diff and its crossing with the footprint, in-process', ms: median(crossed) },
  ];
}

export const diffRows = (rows: DiffRow[]) =>
  rows.map((r) => ({ name: r.what, note: `${r.ms.toFixed(0)} ms (median of ${DIFF_RUNS})` }));
