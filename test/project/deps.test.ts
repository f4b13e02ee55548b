import { describe, expect, it } from 'vitest';
import { systemRandom } from '../../src/deps.js';

describe('systemRandom', () => {
  it('hands out bytes that never repeat across its pool refills, each call a copy of its own', () => {
    const random = systemRandom();
    const seen = new Set<string>();
    const kept: Buffer[] = [];
    // 16 bytes at a time over 2,000 calls: eight refills of a 4 KB pool
    for (let i = 0; i < 2_000; i++) {
      const b = random.bytes(16);
      expect(b).toHaveLength(16);
      seen.add(b.toString('hex'));
      if (i % 500 === 0) kept.push(b);
    }
    expect(seen.size).toBe(2_000);
    // a refill does not change bytes already handed out
    for (const b of kept) expect(seen.has(b.toString('hex'))).toBe(true);
    expect(random.bytes(10_000)).toHaveLength(10_000);
  });

  it('draws floats in [0, 1) that are spread, not stuck', () => {
    const random = systemRandom();
    const xs = Array.from({ length: 4_000 }, () => random.float());
    expect(xs.every((x) => x >= 0 && x < 1)).toBe(true);
    expect(new Set(xs).size).toBeGreaterThan(3_990);
    const mean = xs.reduce((a, b) => a + b, 0) / xs.length;
    expect(mean).toBeGreaterThan(0.45);
    expect(mean).toBeLessThan(0.55);
  });
});
