/**
 * Trains the heritage head on the dev set and writes models/heritage-head.json and
 * models/trait-norms.json. Usage: npx tsx scripts/train.ts [--features=<set>] [--heritage-only] [--out=<dir>] [datasetDir]
 * (or ROOTS_DATASET_DIR). Features are cached in .cache/ (not shipped).
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { findFaces } from '../src/face-stage.js';
import { decodeImage } from '../src/image/decode.js';
import { FaceEngine, CROP_SCALE } from '../src/inference/face-engine.js';
import { displayLevel } from '../src/heritage/estimate.js';
import { HERITAGE_GROUP_IDS } from '../src/heritage/groups.js';
import { FEATURE_SETS, type FeatureSet, type HeritageModelFile } from '../src/heritage/heritage-model.js';
import { TRAIT_DEFINITIONS, measureTraits } from '../src/traits/traits.js';
import {
  AUGMENT_VIEWS,
  CV_SEED,
  LAMBDA_GRID,
  crossValidate,
  featuresOf,
  fitWithInnerCv,
  groupByImage,
} from '../src/training/cross-validation.js';
import { chooseDisplayThresholds } from '../src/training/display-thresholds.js';
import { datasetDir, readLabels } from '../src/training/dataset.js';
import { loadOrBuildCache } from '../src/training/feature-cache.js';
import { accuracyReport } from '../src/training/metrics.js';
import { RELIABILITY_EDGES, reliabilityTable } from '../src/training/reliability.js';

const args = process.argv.slice(2);
/** The feature set ADR 092 chose by cross-validation; `--features=` trains another. */
const features = (args.find((a) => a.startsWith('--features='))?.slice('--features='.length) ?? 'faceres') as FeatureSet;
if (!FEATURE_SETS.includes(features)) throw new Error(`--features must be one of ${FEATURE_SETS.join(', ')}`);
const MODEL_VERSION = `roots-heritage-2.0.0+${features}-crop${CROP_SCALE}`;
const dir = datasetDir(args.find((a) => !a.startsWith('--')));
/** `--out=<dir>` writes the models elsewhere (e.g. a candidate for `ROOTS_ANALYSIS_MODELS_DIR`). */
const modelsDir = path.resolve(args.find((a) => a.startsWith('--out='))?.slice('--out='.length) ?? 'models');
const log = (line: string) => console.error(line);

log(`dataset: ${dir}`);
const cache = await loadOrBuildCache(dir);
log(`features: ${cache.rows.length} rows; no face in ${cache.missing.length} images`);

// 1. Outer CV: honest estimate, and the held-out probabilities for the per-group reliability table.
const cv = crossValidate(cache, { features, log });
const labels = cv.entries.map((e) => e.label);
const original = cv.probabilities.get('original')!.map((p) => p!);
const report = accuracyReport(
  original,
  labels,
  (['flip', 'crop_tl', 'crop_br'] as const).map((v) => cv.probabilities.get(v)!),
  (p, i) => displayLevel(cv.displayOf[i]!, p),
);
// The shipped thresholds: chosen on every image's held-out probability.
const display = chooseDisplayThresholds(original, labels);
log(
  `CV top-1 ${(report.top1.value * 100).toFixed(1)}%, ECE ${report.ece.value.toFixed(3)}, stability ${(report.stability.value * 100).toFixed(1)}%`,
);

// 2. Final head on every image; lambda and temperature again by inner CV.
const final = fitWithInnerCv(featuresOf(cache, features), groupByImage(cache), {
  views: AUGMENT_VIEWS,
  evalView: 'original',
  lambdas: LAMBDA_GRID,
  seed: CV_SEED,
});
const round = (value: number) => Number(value.toPrecision(6));
const { head } = final;
const file: HeritageModelFile = {
  modelVersion: MODEL_VERSION,
  groups: [...HERITAGE_GROUP_IDS],
  descriptor: {
    model:
      '@vladmandic/human models/faceres.json (global_pooling/Mean); @vladmandic/face-api model/face_recognition_model when features has recognition',
    cropScale: CROP_SCALE,
    features,
  },
  mean: Array.from(head.mean, round),
  scale: Array.from(head.scale, round),
  weights: HERITAGE_GROUP_IDS.map((_, c) => Array.from(head.weights.subarray(c * head.features, (c + 1) * head.features), round)),
  bias: Array.from(head.bias, round),
  temperature: round(final.temperature),
  lambda: final.lambda,
  reliability: { edges: RELIABILITY_EDGES, table: reliabilityTable(original, labels) },
  display,
  training: {
    dataset: 'FairFace dev subset (335 images, CC BY 4.0), see models/LICENSE-FairFace.md',
    images: cv.entries.length,
    views: AUGMENT_VIEWS,
    cvTop1: round(report.top1.value),
    cvEce: round(report.ece.value),
  },
};
await mkdir(modelsDir, { recursive: true });
await writeFile(path.join(modelsDir, 'heritage-head.json'), JSON.stringify(file));
log(
  `wrote models/heritage-head.json (${features}, lambda ${final.lambda}, temperature ${final.temperature.toFixed(3)}, fine >= ${display.fine}, coarse >= ${display.coarse})`,
);

// 3. Trait norms: deciles of each raw mesh measurement over the dev faces (`--heritage-only` keeps
// the current file: one more detection pass over the set, for norms that move little).
if (args.includes('--heritage-only')) process.exit(0);
const engine = await FaceEngine.create();
const measured: Record<string, number[]> = Object.fromEntries(TRAIT_DEFINITIONS.map((t) => [t.id, []]));
for (const item of await readLabels(dir)) {
  const decoded = await decodeImage(await readFile(path.join(dir, item.file)));
  if (!decoded.ok) continue;
  const face = (await findFaces(engine, decoded.image)).faces[0];
  if (!face) continue;
  for (const [id, value] of Object.entries(measureTraits(face))) measured[id]!.push(value);
}
const norms = Object.fromEntries(
  Object.entries(measured).map(([id, values]) => {
    const sorted = values.sort((a, b) => a - b);
    return [
      id,
      Array.from({ length: 11 }, (_, d) => round(sorted[Math.min(sorted.length - 1, Math.round((d / 10) * (sorted.length - 1)))]!)),
    ];
  }),
);
await writeFile(path.join(modelsDir, 'trait-norms.json'), JSON.stringify(norms, null, 1));
log('wrote models/trait-norms.json');
