/**
 * The North American Numbering Plan as lookups need it: whether a number is a NANP number, and an
 * area code's state (or province) and a rate centre named after its principal city, from the table
 * shipped in fixtures/nanp_area_codes.csv (read at first use).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { projectRoot } from '../contract.js';

export interface AreaCode {
  state: string;
  rateCenter: string;
}

/** +1, then an NPA and an NXX that start with 2-9, then four digits (E.164, the plus optional). */
const NANP = /^\+?1([2-9]\d{2})[2-9]\d{6}$/;

/** The NPA of a NANP number; undefined for any other number (another country's, or a malformed one). */
export function nanpNpa(number: string): string | undefined {
  return NANP.exec(number.trim())?.[1];
}

let table: Map<string, AreaCode> | undefined;

/** The area code's state and rate centre; undefined for an NPA the table does not hold (toll-free among them). */
export function areaCode(npa: string): AreaCode | undefined {
  if (!table) {
    const text = readFileSync(join(projectRoot, 'fixtures', 'nanp_area_codes.csv'), 'utf8');
    table = new Map(
      text
        .trim()
        .split('\n')
        .slice(1)
        .map((line) => {
          const [code = '', state = '', rateCenter = ''] = line.split(',');
          return [code, { state, rateCenter }];
        }),
    );
  }
  return table.get(npa);
}
