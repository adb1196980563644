import { describe, expect, it } from 'vitest';
import { flipAveragedMap, headFeatures } from './features.js';

describe('head features', () => {
  const parts = {
    faceres: [1, 2, 3],
    faceresFlip: [3, 2, 1],
    recognition: [10, 20],
    recognitionFlip: [30, 40],
  };

  it('reads faceres alone, or faceres then the recognition descriptor', () => {
    expect(Array.from(headFeatures('faceres', parts))).toEqual([1, 2, 3]);
    expect(Array.from(headFeatures('faceres+recognition', parts))).toEqual([1, 2, 3, 10, 20]);
  });

  it('averages each descriptor with its mirror for -flipavg', () => {
    expect(Array.from(headFeatures('faceres-flipavg', parts))).toEqual([2, 2, 2]);
    expect(Array.from(headFeatures('faceres+recognition-flipavg', parts))).toEqual([2, 2, 2, 20, 30]);
  });

  it('refuses to build a set whose descriptors were not measured', () => {
    expect(() => headFeatures('faceres-flipavg', { faceres: [1] })).toThrow(/mirrored/);
    expect(() => headFeatures('faceres+recognition', { faceres: [1] })).toThrow(/recognition/);
  });

  it('puts the mirrored map back in place, so pooling it gives the flip-averaged descriptor', () => {
    // A 1 x 2 grid of 1 channel is not square; use a 2 x 2 grid, one channel.
    const map = Float32Array.from([1, 2, 3, 4]);
    const mirrored = Float32Array.from([20, 10, 40, 30]); // the same face seen mirrored: columns swapped, x10
    const averaged = flipAveragedMap(map, mirrored, 2, 1);
    expect(Array.from(averaged)).toEqual([5.5, 11, 16.5, 22]);
    const pooled = averaged.reduce((a, b) => a + b, 0) / 4;
    expect(pooled).toBeCloseTo((2.5 + 25) / 2);
  });
});
