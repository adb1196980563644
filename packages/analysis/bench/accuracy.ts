/**
 * Cross-validated accuracy of the heritage head on the dev set (5-fold, stratified, fixed seed;
 * lambda and temperature chosen inside each training fold).
 * Usage: npx tsx bench/accuracy.ts [--json] [--ablations] [datasetDir]
 */
import { confidenceLevel } from '../src/heritage/estimate.js';
import { HERITAGE_GROUP_IDS } from '../src/heritage/groups.js';
import { crossValidate } from '../src/training/cross-validation.js';
import { datasetDir } from '../src/training/dataset.js';
import { type ViewId, loadOrBuildCache } from '../src/training/feature-cache.js';
import { type AccuracyReport, type Interval, accuracyReport } from '../src/training/metrics.js';

const args = process.argv.slice(2);
const json = args.includes('--json');
const ablations = args.includes('--ablations');
const cache = await loadOrBuildCache(datasetDir(args.find((a) => !a.startsWith('--'))));

function evaluate(options: { views?: readonly ViewId[]; evalView?: ViewId }): AccuracyReport {
  const cv = crossValidate(cache, { ...options, log: (line) => console.error(line) });
  const evalView = options.evalView ?? 'original';
  const probabilities = cv.probabilities.get(evalView)!.map((p) => p!);
  const stabilityViews = (['flip', 'crop_tl', 'crop_br'] as const).map((view) => cv.probabilities.get(view) ?? []);
  return accuracyReport(
    probabilities,
    cv.entries.map((e) => e.label),
    stabilityViews,
    confidenceLevel,
  );
}

const percent = (i: Interval) => `${(i.value * 100).toFixed(1)}% [${(i.low * 100).toFixed(1)}, ${(i.high * 100).toFixed(1)}]`;

const main = evaluate({});
const extra: Record<string, { top1: Interval; ece: Interval }> = {};
if (ablations) {
  const variants: [string, { views: ViewId[]; evalView: ViewId }][] = [
    ['crop 1.2, no augmentation', { views: ['original'], evalView: 'original' }],
    ['crop 1.0, no augmentation', { views: ['original@1'], evalView: 'original@1' }],
    ['crop 1.4, no augmentation', { views: ['original@1.4'], evalView: 'original@1.4' }],
  ];
  for (const [name, options] of variants) {
    const report = evaluate(options);
    extra[name] = { top1: report.top1, ece: report.ece };
  }
}

if (!json) {
  console.log(`images: ${main.images} (5-fold CV, stratified, seed fixed)`);
  console.log(`7-group top-1:        ${percent(main.top1)}`);
  for (const id of HERITAGE_GROUP_IDS) console.log(`  recall ${id.padEnd(16)} ${percent(main.perGroupRecall[id])}`);
  console.log(
    `4-group top-1:        ${percent(main.fourGroupTop1)} on ${main.fourGroupTop1.images} images (White, Black, Asian, Indian; Latino/Hispanic and Middle Eastern left out)`,
  );
  console.log(`5 coarse groups top-1: ${percent(main.coarseGroupTop1)}`);
  console.log(`ECE (10 bins):        ${main.ece.value.toFixed(3)} [${main.ece.low.toFixed(3)}, ${main.ece.high.toFixed(3)}]`);
  console.log(`stability:            ${percent(main.stability)} (top group unchanged under flip and both 10% crops)`);
  console.log(`coarse stability:     ${percent(main.coarseStability)} (top coarse group unchanged)`);
  for (const [level, row] of Object.entries(main.byConfidence)) {
    console.log(
      `  confidence ${level.padEnd(6)} ${(row.share * 100).toFixed(0)}% of faces, top-1 ${(row.top1 * 100).toFixed(1)}%, coarse top-1 ${(row.coarseTop1 * 100).toFixed(1)}%`,
    );
  }
  console.log('confusion (rows = label, columns = prediction):', HERITAGE_GROUP_IDS.join(' '));
  main.confusion.forEach((row, i) =>
    console.log(`  ${HERITAGE_GROUP_IDS[i]!.padEnd(16)} ${row.map((v) => String(v).padStart(3)).join(' ')}`),
  );
  for (const [name, report] of Object.entries(extra))
    console.log(`ablation ${name}: top-1 ${percent(report.top1)}, ECE ${report.ece.value.toFixed(3)}`);
}
if (json) console.log(JSON.stringify({ ...main, ablations: extra }));
