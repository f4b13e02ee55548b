/**
 * Verification with near misses (WireMock's `verify`): how many records match a pattern, and when
 * the count a test expects does not hold, the records that came closest, each with the fields that
 * differ: what was expected and what came. Pure: the caller hands in the records as journaled or
 * logged, and a way to read each field a pattern names.
 */

/** One field of a pattern: its name as a difference names it, what is expected, and whether a record's value holds it. */
export interface Check<R> {
  field: string;
  expected: unknown;
  actual(record: R): unknown;
  holds(actual: unknown): boolean;
}

export interface Difference {
  field: string;
  expected: unknown;
  actual: unknown;
}

export interface NearMiss {
  id: string | number;
  summary: string;
  differences: Difference[];
}

export type CountRule = { exactly: number } | { at_least: number } | { at_most: number };

export interface Verification {
  count: number;
  /** The matching records' ids, newest first (at most MATCHES_SHOWN). */
  matches: (string | number)[];
  holds: boolean;
  /** The count asked for, in words. */
  expected: string;
  /** The closest records that did not match, closest first (at most NEAR_MISSES, of the closest group alone). */
  nearMisses: NearMiss[];
  /** How many other records missed, further from the pattern. */
  leftOut: number;
}

export const NEAR_MISSES = 5;
const MATCHES_SHOWN = 100;

/** The count rule in words: `exactly 1`, `at least 2`. */
export const countWords = (rule: CountRule): string =>
  'exactly' in rule
    ? `exactly ${rule.exactly}`
    : 'at_least' in rule
      ? `at least ${rule.at_least}`
      : `at most ${rule.at_most}`;

const countHolds = (rule: CountRule, n: number): boolean =>
  'exactly' in rule ? n === rule.exactly : 'at_least' in rule ? n >= rule.at_least : n <= rule.at_most;

/**
 * Whether `actual` holds `shown`: every field shown, with its value; every item of an array shown,
 * somewhere in the array; anything else equal.
 */
export function holdsSubset(actual: unknown, shown: unknown): boolean {
  if (Array.isArray(shown))
    return Array.isArray(actual) && shown.every((item) => actual.some((a: unknown) => holdsSubset(a, item)));
  if (shown !== null && typeof shown === 'object')
    return (
      actual !== null &&
      typeof actual === 'object' &&
      !Array.isArray(actual) &&
      Object.entries(shown).every(([k, v]) => holdsSubset((actual as Record<string, unknown>)[k], v))
    );
  return actual === shown;
}

/**
 * The checks of a body subset, one per leaf it names (`/data/name`), so a near miss says which field
 * differs; an array or a scalar where an object is expected is one check.
 */
export function bodyChecks<R>(expected: unknown, read: (record: R) => unknown, at = '/body'): Check<R>[] {
  if (expected === null || typeof expected !== 'object' || Array.isArray(expected))
    return [{ field: at, expected, actual: read, holds: (a) => holdsSubset(a, expected) }];
  const entries = Object.entries(expected as Record<string, unknown>);
  if (!entries.length) return [{ field: at, expected, actual: read, holds: (a) => holdsSubset(a, expected) }];
  return entries.flatMap(([k, v]) =>
    bodyChecks<R>(
      v,
      (r) => {
        const parent = read(r);
        return parent !== null && typeof parent === 'object' ? (parent as Record<string, unknown>)[k] : undefined;
      },
      `${at}/${k.replace(/~/g, '~0').replace(/\//g, '~1')}`,
    ),
  );
}

/**
 * Counts the records that pass every check, newest first as given, with the near misses when the count fails.
 * A miss's distance is first how many of the `identity` fields differ (for a call, its operation and path: a
 * call of the operation asked for is nearer than any other), then how many fields differ; only the misses of
 * the nearest distance of the first kind are shown, the others counted as left out.
 */
export function verify<R>(
  records: readonly R[],
  checks: readonly Check<R>[],
  rule: CountRule,
  describe: (record: R) => { id: string | number; summary: string },
  identity: readonly string[] = [],
): Verification {
  const matches: (string | number)[] = [];
  const misses: NearMiss[] = [];
  for (const record of records) {
    const differences: Difference[] = [];
    for (const c of checks) {
      const actual = c.actual(record);
      if (!c.holds(actual)) differences.push({ field: c.field, expected: c.expected, actual: actual ?? null });
    }
    if (!differences.length) {
      if (matches.length < MATCHES_SHOWN) matches.push(describe(record).id);
      continue;
    }
    misses.push({ ...describe(record), differences });
  }
  const count = records.length - misses.length;
  const holds = countHolds(rule, count);
  if (holds) return { count, matches, holds, expected: countWords(rule), nearMisses: [], leftOut: 0 };
  const apart = (m: NearMiss) => m.differences.filter((d) => identity.includes(d.field)).length;
  const nearest = Math.min(...misses.map(apart));
  const nearMisses = misses
    .map((m, i) => ({ m, i }))
    .filter(({ m }) => apart(m) === nearest)
    .sort((a, b) => a.m.differences.length - b.m.differences.length || a.i - b.i)
    .slice(0, NEAR_MISSES)
    .map(({ m }) => m);
  return { count, matches, holds, expected: countWords(rule), nearMisses, leftOut: misses.length - nearMisses.length };
}
