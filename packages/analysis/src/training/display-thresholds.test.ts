import { describe, expect, it } from 'vitest';
import { displayLevel } from '../heritage/estimate.js';
import { HERITAGE_GROUP_IDS } from '../heritage/groups.js';
import { NEVER, chooseDisplayThresholds } from './display-thresholds.js';

const WHITE = HERITAGE_GROUP_IDS.indexOf('white');
const MIDDLE_EASTERN = HERITAGE_GROUP_IDS.indexOf('middle_eastern');
const BLACK = HERITAGE_GROUP_IDS.indexOf('black');

/** Probabilities with `top` on `group` and the rest spread over `second` (or evenly). */
function probabilities(group: number, top: number, second?: number): Float64Array {
  const p = new Float64Array(HERITAGE_GROUP_IDS.length).fill(second === undefined ? (1 - top) / 6 : 0);
  p[group] = top;
  if (second !== undefined) p[second] = 1 - top;
  return p;
}

describe('display thresholds chosen on held-out answers', () => {
  it('opens "fine" at the lowest threshold whose answers were right at least 85 % of the time', () => {
    // 20 faces at 0.9 (all right), 20 at 0.7 (half right), 20 at 0.5 (a quarter right).
    const cases = [
      ...Array.from({ length: 20 }, () => ({ p: probabilities(WHITE, 0.9), label: WHITE })),
      ...Array.from({ length: 20 }, (_, i) => ({ p: probabilities(WHITE, 0.7), label: i % 2 === 0 ? WHITE : BLACK })),
      ...Array.from({ length: 20 }, (_, i) => ({ p: probabilities(WHITE, 0.5), label: i % 4 === 0 ? WHITE : BLACK })),
    ];
    const thresholds = chooseDisplayThresholds(
      cases.map((c) => c.p),
      cases.map((c) => c.label),
    );
    // >= 0.7 would be 30/40 = 75 % right; >= 0.75 keeps only the 0.9 faces.
    expect(thresholds.fine).toBe(0.75);
    expect(displayLevel(thresholds, probabilities(WHITE, 0.9))).toBe('fine');
    expect(displayLevel(thresholds, probabilities(WHITE, 0.7))).not.toBe('fine');
  });

  it('opens "coarse" where the merged group is right although the fine one is not', () => {
    // White vs Middle Eastern split evenly: the fine group is a coin toss, the coarse group always right.
    const cases = Array.from({ length: 30 }, (_, i) => ({
      p: probabilities(WHITE, 0.5, MIDDLE_EASTERN),
      label: i % 2 === 0 ? WHITE : MIDDLE_EASTERN,
    }));
    const thresholds = chooseDisplayThresholds(
      cases.map((c) => c.p),
      cases.map((c) => c.label),
    );
    expect(thresholds.fine).toBe(NEVER);
    expect(thresholds.coarse).toBeLessThanOrEqual(1);
    expect(displayLevel(thresholds, probabilities(WHITE, 0.5, MIDDLE_EASTERN))).toBe('coarse');
  });

  it('never opens a level that no threshold earns', () => {
    const cases = Array.from({ length: 30 }, (_, i) => ({ p: probabilities(WHITE, 0.95), label: i % 3 === 0 ? WHITE : BLACK }));
    const thresholds = chooseDisplayThresholds(
      cases.map((c) => c.p),
      cases.map((c) => c.label),
    );
    expect(thresholds).toEqual({ fine: NEVER, coarse: NEVER });
    expect(displayLevel(thresholds, probabilities(WHITE, 0.95))).toBe('uncertain');
  });
});
