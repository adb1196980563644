import { COARSE_GROUPS, groupedProbabilities } from '../heritage/groups.js';
import type { DisplayThresholds } from '../heritage/heritage-model.js';
import { argmax, groupIndexOf } from './metrics.js';

/** What each display level must earn in held-out data: "fine" right this often, "coarse" this often. */
export const FINE_TARGET = 0.85;
export const COARSE_TARGET = 0.8;
/** Candidate thresholds on the top (fine or coarse) probability. */
export const THRESHOLD_GRID = Array.from({ length: 13 }, (_, i) => Math.round((0.4 + i * 0.05) * 100) / 100);
/** A level is only opened when at least this many held-out faces support it. */
export const MIN_SUPPORT = 8;
/** Never shown: above any probability. */
export const NEVER = 1.01;

/**
 * The lowest thresholds whose held-out answers meet the targets. `probabilities` must be
 * out-of-fold (never the data the head was fitted on). "fine": the top group's probability;
 * "coarse": among faces below the fine threshold, the top coarse group's probability.
 */
export function chooseDisplayThresholds(probabilities: Float64Array[], labels: number[]): DisplayThresholds {
  const coarse = [...COARSE_GROUPS];
  const top = probabilities.map((p) => Math.max(...p));
  const right = probabilities.map((p, i) => argmax(p) === labels[i]);
  let fine = NEVER;
  for (const threshold of THRESHOLD_GRID) {
    const chosen = top.flatMap((value, i) => (value >= threshold ? [i] : []));
    if (chosen.length < MIN_SUPPORT) continue;
    if (chosen.filter((i) => right[i]).length / chosen.length >= FINE_TARGET) {
      fine = threshold;
      break;
    }
  }
  const coarseTop = probabilities.map((p) => Math.max(...groupedProbabilities(coarse, p)));
  const coarseRight = probabilities.map((p, i) => argmax(groupedProbabilities(coarse, p)) === groupIndexOf(coarse, labels[i]!));
  let coarseThreshold = NEVER;
  for (const threshold of THRESHOLD_GRID) {
    const chosen = coarseTop.flatMap((value, i) => (top[i]! < fine && value >= threshold ? [i] : []));
    if (chosen.length < MIN_SUPPORT) continue;
    if (chosen.filter((i) => coarseRight[i]).length / chosen.length >= COARSE_TARGET) {
      coarseThreshold = threshold;
      break;
    }
  }
  return { fine, coarse: coarseThreshold };
}
