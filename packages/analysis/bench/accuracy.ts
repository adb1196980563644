/**
 * What a customer meets on the dev set: refusals per error code over every dev photo, then the
 * heritage head's 5-fold cross-validated accuracy (stratified, fixed seed; lambda, temperature
 * and the display thresholds chosen inside each training fold) on the photos that are answered,
 * with a risk-coverage table per display level.
 * Usage: npx tsx bench/accuracy.ts [--json] [--compare] [--ablations] [--features=<set>] [--views=<list>] [datasetDir]
 * `--compare` runs every feature set (faceres, + recognition descriptor, flip-averaged);
 * `--views=original` trains on each image's own view only (no augmentation: 4x faster).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { ANALYSIS_ERROR_MESSAGES, type AnalysisErrorCode } from '@roots/contracts/messages';
import { displayLevel } from '../src/heritage/estimate.js';
import { HERITAGE_GROUP_IDS } from '../src/heritage/groups.js';
import { FEATURE_SETS, type FeatureSet, type HeritageModelFile, modelsDir } from '../src/heritage/heritage-model.js';
import { type CrossValidated, crossValidate } from '../src/training/cross-validation.js';
import { datasetDir } from '../src/training/dataset.js';
import { THRESHOLD_GRID } from '../src/training/display-thresholds.js';
import { type ViewId, loadOrBuildCache, recordedRefusal } from '../src/training/feature-cache.js';
import { type AccuracyReport, type Interval, accuracyReport, argmax, wilson } from '../src/training/metrics.js';

const args = process.argv.slice(2);
const json = args.includes('--json');
const compare = args.includes('--compare');
const ablations = args.includes('--ablations');
const shipped = (JSON.parse(readFileSync(path.join(modelsDir(), 'heritage-head.json'), 'utf8')) as HeritageModelFile).descriptor.features;
const features = (args.find((a) => a.startsWith('--features='))?.slice('--features='.length) ?? shipped ?? 'faceres') as FeatureSet;
if (!FEATURE_SETS.includes(features)) throw new Error(`--features must be one of ${FEATURE_SETS.join(', ')}`);
const views = args
  .find((a) => a.startsWith('--views='))
  ?.slice('--views='.length)
  .split(',') as ViewId[] | undefined;
const cache = await loadOrBuildCache(datasetDir(args.find((a) => !a.startsWith('--'))));
const log = (line: string) => console.error(line);

// 1. Refusals: the gates' verdict on every dev photo as it is.
const refusedBy = new Map(cache.photos.map((photo) => [photo.file, recordedRefusal(photo)]));
const photoCount = cache.photos.length;
const refusalCounts: Partial<Record<AnalysisErrorCode, number>> = {};
for (const code of refusedBy.values()) if (code) refusalCounts[code] = (refusalCounts[code] ?? 0) + 1;
const refusedTotal = Object.values(refusalCounts).reduce((sum, count) => sum + count, 0);
const refusals = {
  photos: photoCount,
  refused: wilson(refusedTotal, photoCount),
  byCode: Object.fromEntries(Object.entries(refusalCounts).map(([code, count]) => [code, { count, ...wilson(count, photoCount) }])),
  files: Object.fromEntries(
    Object.keys(refusalCounts).map((code) => [code, cache.photos.filter((photo) => refusedBy.get(photo.file) === code).map((p) => p.file)]),
  ),
};

interface Evaluation {
  features: FeatureSet;
  /** On answered photos. */
  report: AccuracyReport;
  /** Answered and right, over every dev photo (refusals and faceless photos count as misses). */
  top1AllPhotos: Interval;
  /** Display levels over every dev photo (refused ones are their own level). */
  displayAllPhotos: Record<string, Interval>;
  thresholds: CrossValidated['chosen'];
  sweep: { threshold: number; coverage: number; top1: number }[];
}

function evaluate(set: FeatureSet, options: { views?: readonly ViewId[] } = {}): Evaluation {
  const cv = crossValidate(cache, { features: set, ...options, log });
  const answered = cv.entries.flatMap((entry, i) => (refusedBy.get(entry.file) === undefined ? [i] : []));
  const pick = <T>(values: T[]) => answered.map((i) => values[i]!);
  const probabilities = pick(cv.probabilities.get('original')!.map((p) => p!));
  const labels = pick(cv.entries.map((e) => e.label));
  const thresholds = pick(cv.displayOf);
  const stabilityViews = (['flip', 'crop_tl', 'crop_br'] as const).map((view) => pick(cv.probabilities.get(view) ?? []));
  const report = accuracyReport(probabilities, labels, stabilityViews, (p, i) => displayLevel(thresholds[i]!, p));
  const right = probabilities.filter((p, i) => argmax(p) === labels[i]).length;
  const displayAllPhotos = Object.fromEntries(
    Object.entries(report.byDisplay).map(([level, row]) => [level, wilson(row.faces, photoCount)]),
  );
  displayAllPhotos.refused = wilson(photoCount - probabilities.length, photoCount);
  const sweep = THRESHOLD_GRID.map((threshold) => {
    const chosen = probabilities.flatMap((p, i) => (Math.max(...p) >= threshold ? [i] : []));
    return {
      threshold,
      coverage: chosen.length / probabilities.length,
      top1: chosen.length === 0 ? 0 : chosen.filter((i) => argmax(probabilities[i]!) === labels[i]).length / chosen.length,
    };
  });
  return { features: set, report, top1AllPhotos: wilson(right, photoCount), displayAllPhotos, thresholds: cv.chosen, sweep };
}

const percent = (i: Interval) => `${(i.value * 100).toFixed(1)}% [${(i.low * 100).toFixed(1)}, ${(i.high * 100).toFixed(1)}]`;

const main = evaluate(features, views ? { views } : {});
const compared: Evaluation[] = compare
  ? FEATURE_SETS.filter((set) => set !== features).map((set) => evaluate(set, views ? { views } : {}))
  : [];
const extra: Record<string, { top1: Interval; ece: Interval }> = {};
if (ablations) {
  const report = evaluate(features, { views: ['original'] }).report;
  extra['no augmentation'] = { top1: report.top1, ece: report.ece };
}

if (!json) {
  const r = main.report;
  console.log(`dev photos: ${photoCount}; refused ${refusedTotal} = ${percent(refusals.refused)}`);
  for (const [code, row] of Object.entries(refusals.byCode)) {
    console.log(
      `  ${code.padEnd(15)} ${String(row.count).padStart(3)}  ${percent(row)}  "${ANALYSIS_ERROR_MESSAGES[code as AnalysisErrorCode]}"`,
    );
  }
  console.log(
    `features: ${features}; training views: ${(views ?? ['original', 'flip', 'crop_tl', 'crop_br']).join(', ')}; answered photos: ${r.images} (5-fold CV, stratified, seed fixed)`,
  );
  console.log(`7-group top-1, all dev photos (refusals = misses): ${percent(main.top1AllPhotos)}`);
  console.log(`7-group top-1, answered photos: ${percent(r.top1)}`);
  for (const id of HERITAGE_GROUP_IDS) console.log(`  recall ${id.padEnd(16)} ${percent(r.perGroupRecall[id])}`);
  console.log(
    `4-group top-1:        ${percent(r.fourGroupTop1)} on ${r.fourGroupTop1.images} images (White, Black, Asian, Indian; Latino/Hispanic and Middle Eastern left out)`,
  );
  console.log(`5 coarse groups top-1: ${percent(r.coarseGroupTop1)}`);
  console.log(`ECE (10 bins):        ${r.ece.value.toFixed(3)} [${r.ece.low.toFixed(3)}, ${r.ece.high.toFixed(3)}]`);
  console.log(`stability:            ${percent(r.stability)} (top group unchanged under flip and both 10% crops)`);
  console.log(`coarse stability:     ${percent(r.coarseStability)} (top coarse group unchanged)`);
  console.log('risk-coverage by display level (thresholds chosen inside each training fold):');
  console.log('  level      faces  share of answered     share of all photos   fine top-1 right      coarse top-1 right');
  for (const [level, row] of Object.entries(r.byDisplay)) {
    console.log(
      `  ${level.padEnd(10)} ${String(row.faces).padStart(5)}  ${percent(row.share).padEnd(20)}  ${percent(main.displayAllPhotos[level]!).padEnd(20)}  ${percent(row.top1).padEnd(20)}  ${percent(row.coarseTop1)}`,
    );
  }
  console.log(`  refused    ${String(photoCount - r.images).padStart(5)}  ${''.padEnd(20)}  ${percent(main.displayAllPhotos.refused!)}`);
  console.log(`  thresholds per fold (fine / coarse): ${main.thresholds.map((t) => `${t.display.fine}/${t.display.coarse}`).join(', ')}`);
  console.log(
    `  sweep, top probability >= t: ${main.sweep.map((s) => `${s.threshold}: ${(s.coverage * 100).toFixed(0)}% at ${(s.top1 * 100).toFixed(0)}%`).join('; ')}`,
  );
  console.log('confusion (rows = label, columns = prediction):', HERITAGE_GROUP_IDS.join(' '));
  r.confusion.forEach((row, i) => console.log(`  ${HERITAGE_GROUP_IDS[i]!.padEnd(16)} ${row.map((v) => String(v).padStart(3)).join(' ')}`));
  for (const other of compared) {
    const o = other.report;
    console.log(
      `compare ${other.features}: top-1 answered ${percent(o.top1)}, all photos ${percent(other.top1AllPhotos)}, ECE ${o.ece.value.toFixed(3)}, stability ${percent(o.stability)}, fine ${percent(o.byDisplay.fine!.share)} right ${percent(o.byDisplay.fine!.top1)}, min recall ${Math.min(...Object.values(o.perGroupRecall).map((x) => x.value)).toFixed(3)}`,
    );
  }
  for (const [name, report] of Object.entries(extra))
    console.log(`ablation ${name}: top-1 ${percent(report.top1)}, ECE ${report.ece.value.toFixed(3)}`);
}
if (json) {
  const summary = (e: Evaluation) => ({
    ...e.report,
    features: e.features,
    top1AllPhotos: e.top1AllPhotos,
    displayAllPhotos: e.displayAllPhotos,
    thresholds: e.thresholds,
    sweep: e.sweep,
  });
  console.log(JSON.stringify({ refusals, ...summary(main), compared: compared.map(summary), ablations: extra }));
}
