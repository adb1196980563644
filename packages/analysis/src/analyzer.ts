import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { type Attributions, classActivationAttributions } from './attribution/class-activation.js';
import { type AnalysisError, analysisError } from './errors.js';
import { type FaceQuality, runFaceStage } from './face-stage.js';
import { type HeritageEstimate, calibratedProbabilities, estimateHeritage } from './heritage/estimate.js';
import { HERITAGE_GROUP_IDS, HERITAGE_GROUP_LABELS } from './heritage/groups.js';
import { type HeritageModel, loadHeritageModel, modelsDir } from './heritage/heritage-model.js';
import { FaceEngine } from './inference/face-engine.js';
import { type Trait, type TraitNorms, describeTraits } from './traits/traits.js';

export interface AnalysisResult {
  ok: true;
  modelVersion: string;
  /** Face box as fractions of the (EXIF-rotated) photo: x, y, width, height in 0..1. */
  face: { box: { x: number; y: number; width: number; height: number }; detectionScore: number };
  quality: FaceQuality;
  heritage: HeritageEstimate;
  traits: Trait[];
  attributions: Attributions;
}

export type AnalysisOutcome = AnalysisResult | AnalysisError;

export const TRAIT_NORMS_FILE = 'trait-norms.json';

/**
 * In-process analyser: one wasm runtime, one set of models. Not thread-safe across concurrent
 * calls on the same instance; the pool gives each worker its own.
 *
 * @example
 * const analyzer = await Analyzer.create();
 * const outcome = await analyzer.analyze(bytes);
 * if (outcome.ok) console.log(outcome.heritage.groups[0]);
 */
export class Analyzer {
  private constructor(
    private readonly engine: FaceEngine,
    private readonly model: HeritageModel,
    private readonly traitNorms: TraitNorms,
  ) {}

  static async create(options: { modelsDir?: string } = {}): Promise<Analyzer> {
    const dir = options.modelsDir ?? modelsDir();
    const [engine, model, norms] = await Promise.all([
      FaceEngine.create(),
      loadHeritageModel(path.join(dir, 'heritage-head.json')),
      readFile(path.join(dir, TRAIT_NORMS_FILE), 'utf8').then((text) => JSON.parse(text) as TraitNorms),
    ]);
    return new Analyzer(engine, model, norms);
  }

  async analyze(bytes: Uint8Array): Promise<AnalysisOutcome> {
    try {
      const stage = await runFaceStage(this.engine, bytes);
      if (!stage.ok) return stage;
      const probabilities = calibratedProbabilities(this.model, stage.description.descriptor);
      const heritage = estimateHeritage(this.model, probabilities);
      const topClass = HERITAGE_GROUP_IDS.indexOf(heritage.top);
      const [x, y, width, height] = stage.face.box;
      const imageWidth = stage.image.width;
      const imageHeight = stage.image.height;
      const round = (value: number) => Math.round(value * 1000) / 1000;
      return {
        ok: true,
        modelVersion: this.model.modelVersion,
        face: {
          box: {
            x: round(x / imageWidth),
            y: round(y / imageHeight),
            width: round(width / imageWidth),
            height: round(height / imageHeight),
          },
          detectionScore: round(stage.face.score),
        },
        quality: {
          brightness: round(stage.quality.brightness),
          sharpness: round(stage.quality.sharpness),
          faceSize: round(stage.quality.faceSize),
          faceSidePx: Math.round(stage.quality.faceSidePx),
        },
        heritage,
        traits: describeTraits(stage.face, this.traitNorms),
        attributions: classActivationAttributions(
          this.model,
          stage.description.featureMap,
          stage.face,
          stage.crop,
          topClass,
          HERITAGE_GROUP_LABELS[heritage.top],
        ),
      };
    } catch (error) {
      return analysisError('INTERNAL', error instanceof Error ? error.message.slice(0, 200) : 'unknown');
    }
  }
}
