import { type AnalysisError, analysisError } from './errors.js';
import { decodeImage } from './image/decode.js';
import { faceSharpness, meanBrightness } from './image/quality.js';
import {
  type AlignedCrop,
  type DetectedFace,
  type FaceDescription,
  type FaceEngine,
  type RgbImage,
  alignedCrop,
} from './inference/face-engine.js';

/** Below this mean luma (0..1) of the whole photo, or of the face, we ask for more light. */
export const MIN_BRIGHTNESS = 0.12;
/** Faces narrower than this, in the ≤ 640 px analysed image, carry too little detail. */
export const MIN_FACE_SIDE_PX = 80;
/** A second face at least this fraction of the main face's area counts as another person. */
export const SECOND_FACE_AREA_RATIO = 0.25;
/**
 * Laplacian deviation (see faceSharpness) below which we call the face blurry. The dev set's
 * softest faces score ~3.8 (small, re-encoded JPEGs); a Gaussian blur of sigma 6 at 448 px scores ~2.9-3.2.
 */
export const MIN_SHARPNESS = 3.5;

export interface FaceQuality {
  /** Mean luma of the face box, 0..1. */
  brightness: number;
  /** Laplacian deviation of the face box at 128 px; higher is sharper. */
  sharpness: number;
  /** Face box side over the image's short side, 0..1. */
  faceSize: number;
  /** Face box side in pixels of the analysed image. */
  faceSidePx: number;
}

/** A photo that passed the face check: one usable face, with its measures. */
export interface CheckedFace {
  ok: true;
  image: RgbImage;
  face: DetectedFace;
  quality: FaceQuality;
}

export interface FaceStage extends CheckedFace {
  crop: AlignedCrop;
  description: FaceDescription;
}

/**
 * Decode, detection and the quality gates: exactly one face, large, lit and sharp enough. No
 * descriptor is computed, so this costs about half of a full analysis.
 * `enforceQuality: false` is for building the training cache, where we record but do not reject.
 */
export async function checkFace(
  engine: FaceEngine,
  bytes: Uint8Array,
  options: { enforceQuality?: boolean } = {},
): Promise<CheckedFace | AnalysisError> {
  const enforce = options.enforceQuality ?? true;
  const decoded = await decodeImage(bytes);
  if (!decoded.ok) return decoded;
  const image = decoded.image;
  if (enforce && meanBrightness(image) < MIN_BRIGHTNESS) return analysisError('TOO_DARK', 'whole image');

  const faces = await engine.detect(image);
  if (faces.length === 0) return analysisError('NO_FACE');
  const byArea = [...faces].sort((a, b) => b.box[2] * b.box[3] - a.box[2] * a.box[3]);
  const face = byArea[0] as DetectedFace;
  const second = byArea[1];
  const area = face.box[2] * face.box[3];
  if (enforce && second && second.box[2] * second.box[3] >= SECOND_FACE_AREA_RATIO * area) {
    return analysisError('MULTIPLE_FACES', `${faces.length} faces`);
  }
  const faceSidePx = Math.sqrt(area);
  if (enforce && faceSidePx < MIN_FACE_SIDE_PX) return analysisError('FACE_TOO_SMALL', `${Math.round(faceSidePx)} px`);

  const brightness = meanBrightness(image, face.box);
  if (enforce && brightness < MIN_BRIGHTNESS) return analysisError('TOO_DARK', 'face region');
  const sharpness = await faceSharpness(image, face.box);
  if (enforce && sharpness < MIN_SHARPNESS) return analysisError('TOO_BLURRY', `sharpness ${sharpness.toFixed(2)}`);

  return {
    ok: true,
    image,
    face,
    quality: {
      brightness,
      sharpness,
      faceSize: Math.min(1, faceSidePx / Math.min(image.width, image.height)),
      faceSidePx,
    },
  };
}

/** The face check, then alignment and the descriptor: everything before the classifier. */
export async function runFaceStage(
  engine: FaceEngine,
  bytes: Uint8Array,
  options: { enforceQuality?: boolean } = {},
): Promise<FaceStage | AnalysisError> {
  const checked = await checkFace(engine, bytes, options);
  if (!checked.ok) return checked;
  const crop = alignedCrop(checked.face);
  const description = await engine.describe(checked.image, crop);
  return { ...checked, crop, description };
}
