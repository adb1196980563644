import { COARSE_GROUPS, HERITAGE_GROUP_IDS, type HeritageGroupId, groupedProbabilities } from '../heritage/groups.js';

export interface Interval {
  value: number;
  low: number;
  high: number;
}

/** Wilson score interval for k successes out of n (95 %). */
export function wilson(successes: number, trials: number, z = 1.96): Interval {
  if (trials === 0) return { value: 0, low: 0, high: 0 };
  const p = successes / trials;
  const denominator = 1 + (z * z) / trials;
  const centre = (p + (z * z) / (2 * trials)) / denominator;
  const margin = (z * Math.sqrt((p * (1 - p)) / trials + (z * z) / (4 * trials * trials))) / denominator;
  return { value: p, low: Math.max(0, centre - margin), high: Math.min(1, centre + margin) };
}

export function argmax(values: ArrayLike<number>): number {
  let best = 0;
  for (let i = 1; i < values.length; i++) if (values[i]! > values[best]!) best = i;
  return best;
}

/** Expected calibration error of the top-1 confidence, equal-width bins. */
export function expectedCalibrationError(probabilities: Float64Array[], labels: number[], bins = 10): number {
  const count = new Array<number>(bins).fill(0);
  const confidence = new Array<number>(bins).fill(0);
  const correct = new Array<number>(bins).fill(0);
  probabilities.forEach((p, i) => {
    const top = argmax(p);
    const bin = Math.min(bins - 1, Math.floor(p[top]! * bins));
    count[bin]! += 1;
    confidence[bin]! += p[top]!;
    correct[bin]! += top === labels[i] ? 1 : 0;
  });
  let ece = 0;
  for (let b = 0; b < bins; b++) if (count[b]! > 0) ece += Math.abs(confidence[b]! - correct[b]!);
  return ece / probabilities.length;
}

/** Percentile bootstrap (95 %) of a statistic over items, fixed seed. */
export function bootstrap<T>(items: T[], statistic: (sample: T[]) => number, resamples = 500, seed = 7): Interval {
  let state = seed;
  const random = () => {
    state = (state * 1103515245 + 12345) % 2147483648;
    return state / 2147483648;
  };
  const values: number[] = [];
  for (let r = 0; r < resamples; r++) {
    const sample = items.map(() => items[Math.floor(random() * items.length)]!);
    values.push(statistic(sample));
  }
  values.sort((a, b) => a - b);
  return { value: statistic(items), low: values[Math.floor(0.025 * resamples)]!, high: values[Math.floor(0.975 * resamples)]! };
}

/**
 * Four-group task: White, Black, Asian (east + southeast), Indian. Latino/Hispanic and Middle
 * Eastern images are left out (they have no counterpart among the four); the prediction is the
 * largest of the four summed probabilities, ignoring the mass on the two left-out groups.
 */
export const FOUR_GROUPS: { id: string; members: HeritageGroupId[] }[] = [
  { id: 'white', members: ['white'] },
  { id: 'black', members: ['black'] },
  { id: 'asian', members: ['east_asian', 'southeast_asian'] },
  { id: 'indian', members: ['indian'] },
];

export function groupIndexOf(groups: { members: readonly HeritageGroupId[] }[], classIndex: number): number {
  const id = HERITAGE_GROUP_IDS[classIndex]!;
  return groups.findIndex((group) => group.members.includes(id));
}

export interface AccuracyReport {
  images: number;
  top1: Interval;
  perGroupRecall: Record<HeritageGroupId, Interval>;
  fourGroupTop1: Interval & { images: number };
  coarseGroupTop1: Interval;
  ece: Interval;
  eceUncalibratedNote?: string;
  stability: Interval & { images: number };
  /** Same, for the top coarse group (what the product shows when the fine estimate is uncertain). */
  coarseStability: Interval;
  confusion: number[][];
  /**
   * Risk-coverage by display level: share of faces shown that level, and how often the fine top
   * group and the coarse top group were right among them.
   */
  byDisplay: Record<string, { faces: number; share: Interval; top1: Interval; coarseTop1: Interval }>;
}

export function accuracyReport(
  probabilities: Float64Array[],
  labels: number[],
  stabilityViews: (Float64Array | undefined)[][],
  displayOf: (p: Float64Array, index: number) => string,
): AccuracyReport {
  const n = probabilities.length;
  const predicted = probabilities.map((p) => argmax(p));
  const correct = predicted.filter((p, i) => p === labels[i]).length;
  const confusion = HERITAGE_GROUP_IDS.map(() => new Array<number>(HERITAGE_GROUP_IDS.length).fill(0));
  predicted.forEach((p, i) => {
    confusion[labels[i]!]![p]! += 1;
  });
  const perGroupRecall = Object.fromEntries(
    HERITAGE_GROUP_IDS.map((id, c) => {
      const total = labels.filter((l) => l === c).length;
      return [id, wilson(confusion[c]![c]!, total)];
    }),
  ) as Record<HeritageGroupId, Interval>;

  let fourCorrect = 0;
  let fourTotal = 0;
  probabilities.forEach((p, i) => {
    const truth = groupIndexOf(FOUR_GROUPS, labels[i]!);
    if (truth < 0) return;
    fourTotal += 1;
    if (argmax(groupedProbabilities(FOUR_GROUPS, p)) === truth) fourCorrect += 1;
  });
  const coarse = [...COARSE_GROUPS];
  const coarseCorrect = probabilities.filter((p, i) => argmax(groupedProbabilities(coarse, p)) === groupIndexOf(coarse, labels[i]!)).length;

  const items = probabilities.map((p, i) => ({ p, label: labels[i]! }));
  const ece = bootstrap(items, (sample) =>
    expectedCalibrationError(
      sample.map((s) => s.p),
      sample.map((s) => s.label),
    ),
  );

  let stable = 0;
  let coarseStable = 0;
  let stabilityTotal = 0;
  probabilities.forEach((p, i) => {
    const views = stabilityViews.map((view) => view[i]);
    if (views.some((view) => view === undefined)) return;
    stabilityTotal += 1;
    const top = argmax(p);
    if (views.every((view) => argmax(view!) === top)) stable += 1;
    const coarseTop = argmax(groupedProbabilities(coarse, p));
    if (views.every((view) => argmax(groupedProbabilities(coarse, view!)) === coarseTop)) coarseStable += 1;
  });

  const byDisplay: AccuracyReport['byDisplay'] = {};
  const levels = probabilities.map((p, i) => displayOf(p, i));
  for (const level of ['fine', 'coarse', 'uncertain']) {
    const members = items.filter((_, i) => levels[i] === level);
    byDisplay[level] = {
      faces: members.length,
      share: wilson(members.length, n),
      top1: wilson(members.filter((m) => argmax(m.p) === m.label).length, members.length),
      coarseTop1: wilson(
        members.filter((m) => argmax(groupedProbabilities(coarse, m.p)) === groupIndexOf(coarse, m.label)).length,
        members.length,
      ),
    };
  }

  return {
    images: n,
    top1: wilson(correct, n),
    perGroupRecall,
    fourGroupTop1: { ...wilson(fourCorrect, fourTotal), images: fourTotal },
    coarseGroupTop1: wilson(coarseCorrect, n),
    ece,
    stability: { ...wilson(stable, stabilityTotal), images: stabilityTotal },
    coarseStability: wilson(coarseStable, stabilityTotal),
    confusion,
    byDisplay,
  };
}
