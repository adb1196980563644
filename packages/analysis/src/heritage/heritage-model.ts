import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { HERITAGE_GROUP_IDS } from './groups.js';
import type { LinearHead } from './softmax-regression.js';

/**
 * When the product may name one group ("fine"), only a broader group ("coarse"), or must say it is
 * not sure. Chosen by `scripts/train.ts` on held-out (cross-validated) probabilities so that fine
 * answers were right at least 85 % of the time and coarse ones 80 % (see
 * training/display-thresholds.ts), and saved with the head.
 */
export interface DisplayThresholds {
  /** Top group's probability at or above which one group is named. */
  fine: number;
  /** Otherwise, top coarse group's probability at or above which the coarse group is named. */
  coarse: number;
}

/**
 * The descriptors a head can read: faceres (1024-d), optionally followed by the 128-d
 * face-recognition descriptor; `-flipavg` averages each with its mirrored crop's.
 */
export const FEATURE_SETS = ['faceres', 'faceres+recognition', 'faceres-flipavg', 'faceres+recognition-flipavg'] as const;
export type FeatureSet = (typeof FEATURE_SETS)[number];

/** The trained head as saved by scripts/train.ts (models/heritage-head.json). */
export interface HeritageModelFile {
  modelVersion: string;
  groups: string[];
  descriptor: { model: string; cropScale: number; features: FeatureSet };
  mean: number[];
  scale: number[];
  weights: number[][];
  bias: number[];
  temperature: number;
  lambda: number;
  /** Held-out P(group is the label | its probability falls in bin), per group, from CV. */
  reliability: { edges: number[]; table: number[][] };
  /** When to name one group, a coarse group, or say "uncertain" (chosen on CV probabilities). */
  display: DisplayThresholds;
  training: Record<string, unknown>;
}

export interface HeritageModel {
  modelVersion: string;
  head: LinearHead;
  temperature: number;
  reliability: HeritageModelFile['reliability'];
  display: DisplayThresholds;
  /** Which descriptors the head reads (see training/feature-cache.ts FEATURE_SETS). */
  features: FeatureSet;
}

/** models/ beside src/ or dist/; `ROOTS_ANALYSIS_MODELS_DIR` overrides. */
export function modelsDir(): string {
  const fromEnv = process.env.ROOTS_ANALYSIS_MODELS_DIR;
  if (fromEnv) return path.resolve(fromEnv);
  return path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', 'models');
}

export const HERITAGE_MODEL_FILE = 'heritage-head.json';

export async function loadHeritageModel(file = path.join(modelsDir(), HERITAGE_MODEL_FILE)): Promise<HeritageModel> {
  const data = JSON.parse(await readFile(file, 'utf8')) as HeritageModelFile;
  if (data.groups.join() !== HERITAGE_GROUP_IDS.join()) throw new Error('heritage model groups do not match the code');
  const features = data.mean.length;
  const classes = data.groups.length;
  const weights = new Float64Array(classes * features);
  data.weights.forEach((row, c) => weights.set(row, c * features));
  return {
    modelVersion: data.modelVersion,
    head: {
      mean: Float64Array.from(data.mean),
      scale: Float64Array.from(data.scale),
      weights,
      bias: Float64Array.from(data.bias),
      classes,
      features,
    },
    temperature: data.temperature,
    reliability: data.reliability,
    display: data.display,
    features: data.descriptor.features ?? 'faceres',
  };
}
