import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { type Attributions, classActivationAttributions } from './attribution/class-activation.js';
import { type AnalysisError, type FaceBox, analysisError } from './errors.js';
import { type CheckedFace, type FaceQuality, checkFace, runFaceStage } from './face-stage.js';
import { type HeritageEstimate, calibratedProbabilities, estimateHeritage } from './heritage/estimate.js';
import { needsRecognition } from './heritage/features.js';
import { HERITAGE_GROUP_IDS, HERITAGE_GROUP_LABELS } from './heritage/groups.js';
import { type HeritageModel, loadHeritageModel, modelsDir } from './heritage/heritage-model.js';
import { FaceEngine } from './inference/face-engine.js';
import { type Trait, type TraitNorms, describeTraits } from './traits/traits.js';

/** A photo fit for analysis: the face found and its measures, rounded. */
export interface FaceCheckResult {
  ok: true;
  /** Face box as fractions of the (EXIF-rotated) photo: x, y, width, height in 0..1. */
  face: { box: { x: number; y: number; width: number; height: number }; detectionScore: number };
  quality: FaceQuality;
}

export type FaceCheckOutcome = FaceCheckResult | AnalysisError;

export interface AnalysisResult extends FaceCheckResult {
  modelVersion: string;
  heritage: HeritageEstimate;
  traits: Trait[];
  attributions: Attributions;
}

export type AnalysisOutcome = AnalysisResult | AnalysisError;

export const TRAIT_NORMS_FILE = 'trait-norms.json';

const round = (value: number) => Math.round(value * 1000) / 1000;

/** What a caller may see of a checked face: box and measures, rounded; never the mesh. */
function faceCheckResult({ image, face, quality }: CheckedFace): FaceCheckResult {
  const [x, y, width, height] = face.box;
  return {
    ok: true,
    face: {
      box: {
        x: round(x / image.width),
        y: round(y / image.height),
        width: round(width / image.width),
        height: round(height / image.height),
      },
      detectionScore: round(face.score),
    },
    quality: {
      brightness: round(quality.brightness),
      sharpness: round(quality.sharpness),
      faceSize: round(quality.faceSize),
      faceSidePx: Math.round(quality.faceSidePx),
    },
  };
}

function internalError(error: unknown): AnalysisError {
  return analysisError('INTERNAL', error instanceof Error ? error.message.slice(0, 200) : 'unknown');
}

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
    const [model, norms] = await Promise.all([
      loadHeritageModel(path.join(dir, 'heritage-head.json')),
      readFile(path.join(dir, TRAIT_NORMS_FILE), 'utf8').then((text) => JSON.parse(text) as TraitNorms),
    ]);
    const engine = await FaceEngine.create({ recognition: needsRecognition(model.features) });
    return new Analyzer(engine, model, norms);
  }

  /**
   * The face check alone (decode, detection, quality gates), without the descriptor, classifier,
   * traits or attributions: what the funnel's processing step needs, at about half the cost of
   * {@link analyze}. Same errors as `analyze` for the same photo. `face`: the face a customer chose
   * in a group photo (ADR 192), checked instead of the largest.
   */
  async check(bytes: Uint8Array, face?: FaceBox): Promise<FaceCheckOutcome> {
    try {
      const checked = await checkFace(this.engine, bytes, { face });
      return checked.ok ? faceCheckResult(checked) : checked;
    } catch (error) {
      return internalError(error);
    }
  }

  /**
   * The full analysis of the photo's one face, or with `face` of the face a customer chose in a
   * group photo (ADR 192): the nearest detected face by overlap, CHOSEN_FACE_NOT_FOUND if none.
   */
  async analyze(bytes: Uint8Array, chosen?: FaceBox): Promise<AnalysisOutcome> {
    try {
      const stage = await runFaceStage(this.engine, bytes, { features: this.model.features, face: chosen });
      if (!stage.ok) return stage;
      const probabilities = calibratedProbabilities(this.model, stage.description.descriptor);
      const heritage = estimateHeritage(this.model, probabilities);
      const topClass = HERITAGE_GROUP_IDS.indexOf(heritage.top);
      const { face, quality } = faceCheckResult(stage);
      return {
        ok: true,
        modelVersion: this.model.modelVersion,
        face,
        quality,
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
      return internalError(error);
    }
  }
}
