import { describe, expect, it } from 'vitest';
import { largestRemainder } from './estimate.js';

describe('largestRemainder', () => {
  it('always sums to exactly 100', () => {
    const cases = [
      [1 / 3, 1 / 3, 1 / 3],
      [0.142857, 0.142857, 0.142857, 0.142857, 0.142857, 0.142857, 0.142858],
      [0.995, 0.005, 0, 0, 0, 0, 0],
      [0.2049, 0.2049, 0.2049, 0.2049, 0.1804, 0, 0],
    ];
    for (const fractions of cases) {
      const shares = largestRemainder(fractions);
      expect(shares.reduce((a, b) => a + b, 0)).toBe(100);
      shares.forEach((share, i) => expect(Math.abs(share - fractions[i]! * 100)).toBeLessThan(1));
    }
  });
});
