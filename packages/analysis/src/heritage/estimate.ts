import {
  COARSE_GROUPS,
  type CoarseGroupId,
  HERITAGE_GROUP_IDS,
  HERITAGE_GROUP_LABELS,
  type HeritageGroupId,
  groupedProbabilities,
} from './groups.js';
import type { DisplayThresholds, HeritageModel } from './heritage-model.js';
import { headLogits, softmax } from './softmax-regression.js';

export type ConfidenceLevel = 'high' | 'medium' | 'low';
/** What the product should show: fine groups, only coarse groups, or "we're not sure". */
export type HeritageDisplay = 'fine' | 'coarse' | 'uncertain';

export interface HeritageGroupShare {
  id: HeritageGroupId;
  label: string;
  /** Integer percentage; all seven sum to exactly 100. */
  share: number;
  /** Calibrated probability, 0..1 (unrounded share). */
  probability: number;
  /** How often, in cross-validation, a group given this much share was the labelled group (0..1). */
  confidence: number;
}

export interface CoarseGroupShare {
  id: CoarseGroupId;
  label: string;
  members: HeritageGroupId[];
  share: number;
  probability: number;
}

export interface HeritageEstimate {
  /** Sorted by share, largest first. */
  groups: HeritageGroupShare[];
  top: HeritageGroupId;
  confidenceLevel: ConfidenceLevel;
  uncertain: boolean;
  display: HeritageDisplay;
  coarse: { groups: CoarseGroupShare[]; top: CoarseGroupId };
  /** Plain-words reminder of what this is. */
  disclaimer: string;
}

export const HERITAGE_DISCLAIMER =
  'This is an entertainment estimate of visual resemblance to photos in a public research dataset. It does not tell you your ancestry, ethnicity or race.';

/** Largest-remainder rounding of fractions to integers that sum to `total`. */
export function largestRemainder(fractions: number[], total = 100): number[] {
  const raw = fractions.map((f) => f * total);
  const floors = raw.map(Math.floor);
  let remaining = total - floors.reduce((a, b) => a + b, 0);
  const order = raw.map((r, i) => ({ i, remainder: r - Math.floor(r) })).sort((a, b) => b.remainder - a.remainder || a.i - b.i);
  for (const { i } of order) {
    if (remaining <= 0) break;
    floors[i]! += 1;
    remaining -= 1;
  }
  return floors;
}

/** The display level the thresholds give these probabilities. */
export function displayLevel(thresholds: DisplayThresholds, probabilities: ArrayLike<number>): HeritageDisplay {
  const values = Array.from(probabilities);
  if (Math.max(...values) >= thresholds.fine) return 'fine';
  if (Math.max(...groupedProbabilities(COARSE_GROUPS, values)) >= thresholds.coarse) return 'coarse';
  return 'uncertain';
}

/** The confidence word that goes with each display level: high only where a named group was earned. */
export const CONFIDENCE_OF_DISPLAY: Record<HeritageDisplay, ConfidenceLevel> = { fine: 'high', coarse: 'medium', uncertain: 'low' };

function reliabilityOf(model: HeritageModel, group: number, probability: number): number {
  const { edges, table } = model.reliability;
  let bin = edges.length - 2;
  for (let b = 0; b < edges.length - 1; b++) {
    if (probability < edges[b + 1]!) {
      bin = b;
      break;
    }
  }
  return table[group]?.[bin] ?? probability;
}

export function calibratedProbabilities(model: HeritageModel, descriptor: ArrayLike<number>): Float64Array {
  return softmax(headLogits(model.head, descriptor), model.temperature);
}

export function estimateHeritage(model: HeritageModel, probabilities: Float64Array): HeritageEstimate {
  const values = Array.from(probabilities);
  const shares = largestRemainder(values);
  const groups = HERITAGE_GROUP_IDS.map((id, i) => ({
    id,
    label: HERITAGE_GROUP_LABELS[id],
    share: shares[i]!,
    probability: values[i]!,
    confidence: Math.round(reliabilityOf(model, i, values[i]!) * 100) / 100,
  })).sort((a, b) => b.probability - a.probability);

  const coarseProbabilities = groupedProbabilities(COARSE_GROUPS, values);
  const coarseShares = largestRemainder(coarseProbabilities);
  const coarseGroups = COARSE_GROUPS.map((group, i) => ({
    id: group.id,
    label: group.label,
    members: [...group.members],
    share: coarseShares[i]!,
    probability: coarseProbabilities[i]!,
  })).sort((a, b) => b.probability - a.probability);

  const display = displayLevel(model.display, values);
  const coarseTop = coarseGroups[0]!;
  return {
    groups,
    top: groups[0]!.id,
    confidenceLevel: CONFIDENCE_OF_DISPLAY[display],
    uncertain: display === 'uncertain',
    display,
    coarse: { groups: coarseGroups, top: coarseTop.id },
    disclaimer: HERITAGE_DISCLAIMER,
  };
}
