/**
 * Lookup results of a bulk dip: made for every number, the same every time for the same number
 * (faker seeded by the number), and written as CSV with a header row or as MLJSON (a record a line).
 */
import { createHash } from 'node:crypto';
import type { Faker } from '@faker-js/faker';
import type { BulkDipTaskRow } from '../store/rows.js';

type Task = BulkDipTaskRow['data'];
export type DipResult = Record<string, string | boolean | null>;

const TOLL_FREE = ['800', '833', '844', '855', '866', '877', '888'];
const CARRIERS = ['Verizon Wireless', 'T-Mobile USA', 'AT&T Mobility', 'US Cellular', 'Bandwidth CLEC', 'Lumen Technologies', 'Frontier Communications'];
const MESSAGING_PROVIDERS = ['Syniverse', 'Sinch', 'Bandwidth', 'Telnyx', 'Twilio'];

let fakerInstance: Faker | undefined;

/** faker is loaded on the first dip, not at start-up. */
async function loadFaker(): Promise<Faker> {
  fakerInstance ??= (await import('@faker-js/faker')).faker;
  return fakerInstance;
}

const seedOf = (number: string): number => createHash('sha256').update(number).digest().readUInt32BE(0);

const code = (f: Faker, n: number): string => f.string.alphanumeric({ length: n, casing: 'upper' });

/** The columns of a task's results, in order. */
export function columnsOf(task: Task): string[] {
  switch (task.type) {
    case 'LRN':
      return ['number', 'lrn', 'spid', 'ocn', 'lata', 'rate_center', 'state', 'line_type',
        ...(task.enhanced ? ['ported', 'ported_at', 'carrier'] : []),
        ...(task.messaging_lookup ? ['messaging_carrier', 'messaging_provider'] : [])];
    case 'CNAM':
      return ['number', 'caller_name'];
    case 'MCL':
      return ['number', 'carrier', 'messaging_provider', 'line_type'];
  }
}

function dip(f: Faker, task: Task, number: string): DipResult {
  f.seed(seedOf(number));
  const digits = number.replace(/^\+1?/, '');
  const npa = digits.slice(0, 3);
  const tollFree = TOLL_FREE.includes(npa);
  const lineType = tollFree ? 'toll-free' : f.helpers.arrayElement(['mobile', 'mobile', 'landline', 'voip']);
  const carrier = f.helpers.arrayElement(CARRIERS);
  const all: DipResult = {
    number,
    lrn: `${npa}${digits.slice(3, 6)}${f.string.numeric(4)}`,
    spid: code(f, 4),
    ocn: code(f, 4),
    lata: f.string.numeric({ length: 3, allowLeadingZeros: false }),
    rate_center: f.location.city().toUpperCase().slice(0, 10),
    state: f.location.state({ abbreviated: true }),
    line_type: lineType,
    ported: f.datatype.boolean(),
    carrier,
    messaging_carrier: carrier,
    messaging_provider: f.helpers.arrayElement(MESSAGING_PROVIDERS),
    caller_name: (f.datatype.boolean() ? `${f.person.lastName()} ${f.person.firstName()}` : f.company.name()).toUpperCase().slice(0, 15),
  };
  all.ported_at = all.ported ? f.date.past({ years: 5, refDate: '2026-01-01T00:00:00.000Z' }).toISOString() : null;
  return Object.fromEntries(columnsOf(task).map((c) => [c, all[c] ?? null]));
}

/** Every number's result. */
export async function runDips(task: Task): Promise<DipResult[]> {
  const f = await loadFaker();
  return task.numbers.map((n) => dip(f, task, n));
}

const csvCell = (v: string | boolean | null): string => {
  const s = v === null ? '' : String(v);
  return /[",\n\r]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
};

/** The result file in the task's format, and its media type and file extension. */
export function resultFile(task: Task, results: DipResult[]): { bytes: Buffer; contentType: string; extension: string } {
  if (task.format === 'MLJSON') {
    return { bytes: Buffer.from(results.map((r) => JSON.stringify(r)).join('\n') + (results.length ? '\n' : '')), contentType: 'application/x-ndjson', extension: 'jsonl' };
  }
  const columns = columnsOf(task);
  const lines = [columns.join(','), ...results.map((r) => columns.map((c) => csvCell(r[c] ?? null)).join(','))];
  return { bytes: Buffer.from(lines.join('\r\n') + '\r\n'), contentType: 'text/csv', extension: 'csv' };
}
