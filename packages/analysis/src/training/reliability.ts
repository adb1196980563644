import { CLASS_COUNT } from './cross-validation.js';

export const RELIABILITY_EDGES = [0, 0.05, 0.15, 0.3, 0.5, 0.7, 1.0001];

/** Per group and probability bin: smoothed share of held-out images where that group was the label. */
export function reliabilityTable(probabilities: Float64Array[], labels: number[]): number[][] {
  const bins = RELIABILITY_EDGES.length - 1;
  return Array.from({ length: CLASS_COUNT }, (_, group) => {
    const hits = new Array<number>(bins).fill(0);
    const totals = new Array<number>(bins).fill(0);
    const sums = new Array<number>(bins).fill(0);
    probabilities.forEach((p, i) => {
      const value = p[group]!;
      const bin = RELIABILITY_EDGES.findIndex((edge, b) => b < bins && value < RELIABILITY_EDGES[b + 1]!);
      totals[bin]! += 1;
      sums[bin]! += value;
      if (labels[i] === group) hits[bin]! += 1;
    });
    // Shrink towards the bin's mean probability with a prior weight of 5 images.
    return hits.map((hit, b) => {
      const prior = totals[b]! > 0 ? sums[b]! / totals[b]! : (RELIABILITY_EDGES[b]! + Math.min(1, RELIABILITY_EDGES[b + 1]!)) / 2;
      return Math.round(((hit + 5 * prior) / (totals[b]! + 5)) * 1000) / 1000;
    });
  });
}
