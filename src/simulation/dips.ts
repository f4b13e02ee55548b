/**
 * Lookup results of a bulk dip: made for every number, the same every time for the same number
 * (faker's word lists, drawn by a random source seeded by the number; whether it is a NANP number, its
 * state and rate centre from libphonenumber's data, src/simulation/numbering.ts), and written as CSV
 * with a header row or as MLJSON (a record a line). A number libphonenumber does not hold valid gets a
 * row that says so: `line_type` `invalid`, nothing else.
 */
import { hash } from 'node:crypto';
import { seededRandom } from '../deps.js';
import { numberFacts } from './numbering.js';
import { at } from '../domain/lists.js';
import type { BulkDipTaskRow } from '../domain/rows.js';

type Task = BulkDipTaskRow['data'];
export type DipResult = Record<string, string | boolean | null>;

const CARRIERS = [
  'Verizon Wireless',
  'T-Mobile USA',
  'AT&T Mobility',
  'US Cellular',
  'Bandwidth CLEC',
  'Lumen Technologies',
  'Frontier Communications',
];
const MESSAGING_PROVIDERS = ['Syniverse', 'Sinch', 'Bandwidth', 'Telnyx', 'Twilio'];

const seedOf = (number: string): number => hash('sha256', number, 'buffer').readUInt32BE(0);
const DIGITS = [...'0123456789'];
const NONZERO = DIGITS.slice(1);
const LINE_TYPES = ['mobile', 'mobile', 'landline', 'voip'];
const ALNUM = [...'0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ'];

/** The word lists of faker's en locale, loaded on the first dip, not at start-up. */
interface Words {
  lastNames: string[];
  firstNames: string[];
  companySuffixes: string[];
}
let words: Words | undefined;
const NO_WORDS: Words = { lastNames: [], firstNames: [], companySuffixes: [] };

async function loadWords(): Promise<Words> {
  if (!words) {
    const d = (await import('@faker-js/faker')).faker.definitions;
    words = {
      lastNames: [...(d.person.last_name.generic ?? [])],
      firstNames: [...(d.person.first_name.generic ?? [])],
      companySuffixes: Array.isArray(d.company.legal_entity_type)
        ? d.company.legal_entity_type.map(String)
        : ['LLC', 'Inc', 'Group'],
    };
  }
  return words;
}

/**
 * The random source of one number: seeded by the number itself, so its results are the same in
 * every run. (Seeding faker's Mersenne Twister per number cost half of a large dip's time.)
 */
function numberRandom(number: string) {
  const r = seededRandom(seedOf(number));
  const pick = <T>(xs: readonly T[]): T => at(xs, Math.floor(r.float() * xs.length));
  const chars = (alphabet: readonly string[], n: number) => {
    let out = '';
    for (let i = 0; i < n; i++) out += pick(alphabet);
    return out;
  };
  return { float: r.float, pick, chars };
}

/** The columns of a task's results, in order. */
export function columnsOf(task: Task): string[] {
  switch (task.type) {
    case 'LRN':
      return [
        'number',
        'lrn',
        'spid',
        'ocn',
        'lata',
        'rate_center',
        'state',
        'line_type',
        ...(task.enhanced ? ['ported', 'ported_at', 'carrier'] : []),
        ...(task.messaging_lookup ? ['messaging_carrier', 'messaging_provider'] : []),
      ];
    case 'CNAM':
      return ['number', 'caller_name'];
    case 'MCL':
      return ['number', 'carrier', 'messaging_provider', 'line_type'];
    case null:
      // a task without a type fails before any dip (src/simulation/bulk_dips.ts)
      return ['number'];
  }
}

/** The row of a number that is not a NANP number: no lookup can answer for it. */
const invalidRow = (task: Task, number: string): DipResult =>
  Object.fromEntries(columnsOf(task).map((c) => [c, c === 'number' ? number : c === 'line_type' ? 'invalid' : null]));

/**
 * One number's result, its columns in order. The draws are made in one fixed order whatever the
 * columns (so a number's values are the same in every kind of task); the caller name, drawn last,
 * only when asked for.
 */
function dip(w: Words, task: Task, columns: readonly string[], number: string): DipResult {
  const facts = numberFacts(number);
  if (!facts.nanp) return invalidRow(task, number);
  const r = numberRandom(number);
  const digits = number.replace(/^\+?1/, '');
  const npa = digits.slice(0, 3);
  const tollFree = facts.tollFree;
  const lineType = tollFree ? 'toll-free' : r.pick(LINE_TYPES);
  const carrier = r.pick(CARRIERS);
  const ported = r.float() < 0.5;
  const all: DipResult = {
    number,
    lrn: `${npa}${digits.slice(3, 6)}${r.chars(DIGITS, 4)}`,
    spid: r.chars(ALNUM, 4),
    ocn: r.chars(ALNUM, 4),
    lata: `${r.pick(NONZERO)}${r.chars(DIGITS, 2)}`,
    rate_center: facts.rateCenter,
    state: facts.state,
    line_type: lineType,
    ported,
    ported_at: ported
      ? new Date(Date.UTC(2021, 0, 1) + Math.floor(r.float() * 5 * 365) * 86_400_000).toISOString()
      : null,
    carrier,
    messaging_carrier: carrier,
    messaging_provider: r.pick(MESSAGING_PROVIDERS),
  };
  if (columns.includes('caller_name'))
    all.caller_name = (
      r.float() < 0.5
        ? `${r.pick(w.lastNames)} ${r.pick(w.firstNames)}`
        : `${r.pick(w.lastNames)} ${r.pick(w.companySuffixes)}`
    )
      .toUpperCase()
      .slice(0, 15);
  const out: DipResult = {};
  for (const c of columns) out[c] = all[c] ?? null;
  return out;
}

/** Every number's result. */
export async function runDips(task: Task): Promise<DipResult[]> {
  const columns = columnsOf(task);
  // faker's word lists only for the caller names of a CNAM task
  const w = columns.includes('caller_name') ? await loadWords() : NO_WORDS;
  return task.numbers.map((n) => dip(w, task, columns, n));
}

const csvCell = (v: string | boolean | null): string => {
  const s = v === null ? '' : String(v);
  return /[",\n\r]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
};

/** The result file in the task's format, and its media type and file extension. */
export function resultFile(
  task: Task,
  results: DipResult[],
): { bytes: Buffer; contentType: string; extension: string } {
  if (task.format === 'MLJSON') {
    return {
      bytes: Buffer.from(results.map((r) => JSON.stringify(r)).join('\n') + (results.length ? '\n' : '')),
      contentType: 'application/x-ndjson',
      extension: 'jsonl',
    };
  }
  const columns = columnsOf(task);
  const lines = [columns.join(','), ...results.map((r) => columns.map((c) => csvCell(r[c] ?? null)).join(','))];
  return { bytes: Buffer.from(lines.join('\r\n') + '\r\n'), contentType: 'text/csv', extension: 'csv' };
}
