/** Keywords of auto responses and the SMS parts of a text (src/domain/keywords.ts, sms_text.ts). */
import { describe, expect, it } from 'vitest';
import { matchKeyword, normalizeKeywords } from '../../src/domain/keywords.js';
import { codingOf, concatenationHeader, MAX_PARTS, segments } from '../../src/domain/sms_text.js';

describe('auto response keywords', () => {
  it('are stored trimmed and uppercase; a wildcard is always WILDCARD', () => {
    const { keywords, violations } = normalizeKeywords(
      [{ keyword: ' stop ' }, { is_wildcard: true }] as Parameters<typeof normalizeKeywords>[0],
      false,
    );
    expect(violations).toEqual([]);
    expect(keywords.map((k) => [k.keyword, k.is_wildcard])).toEqual([
      ['STOP', false],
      ['WILDCARD', true],
    ]);
  });

  it('refuse a second wildcard, a repeated keyword, a missing one and WILDCARD as a plain keyword', () => {
    const { violations } = normalizeKeywords(
      [
        { is_wildcard: true },
        { is_wildcard: true },
        { keyword: 'a' },
        { keyword: 'A' },
        {},
        { keyword: 'wildcard' },
      ] as Parameters<typeof normalizeKeywords>[0],
      false,
    );
    expect(violations.map((v) => v.pointer)).toEqual([
      '/data/keywords/1/is_wildcard',
      '/data/keywords/3/keyword',
      '/data/keywords/4/keyword',
      '/data/keywords/5/keyword',
    ]);
  });

  it('update an existing wildcard only by naming it WILDCARD', () => {
    const entry = [{ is_wildcard: true, keyword: 'OTHER' }] as Parameters<typeof normalizeKeywords>[0];
    expect(normalizeKeywords(entry, true).violations.map((v) => v.pointer)).toEqual(['/data/keywords/0/keyword']);
    expect(normalizeKeywords(entry, false).violations).toEqual([]);
  });

  it('match the whole trimmed text, whatever its case, else the wildcard', () => {
    const { keywords } = normalizeKeywords(
      [{ keyword: 'STOP' }, { is_wildcard: true }] as Parameters<typeof normalizeKeywords>[0],
      false,
    );
    expect(matchKeyword(keywords, '  stop ')?.keyword).toBe('STOP');
    expect(matchKeyword(keywords, 'stop now')?.keyword).toBe('WILDCARD');
    expect(matchKeyword(keywords.slice(0, 1), 'hello')).toBeUndefined();
  });
});

describe('the SMS parts of a text', () => {
  it('are GSM 7-bit when every character has a septet, UCS-2 otherwise', () => {
    expect(codingOf('Hello @ £5 {x}')).toBe('GSM7');
    expect(codingOf('Grüße 👋')).toBe('UCS2');
  });

  it('fit one message up to 160 septets (an extension character counts two), then parts of 153', () => {
    expect(segments('a'.repeat(160)).parts).toHaveLength(1);
    expect(segments('a'.repeat(161)).parts.map((p) => p.length)).toEqual([153, 8]);
    expect(segments('€'.repeat(80)).parts).toHaveLength(1);
    const escaped = segments('€'.repeat(81)).parts;
    // a character's escape is never parted from it: 76 two-septet characters fill 152 of a part's 153
    expect(escaped.map((p) => [...p].length)).toEqual([76, 5]);
  });

  it('fit one message up to 70 UCS-2 units, then parts of 67, a surrogate pair never split', () => {
    expect(segments('ж'.repeat(70)).parts).toHaveLength(1);
    expect(segments('ж'.repeat(71)).parts.map((p) => p.length)).toEqual([67, 4]);
    const emoji = segments('👋'.repeat(36)).parts;
    expect(emoji.map((p) => p.length)).toEqual([66, 6]);
  });

  it('are at most MAX_PARTS, each part header naming its reference, count and place', () => {
    expect(segments('a'.repeat(153 * (MAX_PARTS + 3))).parts).toHaveLength(MAX_PARTS);
    expect([...concatenationHeader(0x1ff, 3, 2)]).toEqual([5, 0, 3, 0xff, 3, 2]);
  });
});
