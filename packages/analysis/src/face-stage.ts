import { type AnalysisError, type FaceBox, analysisError } from './errors.js';
import { decodeImage } from './image/decode.js';
import { faceSharpness, meanBrightness } from './image/quality.js';
import { FACE_DETECTION_MIN_CONFIDENCE } from './inference/runtime.js';
import { flipAveragedMap, headFeatures, needsFlip, needsRecognition } from './heritage/features.js';
import type { FeatureSet } from './heritage/heritage-model.js';
import {
  DESCRIPTOR_SIZE,
  FEATURE_GRID,
  type AlignedCrop,
  type DetectedFace,
  type FaceDescription,
  type FaceEngine,
  type RgbImage,
  alignedCrop,
} from './inference/face-engine.js';

/**
 * Mean luma (0..1) of the whole photo below which, when no face is found in it, we ask for more
 * light rather than say there is no face.
 */
export const MIN_BRIGHTNESS = 0.12;
/**
 * Mean luma of the face box below which we ask for more light. A face that is well lit on a dark
 * background (a stage, a night photo) is analysed: a person would see it. The dev set's darkest
 * usable face is 0.11; the dark test photos (faces scaled to 6-12 % of their light) are ≤ 0.06.
 */
export const MIN_FACE_BRIGHTNESS = 0.1;
/** Faces narrower than this, in the ≤ 640 px analysed image, carry too little detail. */
export const MIN_FACE_SIDE_PX = 80;
/**
 * Laplacian deviation (see faceSharpness) below which we call the face blurry. The dev set's
 * softest faces score ~3.8 (small, re-encoded JPEGs); a Gaussian blur of sigma 6 at 448 px scores ~2.9-3.2.
 */
export const MIN_SHARPNESS = 3.5;
/** Mesh confidence a face needs to be analysed at all (Human's own default gate is 0.5). */
export const MIN_FACE_SCORE = FACE_DETECTION_MIN_CONFIDENCE;
/**
 * A second face is another person in the photo, and the photo is refused, only when a person
 * would see two comparable people: the second face is whole in the frame (this share of its mesh
 * inside the photo), about as large as the main one (side ratio) and clearly a whole face (mesh
 * and detector confidence). A neighbour cut by the frame, a face in the background or a poster is ignored.
 */
export const RIVAL_MIN_IN_FRAME = 0.9;
export const RIVAL_MIN_SIDE_RATIO = 0.7;
export const RIVAL_MIN_SCORE = 0.8;
/** BlazeFace's own confidence, which drops for faces cut by the frame or turned away. */
export const RIVAL_MIN_DETECTOR_SCORE = 0.45;
/**
 * Least overlap (intersection over union) between the face a customer chose and a detected face for
 * the two to be the same face (ADR 192). The same photo gives the same detections, so the chosen
 * face normally overlaps its own detection almost wholly and any other face hardly at all.
 */
export const MIN_CHOSEN_FACE_IOU = 0.5;
/** Border added around the photo (fraction of each side) for the one detection retry. */
export const RETRY_PADDING = 0.25;

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

/** A detected face with how much of it lies inside the photo. */
export interface FoundFace extends DetectedFace {
  /** Share of the face's mesh points inside the photo, 0..1 (1: nothing cut by the frame). */
  inFrame: number;
}

/** What the gates look at, measured once per photo (the accuracy bench records it per dev photo). */
export interface PhotoMeasures {
  /** Mean luma of the whole photo. */
  brightness: number;
  /** Faces whose mesh passed {@link MIN_FACE_SCORE}, largest first. */
  faces: FoundFace[];
  /** Whether the faces come from the retry on the padded photo. */
  retried: boolean;
  /** Mean luma and sharpness of the largest face (undefined when there is none). */
  faceBrightness?: number;
  faceSharpness?: number;
  /**
   * The first face is the one the customer chose in a group photo (ADR 192): the others are not
   * rivals, and the gates read the chosen face.
   */
  chosen?: boolean;
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

const side = (face: DetectedFace) => Math.sqrt(face.box[2] * face.box[3]);

function inFrameShare(face: DetectedFace, image: RgbImage): number {
  let inside = 0;
  for (const [x, y] of face.mesh) if (x >= 0 && y >= 0 && x < image.width && y < image.height) inside += 1;
  return face.mesh.length === 0 ? 0 : inside / face.mesh.length;
}

/** The photo with a grey border of `fraction` of each side, and the border's size in pixels. */
export function padImage(image: RgbImage, fraction: number): { image: RgbImage; dx: number; dy: number } {
  const dx = Math.round(image.width * fraction);
  const dy = Math.round(image.height * fraction);
  const width = image.width + 2 * dx;
  const height = image.height + 2 * dy;
  const data = new Uint8Array(width * height * 3).fill(128);
  for (let y = 0; y < image.height; y++) {
    data.set(image.data.subarray(y * image.width * 3, (y + 1) * image.width * 3), ((y + dy) * width + dx) * 3);
  }
  return { image: { data, width, height }, dx, dy };
}

function shifted(face: DetectedFace, dx: number, dy: number, image: RgbImage): DetectedFace {
  const mesh = face.mesh.map(([x, y, z]) => [x - dx, y - dy, z] as [number, number, number]);
  // The box, like Human's, is clamped to the photo.
  const left = Math.max(0, face.box[0] - dx);
  const top = Math.max(0, face.box[1] - dy);
  const right = Math.min(image.width, face.box[0] + face.box[2] - dx);
  const bottom = Math.min(image.height, face.box[1] + face.box[3] - dy);
  return {
    box: [left, top, Math.max(0, right - left), Math.max(0, bottom - top)],
    score: face.score,
    detectorScore: face.detectorScore,
    mesh,
  };
}

/**
 * Faces in the photo, largest first. BlazeFace misses some faces that fill much of the frame or
 * touch its edge (FairFace's loose crops, selfies held close); when it finds none, we look once
 * more on the photo with a grey border, which costs one detection only for those photos.
 */
export async function findFaces(engine: FaceEngine, image: RgbImage): Promise<{ faces: FoundFace[]; retried: boolean }> {
  const usable = (faces: DetectedFace[]) => faces.filter((face) => face.score >= MIN_FACE_SCORE && face.box[2] > 0 && face.box[3] > 0);
  let faces = usable(await engine.detect(image));
  let retried = false;
  if (faces.length === 0) {
    const padded = padImage(image, RETRY_PADDING);
    faces = usable((await engine.detect(padded.image)).map((face) => shifted(face, padded.dx, padded.dy, image)));
    retried = true;
  }
  const found = faces.map((face) => ({ ...face, inFrame: inFrameShare(face, image) }));
  return { faces: found.sort((a, b) => side(b) - side(a)), retried };
}

/** Overlap of two `[x, y, width, height]` boxes: intersection area over union area, 0..1. */
export function intersectionOverUnion(a: DetectedFace['box'], b: DetectedFace['box']): number {
  const width = Math.min(a[0] + a[2], b[0] + b[2]) - Math.max(a[0], b[0]);
  const height = Math.min(a[1] + a[3], b[1] + b[3]) - Math.max(a[1], b[1]);
  if (width <= 0 || height <= 0) return 0;
  const intersection = width * height;
  return intersection / (a[2] * a[3] + b[2] * b[3] - intersection);
}

/** A face box in pixels of `image` as fractions of its sides, rounded to 3 decimals. */
export function boxFraction(box: DetectedFace['box'], image: { width: number; height: number }): FaceBox {
  const round = (value: number) => Math.round(value * 1000) / 1000;
  return {
    x: round(box[0] / image.width),
    y: round(box[1] / image.height),
    width: round(box[2] / image.width),
    height: round(box[3] / image.height),
  };
}

/**
 * The detected face the customer chose (`chosen`, fractions of the photo): the one overlapping it
 * most, when that overlap reaches {@link MIN_CHOSEN_FACE_IOU}; else undefined.
 */
export function matchChosenFace<Face extends DetectedFace>(
  faces: readonly Face[],
  chosen: FaceBox,
  image: { width: number; height: number },
): { face: Face; iou: number } | undefined {
  const box: DetectedFace['box'] = [
    chosen.x * image.width,
    chosen.y * image.height,
    chosen.width * image.width,
    chosen.height * image.height,
  ];
  let best: { face: Face; iou: number } | undefined;
  for (const face of faces) {
    const iou = intersectionOverUnion(face.box, box);
    if (!best || iou > best.iou) best = { face, iou };
  }
  return best && best.iou >= MIN_CHOSEN_FACE_IOU ? best : undefined;
}

/**
 * Decodes and measures everything the gates read; no gate is applied here. With `chosen` (a group
 * photo's face the customer picked, ADR 192) that face comes first and is the one measured; a
 * choice that matches no detected face answers CHOSEN_FACE_NOT_FOUND.
 */
export async function measurePhoto(
  engine: FaceEngine,
  bytes: Uint8Array,
  chosen?: FaceBox,
): Promise<{ ok: true; image: RgbImage; measures: PhotoMeasures } | AnalysisError> {
  const decoded = await decodeImage(bytes);
  if (!decoded.ok) return decoded;
  const image = decoded.image;
  const brightness = meanBrightness(image);
  const found = await findFaces(engine, image);
  const { retried } = found;
  let faces = found.faces;
  if (chosen) {
    const match = matchChosenFace(faces, chosen, image);
    if (!match)
      return analysisError('CHOSEN_FACE_NOT_FOUND', `${faces.length} faces, none overlapping the choice by ${MIN_CHOSEN_FACE_IOU}`);
    faces = [match.face, ...faces.filter((face) => face !== match.face)];
  }
  const main = faces[0];
  if (!main) return { ok: true, image, measures: { brightness, faces, retried } };
  return {
    ok: true,
    image,
    measures: {
      brightness,
      faces,
      retried,
      faceBrightness: meanBrightness(image, main.box),
      faceSharpness: await faceSharpness(image, main.box),
      ...(chosen ? { chosen: true } : {}),
    },
  };
}

/** True when `other` is a second person a human would also see: whole, comparable and clearly a face. */
export function isRival(main: FoundFace, other: FoundFace): boolean {
  return (
    other.inFrame >= RIVAL_MIN_IN_FRAME &&
    side(other) >= RIVAL_MIN_SIDE_RATIO * side(main) &&
    other.score >= RIVAL_MIN_SCORE &&
    other.detectorScore >= RIVAL_MIN_DETECTOR_SCORE
  );
}

/** Faces beside the first that a person would call other people (none once the customer chose a face). */
function rivalsOf(measures: PhotoMeasures): FoundFace[] {
  const [main, ...others] = measures.faces;
  if (!main || measures.chosen) return [];
  return others.filter((other) => isRival(main, other));
}

/**
 * The faces a customer chooses from when the photo shows several people (ADR 192): the largest
 * and its rivals, left to right, as fractions of the photo. The smaller or cut faces that never
 * made the photo ambiguous are not offered.
 */
export function choosableFaces(measures: PhotoMeasures, image: { width: number; height: number }): FaceBox[] {
  const main = measures.faces[0];
  if (!main) return [];
  return [main, ...rivalsOf(measures)].sort((a, b) => a.box[0] - b.box[0]).map((face) => boxFraction(face.box, image));
}

/**
 * The gates, in order: no face (or a photo too dark to find one), two comparable people, a face
 * too small, a dark face, a blurry face. Undefined when the photo passes. Pure, so the accuracy
 * bench applies exactly these rules to the dev set's recorded measures.
 */
export function refusal(measures: PhotoMeasures): AnalysisError | undefined {
  const [main] = measures.faces;
  if (!main) return measures.brightness < MIN_BRIGHTNESS ? analysisError('TOO_DARK', 'whole image') : analysisError('NO_FACE');
  const rivals = rivalsOf(measures);
  if (rivals.length > 0) return analysisError('MULTIPLE_FACES', `${rivals.length + 1} comparable faces`);
  const faceSidePx = side(main);
  if (faceSidePx < MIN_FACE_SIDE_PX) return analysisError('FACE_TOO_SMALL', `${Math.round(faceSidePx)} px`);
  if ((measures.faceBrightness ?? 0) < MIN_FACE_BRIGHTNESS) return analysisError('TOO_DARK', 'face region');
  const sharpness = measures.faceSharpness ?? 0;
  if (sharpness < MIN_SHARPNESS) return analysisError('TOO_BLURRY', `sharpness ${sharpness.toFixed(2)}`);
  return undefined;
}

/**
 * Decode, detection and the quality gates: one dominant face, large, lit and sharp enough. No
 * descriptor is computed, so this costs about half of a full analysis.
 * `enforceQuality: false` is for building the training cache: the largest face is used whatever
 * the gates say (and NO_FACE / decoding errors still come back).
 */
export async function checkFace(
  engine: FaceEngine,
  bytes: Uint8Array,
  options: { enforceQuality?: boolean; face?: FaceBox | undefined } = {},
): Promise<CheckedFace | AnalysisError> {
  const measured = await measurePhoto(engine, bytes, options.face);
  if (!measured.ok) return measured;
  return judgePhoto(measured.image, measured.measures, options.enforceQuality ?? true);
}

/**
 * The gates' verdict on measured photo: the checked face, or the refusal. A photo of several people
 * is refused with the faces to choose from (ADR 192).
 */
export function judgePhoto(image: RgbImage, measures: PhotoMeasures, enforce = true): CheckedFace | AnalysisError {
  const refused = refusal(measures);
  const main = measures.faces[0];
  if (!main) return refused ?? analysisError('NO_FACE');
  if (enforce && refused) return refused.code === 'MULTIPLE_FACES' ? { ...refused, faces: choosableFaces(measures, image) } : refused;
  const faceSidePx = side(main);
  return {
    ok: true,
    image,
    face: { box: main.box, score: main.score, detectorScore: main.detectorScore, mesh: main.mesh },
    quality: {
      brightness: measures.faceBrightness ?? 0,
      sharpness: measures.faceSharpness ?? 0,
      faceSize: Math.min(1, faceSidePx / Math.min(image.width, image.height)),
      faceSidePx,
    },
  };
}

/**
 * The face check, then alignment and the descriptors the head reads: everything before the
 * classifier. `features` says which (faceres alone by default; see heritage/features.ts).
 */
export async function runFaceStage(
  engine: FaceEngine,
  bytes: Uint8Array,
  options: { enforceQuality?: boolean; features?: FeatureSet; face?: FaceBox | undefined } = {},
): Promise<FaceStage | AnalysisError> {
  const checked = await checkFace(engine, bytes, options);
  if (!checked.ok) return checked;
  const crop = alignedCrop(checked.face);
  const description = await describeForHead(engine, checked.image, crop, options.features ?? 'faceres');
  return { ...checked, crop, description };
}

/** faceres (and its mirror, and the recognition descriptor, as `features` needs), combined for the head. */
export async function describeForHead(
  engine: FaceEngine,
  image: RgbImage,
  crop: AlignedCrop,
  features: FeatureSet,
): Promise<FaceDescription> {
  const plain = await engine.describe(image, crop);
  const mirrored = needsFlip(features) ? await engine.describe(image, crop, { flip: true }) : undefined;
  const recognition = needsRecognition(features) ? await engine.recognize(image, crop) : undefined;
  const recognitionFlip = recognition && mirrored ? await engine.recognize(image, crop, { flip: true }) : undefined;
  return {
    descriptor: headFeatures(features, {
      faceres: plain.descriptor,
      ...(mirrored ? { faceresFlip: mirrored.descriptor } : {}),
      ...(recognition ? { recognition } : {}),
      ...(recognitionFlip ? { recognitionFlip } : {}),
    }),
    featureMap: mirrored ? flipAveragedMap(plain.featureMap, mirrored.featureMap, FEATURE_GRID, DESCRIPTOR_SIZE) : plain.featureMap,
  };
}
