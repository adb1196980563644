/**
 * Writes a heritage head of another feature set's shape (its extra inputs with zero weights) and
 * the current trait norms into a directory, so `bench:analysis` can time that feature set:
 *   npx tsx scripts/speed-candidate.ts --features=faceres+recognition-flipavg --out=.cache/candidate
 *   ROOTS_ANALYSIS_MODELS_DIR=$PWD/.cache/candidate npm run bench:analysis
 * Speed and memory only: the weights are not a trained model (scripts/train.ts makes those).
 */
import { copyFile, mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { needsRecognition } from '../src/heritage/features.js';
import { FEATURE_SETS, type FeatureSet, type HeritageModelFile, modelsDir } from '../src/heritage/heritage-model.js';
import { RECOGNITION_SIZE } from '../src/inference/recognition-model.js';

const args = process.argv.slice(2);
const features = args.find((a) => a.startsWith('--features='))?.slice('--features='.length) as FeatureSet | undefined;
const out = args.find((a) => a.startsWith('--out='))?.slice('--out='.length);
if (!features || !FEATURE_SETS.includes(features) || !out) throw new Error(`usage: --features=<${FEATURE_SETS.join('|')}> --out=<dir>`);

const source = JSON.parse(await readFile(path.join(modelsDir(), 'heritage-head.json'), 'utf8')) as HeritageModelFile;
if (source.descriptor.features !== 'faceres') throw new Error('expects the shipped head to read faceres alone');
const extra = needsRecognition(features) ? RECOGNITION_SIZE : 0;
const head: HeritageModelFile = {
  ...source,
  modelVersion: `${source.modelVersion}+speed-candidate-${features}`,
  descriptor: { ...source.descriptor, features },
  mean: [...source.mean, ...new Array<number>(extra).fill(0)],
  scale: [...source.scale, ...new Array<number>(extra).fill(1)],
  weights: source.weights.map((row) => [...row, ...new Array<number>(extra).fill(0)]),
};
await mkdir(out, { recursive: true });
await writeFile(path.join(out, 'heritage-head.json'), JSON.stringify(head));
await copyFile(path.join(modelsDir(), 'trait-norms.json'), path.join(out, 'trait-norms.json'));
console.error(`wrote ${path.join(out, 'heritage-head.json')} (${features}, ${head.mean.length} inputs)`);
