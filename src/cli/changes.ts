/**
 * `dipswitch footprint`: what a suite used of the contract, from a running dipswitch, into a file.
 * `dipswitch diff BASE NEXT`: the changes between two contracts, crossed with a footprint; exit 1
 * when one meets `--fail-on` for the team, 2 for a usage error (docs/contract-changes.md).
 */
import { writeFile } from 'node:fs/promises';
import { componentValidator, contractPath } from '../contract.js';
import { ContractError, parseDocument, readContract, readText, type ReadBounds } from '../changes/document.js';
import { render, report, type Format } from '../changes/report.js';
import type { FailOn, Footprint } from '../changes/verdict.js';
import { scopedGet, type ScopeFlags } from './scope_get.js';
import { Stop } from './stop.js';

export interface FootprintFlags extends ScopeFlags {
  out?: string;
}

export async function footprint(f: FootprintFlags): Promise<void> {
  const pretty = `${JSON.stringify(await scopedGet('/__sim/footprint', f), null, 2)}\n`;
  if (f.out) await writeFile(f.out, pretty);
  else process.stdout.write(pretty);
}

export interface DiffFlags {
  footprint?: string;
  against?: string;
  format: Format;
  failOn: FailOn;
  out?: string;
  maxBytes: number;
  timeoutMs: number;
}

/** Where the provider serves its contract: the URL as given, or `/api/v1/openapi` under a bare base URL. */
export function servedAt(url: string): string {
  const u = new URL(url);
  if (u.pathname === '/' || u.pathname === '') u.pathname = '/api/v1/openapi';
  return u.href;
}

/** A footprint file read and checked against its schema and the base contract; a ContractError otherwise. */
async function readFootprint(where: string, bounds: ReadBounds, title: string): Promise<Footprint> {
  const fp: unknown = parseDocument(await readText(where, bounds), where);
  const valid = componentValidator('footprint', 'sim');
  const isFootprint = (v: unknown): v is Footprint => valid(v);
  if (!isFootprint(fp)) {
    const e = valid.errors?.[0];
    throw new ContractError(`${where}: not a footprint (${e?.instancePath || '/'} ${e?.message ?? 'invalid'})`);
  }
  if (fp.contract.title !== title)
    throw new ContractError(`${where}: a footprint of "${fp.contract.title}", not of "${title}"`);
  return fp;
}

export async function diffContracts(base: string | undefined, next: string | undefined, f: DiffFlags): Promise<void> {
  const bounds = { maxBytes: f.maxBytes, timeoutMs: f.timeoutMs };
  if (f.against) {
    if (next !== undefined) throw new Stop('--against takes the place of NEXT: give BASE at most', 2);
    next = servedAt(f.against);
    base ??= contractPath;
  }
  if (base === undefined || next === undefined)
    throw new Stop('give BASE and NEXT (files or URLs), or --against URL', 2);
  try {
    const [b, n] = await Promise.all([readContract(base, bounds), readContract(next, bounds)]);
    const fp = f.footprint
      ? { source: f.footprint, value: await readFootprint(f.footprint, bounds, b.shape.title) }
      : undefined;
    const r = report(b, n, { failOn: f.failOn, against: !!f.against, ...(fp ? { footprint: fp } : {}) });
    const out = render(r, f.format, b.shape, fp?.value);
    if (f.out) await writeFile(f.out, `${out}\n`);
    else process.stdout.write(`${out}\n`);
    if (r.failed) process.exitCode = 1;
  } catch (e) {
    if (e instanceof ContractError) throw new Stop(e.message, 2);
    throw e;
  }
}
