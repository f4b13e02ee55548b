/**
 * Auto response keywords (spec: Messaging auto response): stored uppercase, matched
 * case-insensitively, at most one wildcard whose keyword is always WILDCARD.
 */
import type { components } from '../generated/api.js';
import type { Violation } from './switches.js';

export type Keyword = components['schemas']['auto_response_keyword'];
export const WILDCARD = 'WILDCARD';

/**
 * The keywords as they are stored, or the violations that stop them. `hadWildcard`: the auto
 * response already has a wildcard, which a request may update only by naming keyword WILDCARD.
 */
export function normalizeKeywords(
  input: readonly Keyword[],
  hadWildcard: boolean,
): { keywords: Keyword[]; violations: Violation[] } {
  const violations: Violation[] = [];
  const seen = new Set<string>();
  let wildcards = 0;
  const keywords = input.map((k, i) => {
    const at = `/data/keywords/${i}`;
    const typed = k.keyword?.trim().toUpperCase();
    if (k.is_wildcard) {
      wildcards++;
      if (wildcards > 1)
        violations.push({ pointer: `${at}/is_wildcard`, detail: 'An auto response has at most one wildcard.' });
      if (hadWildcard && typed !== WILDCARD) {
        violations.push({
          pointer: `${at}/keyword`,
          detail: 'To update the existing wildcard, the request must pass keyword WILDCARD.',
        });
      }
    } else if (!typed) {
      violations.push({ pointer: `${at}/keyword`, detail: 'keyword is required unless is_wildcard is true.' });
    } else if (typed === WILDCARD) {
      violations.push({
        pointer: `${at}/keyword`,
        detail: 'WILDCARD is the keyword of the wildcard entry; set is_wildcard.',
      });
    } else if (seen.has(typed)) {
      violations.push({ pointer: `${at}/keyword`, detail: `The keyword ${typed} appears twice.` });
    }
    const keyword = k.is_wildcard ? WILDCARD : (typed ?? '');
    seen.add(keyword);
    return {
      keyword,
      is_wildcard: k.is_wildcard ?? false,
      intercept: k.intercept ?? false,
      message: k.message ?? null,
      message2: k.message2 ?? null,
    };
  });
  return { keywords, violations };
}

/** The entry an inbound text triggers: the keyword equal to the whole trimmed text, else the wildcard. */
export function matchKeyword(keywords: readonly Keyword[], text: string): Keyword | undefined {
  const word = text.trim().toUpperCase();
  return keywords.find((k) => !k.is_wildcard && k.keyword === word) ?? keywords.find((k) => k.is_wildcard);
}
