import { HERITAGE_GROUP_IDS } from '../heritage/groups.js';
import { type LinearHead, fitTemperature, headLogits, softmax, trainSoftmax } from '../heritage/softmax-regression.js';
import type { DisplayThresholds } from '../heritage/heritage-model.js';
import { chooseDisplayThresholds } from './display-thresholds.js';
import { type FeatureCache, type FeatureSet, type ViewId, featureMatrix } from './feature-cache.js';

export const CLASS_COUNT = HERITAGE_GROUP_IDS.length;
export const CV_SEED = 20260521;
export const OUTER_FOLDS = 5;
export const INNER_FOLDS = 3;
export const LAMBDA_GRID = [0.3, 1, 3, 10] as const;
export const AUGMENT_VIEWS: readonly ViewId[] = ['original', 'flip', 'crop_tl', 'crop_br'];

/** One dev image with the cache rows of each of its views. */
export interface ImageEntry {
  file: string;
  label: number;
  views: Map<ViewId, number>;
}

export function groupByImage(cache: FeatureCache): ImageEntry[] {
  const byFile = new Map<string, ImageEntry>();
  cache.rows.forEach((row, index) => {
    let entry = byFile.get(row.file);
    if (!entry) {
      entry = { file: row.file, label: row.label, views: new Map() };
      byFile.set(row.file, entry);
    }
    entry.views.set(row.view, index);
  });
  return [...byFile.values()].filter((entry) => entry.views.has('original'));
}

function mulberry32(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Fold number per entry; each class is shuffled with a fixed seed and dealt round-robin. */
export function stratifiedFolds(labels: number[], folds: number, seed: number): number[] {
  const random = mulberry32(seed);
  const assignment = new Array<number>(labels.length).fill(0);
  for (let c = 0; c < CLASS_COUNT; c++) {
    const members = labels.flatMap((label, index) => (label === c ? [index] : []));
    for (let i = members.length - 1; i > 0; i--) {
      const j = Math.floor(random() * (i + 1));
      [members[i], members[j]] = [members[j]!, members[i]!];
    }
    members.forEach((member, position) => {
      assignment[member] = (position + c) % folds;
    });
  }
  return assignment;
}

/** The cache's rows as the features a head reads (see FEATURE_SETS). */
export interface Features {
  size: number;
  data: Float32Array;
}

export function featuresOf(cache: FeatureCache, set: FeatureSet): Features {
  return featureMatrix(cache, set);
}

function descriptorAt(features: Features, row: number): Float32Array {
  return features.data.subarray(row * features.size, (row + 1) * features.size);
}

function trainingMatrix(features: Features, entries: ImageEntry[], views: readonly ViewId[]) {
  const rows: number[] = [];
  const labels: number[] = [];
  for (const entry of entries) {
    for (const view of views) {
      const row = entry.views.get(view);
      if (row === undefined) continue;
      rows.push(row);
      labels.push(entry.label);
    }
  }
  const x = new Float32Array(rows.length * features.size);
  rows.forEach((row, i) => x.set(descriptorAt(features, row), i * features.size));
  return { x, labels, count: rows.length };
}

export interface FittedHead {
  head: LinearHead;
  temperature: number;
  lambda: number;
  /** Display thresholds chosen on the inner folds' held-out probabilities. */
  display: DisplayThresholds;
}

export interface FitOptions {
  views: readonly ViewId[];
  /** View used as the image's own row (the evaluation and inner-validation view). */
  evalView: ViewId;
  lambdas: readonly number[];
  seed: number;
}

/** Chooses lambda and temperature by inner CV on `entries` only, then fits on all of them. */
export function fitWithInnerCv(features: Features, entries: ImageEntry[], options: FitOptions): FittedHead {
  const innerFolds = stratifiedFolds(
    entries.map((e) => e.label),
    INNER_FOLDS,
    options.seed,
  );
  const outOfFold = options.lambdas.map(() => new Array<Float64Array>(entries.length));
  for (let fold = 0; fold < INNER_FOLDS; fold++) {
    const train = entries.filter((_, i) => innerFolds[i] !== fold);
    const matrix = trainingMatrix(features, train, options.views);
    let previous: LinearHead | undefined;
    // Strongest regularisation first, then warm-start the weaker ones.
    const order = options.lambdas.map((lambda, index) => ({ lambda, index })).sort((a, b) => b.lambda - a.lambda);
    for (const { lambda, index } of order) {
      const head = trainSoftmax(matrix.x, matrix.labels, matrix.count, features.size, CLASS_COUNT, {
        lambda,
        iterations: previous ? 60 : 120,
        ...(previous ? { init: previous } : {}),
      });
      previous = head;
      entries.forEach((entry, i) => {
        if (innerFolds[i] !== fold) return;
        const row = entry.views.get(options.evalView) ?? entry.views.get('original')!;
        outOfFold[index]![i] = headLogits(head, descriptorAt(features, row));
      });
    }
  }
  const labels = entries.map((e) => e.label);
  let best = { lambda: options.lambdas[0]!, temperature: 1, nll: Infinity };
  options.lambdas.forEach((lambda, index) => {
    const logits = outOfFold[index]!;
    const temperature = fitTemperature(logits, labels);
    const nll = logits.reduce((sum, l, i) => sum - Math.log(Math.max(1e-12, softmax(l, temperature)[labels[i]!]!)), 0);
    if (nll < best.nll) best = { lambda, temperature, nll };
  });
  const bestIndex = options.lambdas.indexOf(best.lambda);
  const display = chooseDisplayThresholds(
    outOfFold[bestIndex]!.map((logits) => softmax(logits, best.temperature)),
    labels,
  );
  const matrix = trainingMatrix(features, entries, options.views);
  const head = trainSoftmax(matrix.x, matrix.labels, matrix.count, features.size, CLASS_COUNT, { lambda: best.lambda, iterations: 150 });
  return { head, temperature: best.temperature, lambda: best.lambda, display };
}

export interface CrossValidated {
  entries: ImageEntry[];
  folds: number[];
  /** Calibrated probabilities per entry, per evaluated view. */
  probabilities: Map<ViewId, (Float64Array | undefined)[]>;
  chosen: { lambda: number; temperature: number; display: DisplayThresholds }[];
  /** The display thresholds of the fold each entry was held out in. */
  displayOf: DisplayThresholds[];
}

/** Outer stratified 5-fold CV; every choice (lambda, temperature) is made inside each fold. */
export function crossValidate(
  cache: FeatureCache,
  options: {
    features?: FeatureSet;
    views?: readonly ViewId[];
    evalView?: ViewId;
    reportViews?: readonly ViewId[];
    log?: (line: string) => void;
  } = {},
): CrossValidated {
  const entries = groupByImage(cache);
  const features = featuresOf(cache, options.features ?? 'faceres');
  const folds = stratifiedFolds(
    entries.map((e) => e.label),
    OUTER_FOLDS,
    CV_SEED,
  );
  const evalView = options.evalView ?? 'original';
  const reportViews = options.reportViews ?? [evalView, 'flip', 'crop_tl', 'crop_br'];
  const probabilities = new Map<ViewId, (Float64Array | undefined)[]>(reportViews.map((view) => [view, new Array(entries.length)]));
  const chosen: CrossValidated['chosen'] = [];
  const displayOf = new Array<DisplayThresholds>(entries.length);
  for (let fold = 0; fold < OUTER_FOLDS; fold++) {
    const train = entries.filter((_, i) => folds[i] !== fold);
    const fitted = fitWithInnerCv(features, train, {
      views: options.views ?? AUGMENT_VIEWS,
      evalView,
      lambdas: LAMBDA_GRID,
      seed: CV_SEED + fold + 1,
    });
    chosen.push({ lambda: fitted.lambda, temperature: fitted.temperature, display: fitted.display });
    options.log?.(
      `fold ${fold + 1}/${OUTER_FOLDS}: lambda ${fitted.lambda}, temperature ${fitted.temperature.toFixed(2)}, fine >= ${fitted.display.fine}, coarse >= ${fitted.display.coarse}`,
    );
    entries.forEach((entry, i) => {
      if (folds[i] !== fold) return;
      displayOf[i] = fitted.display;
      for (const view of reportViews) {
        const row = entry.views.get(view);
        if (row === undefined) continue;
        probabilities.get(view)![i] = softmax(headLogits(fitted.head, descriptorAt(features, row)), fitted.temperature);
      }
    });
  }
  return { entries, folds, probabilities, chosen, displayOf };
}
