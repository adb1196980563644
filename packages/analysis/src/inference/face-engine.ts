import {
  type GraphModel,
  type HumanInstance,
  type Tensor,
  type TfNamespace,
  humanModelsDir,
  humanPipelineConfig,
  loadHumanConstructor,
} from './runtime.js';
import { FACERES_OUTPUTS, loadFaceres, releaseWeightBuffer } from './faceres-model.js';
import { RECOGNITION_INPUT_PX, RecognitionModel, type RecognitionTf } from './recognition-model.js';

/** Decoded RGB pixels, row-major, 3 bytes per pixel. */
export interface RgbImage {
  data: Uint8Array;
  width: number;
  height: number;
}

export type Point = [number, number];

export interface DetectedFace {
  /** [x, y, width, height] in pixels of the analysed image. */
  box: [number, number, number, number];
  /** The face mesh's confidence. */
  score: number;
  /** The detector's confidence: high for a whole face, low for one cut by the frame or turned away. */
  detectorScore: number;
  /** 468 mesh points (x, y in pixels, z relative depth); internal only, never returned to callers. */
  mesh: [number, number, number][];
}

/** How to cut the 224 px descriptor crop out of the image. */
export interface AlignedCrop {
  centre: Point;
  /** Side of the square crop in image pixels. */
  sizePx: number;
  /** In-plane rotation that makes the eye line horizontal. */
  rollRad: number;
}

export interface FaceDescription {
  /** 1024-d faceres descriptor (global average of the last feature map). */
  descriptor: Float32Array;
  /** 7 x 7 x 1024 last feature map, row-major, for class activation attributions. */
  featureMap: Float32Array;
}

export const DESCRIPTOR_INPUT_PX = 224;
export const FEATURE_GRID = 7;
export const DESCRIPTOR_SIZE = 1024;

/**
 * Crop side as a multiple of the mesh's extent. Chosen once on the dev set (see MODEL_CARD.md);
 * changing it invalidates the trained head.
 */
export const CROP_SCALE = 1.2;

// Eye corners in MediaPipe's 468-point mesh.
const EYE_A = [33, 133] as const;
const EYE_B = [362, 263] as const;

export class FaceEngine {
  private constructor(
    private readonly human: HumanInstance,
    private readonly faceres: GraphModel,
    private readonly recognition: RecognitionModel | undefined,
  ) {}

  get tf(): TfNamespace {
    return this.human.tf;
  }

  /**
   * Loads blazeface + facemesh (through Human) and faceres (directly, fused: see graph-fusion.ts)
   * on the wasm backend, then lets go of the JS copies of their weights.
   */
  static async create(options: { recognition?: boolean } = {}): Promise<FaceEngine> {
    const Human = loadHumanConstructor();
    const modelsDir = humanModelsDir();
    const human = new Human(humanPipelineConfig(modelsDir));
    await human.load();
    for (const loaded of Object.values(human.models.models)) releaseWeightBuffer(loaded);
    const { model } = await loadFaceres(human.tf, modelsDir);
    const recognition = options.recognition ? await RecognitionModel.load(human.tf as unknown as RecognitionTf) : undefined;
    return new FaceEngine(human, model, recognition);
  }

  /**
   * The 128-d face-recognition descriptor of the same aligned crop, sampled at the network's
   * 150 px (only when the engine was created with `recognition: true`).
   */
  async recognize(image: RgbImage, crop: AlignedCrop, options: { flip?: boolean } = {}): Promise<Float32Array> {
    if (!this.recognition) throw new Error('face engine created without the recognition model');
    const pixels = sampleCrop(image, cropTransform(crop, options.flip ?? false, RECOGNITION_INPUT_PX), RECOGNITION_INPUT_PX);
    return this.recognition.describe(pixels);
  }

  async detect(image: RgbImage): Promise<DetectedFace[]> {
    // float32 and 3-D: given int32 Human casts (a second copy), given 4-D it clones (a copy in the
    // wasm backend); a 3-D float32 tensor it only reshapes, so one copy of the photo is in the heap.
    const input = this.tf.tensor(new Float32Array(image.data), [image.height, image.width, 3], 'float32');
    try {
      const result = await this.human.detect(input);
      return result.face
        .filter((face) => face.mesh.length >= 468)
        .map((face) => ({
          box: face.box,
          score: face.score,
          detectorScore: face.boxScore,
          mesh: face.mesh.map(([x, y, z]) => [x, y, z] as [number, number, number]),
        }));
    } finally {
      input.dispose();
      this.human.result = {
        face: [],
        body: [],
        hand: [],
        gesture: [],
        object: [],
        persons: [],
        performance: {},
        timestamp: 0,
        width: 0,
        height: 0,
        error: null,
      };
    }
  }

  /**
   * Runs faceres on the aligned crop (optionally mirrored). The 224 px crop is sampled here in
   * JavaScript, so only 0.6 MB goes into the wasm heap instead of the whole photo.
   */
  async describe(image: RgbImage, crop: AlignedCrop, options: { flip?: boolean } = {}): Promise<FaceDescription> {
    const tf = this.tf;
    const pixels = sampleCrop(image, cropTransform(crop, options.flip ?? false));
    const input = tf.tensor4d(pixels, [1, DESCRIPTOR_INPUT_PX, DESCRIPTOR_INPUT_PX, 3], 'float32');
    let outputs: Tensor[];
    try {
      outputs = this.faceres.execute(input, [...FACERES_OUTPUTS]) as Tensor[];
    } finally {
      input.dispose();
    }
    try {
      const [mapTensor, descriptorTensor] = outputs;
      if (!mapTensor || !descriptorTensor) throw new Error('faceres returned no output');
      return {
        featureMap: Float32Array.from(await mapTensor.data()),
        descriptor: Float32Array.from(await descriptorTensor.data()),
      };
    } finally {
      tf.dispose(outputs);
    }
  }
}

function mean(points: readonly (readonly number[])[], indices: readonly number[]): Point {
  let x = 0;
  let y = 0;
  for (const index of indices) {
    const point = points[index];
    if (!point) throw new Error(`mesh point ${index} missing`);
    x += point[0]!;
    y += point[1]!;
  }
  return [x / indices.length, y / indices.length];
}

/** Square crop around the mesh, rotated so the eyes are level, `scale` times the mesh extent. */
export function alignedCrop(face: DetectedFace, scale = CROP_SCALE): AlignedCrop {
  const eyeA = mean(face.mesh, EYE_A);
  const eyeB = mean(face.mesh, EYE_B);
  const [left, right] = eyeA[0] <= eyeB[0] ? [eyeA, eyeB] : [eyeB, eyeA];
  const rollRad = Math.atan2(right[1] - left[1], right[0] - left[0]);
  const cos = Math.cos(rollRad);
  const sin = Math.sin(rollRad);
  let minU = Infinity;
  let maxU = -Infinity;
  let minV = Infinity;
  let maxV = -Infinity;
  for (const [x, y] of face.mesh) {
    const u = x * cos + y * sin;
    const v = -x * sin + y * cos;
    minU = Math.min(minU, u);
    maxU = Math.max(maxU, u);
    minV = Math.min(minV, v);
    maxV = Math.max(maxV, v);
  }
  const centreU = (minU + maxU) / 2;
  const centreV = (minV + maxV) / 2;
  const centre: Point = [centreU * cos - centreV * sin, centreU * sin + centreV * cos];
  const sizePx = Math.max(maxU - minU, maxV - minV) * scale;
  return { centre, sizePx, rollRad };
}

/** Maps a point in the analysed image to the crop's unit square (0..1, 0..1). */
export function toCropUnit(crop: AlignedCrop, [x, y]: Point): Point {
  const cos = Math.cos(crop.rollRad);
  const sin = Math.sin(crop.rollRad);
  const dx = x - crop.centre[0];
  const dy = y - crop.centre[1];
  const u = dx * cos + dy * sin;
  const v = -dx * sin + dy * cos;
  return [u / crop.sizePx + 0.5, v / crop.sizePx + 0.5];
}

/** tf.image.transform's 8 projective coefficients mapping output pixels to input pixels. */
export function cropTransform(crop: AlignedCrop, flip: boolean, sidePx = DESCRIPTOR_INPUT_PX): number[] {
  const step = crop.sizePx / sidePx;
  const offset = 0.5 * step - crop.sizePx / 2;
  const cos = Math.cos(crop.rollRad);
  const sin = Math.sin(crop.rollRad);
  const sign = flip ? -1 : 1;
  const [cx, cy] = crop.centre;
  return [
    sign * cos * step,
    -sin * step,
    cx + sign * cos * offset - sin * offset,
    sign * sin * step,
    cos * step,
    cy + sign * sin * offset + cos * offset,
    0,
    0,
  ];
}

/**
 * Samples the 224 px descriptor crop from RGB bytes with the semantics of
 * `tf.image.transform(image, transform, 'bilinear', 'nearest')`, which the head was trained with:
 * output pixel (x, y) reads input point (t0 x + t1 y + t2, t3 x + t4 y + t5) / (t6 x + t7 y + 1),
 * clamped to the image, bilinearly interpolated. The coefficients are rounded to float32 as the
 * tensor the kernel read held them.
 */
export function sampleCrop(image: RgbImage, transform: readonly number[], sidePx = DESCRIPTOR_INPUT_PX): Float32Array {
  const [a0, a1, a2, b0, b1, b2, c0, c1] = transform.map((value) => Math.fround(value)) as [
    number,
    number,
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  const { data, width, height } = image;
  const out = new Float32Array(sidePx * sidePx * 3);
  for (let y = 0; y < sidePx; y++) {
    for (let x = 0; x < sidePx; x++) {
      const projection = c0 * x + c1 * y + 1;
      if (projection === 0) continue;
      const inX = Math.min(width - 1, Math.max(0, (a0 * x + a1 * y + a2) / projection));
      const inY = Math.min(height - 1, Math.max(0, (b0 * x + b1 * y + b2) / projection));
      const x0 = Math.floor(inX);
      const y0 = Math.floor(inY);
      const fx = inX - x0;
      const fy = inY - y0;
      // The kernel reads 0 past the last row/column, but only ever with weight 0 (the point was
      // clamped onto it), so clamping the neighbour index gives the same value without a branch.
      const row0 = y0 * width;
      const row1 = Math.min(y0 + 1, height - 1) * width;
      const column1 = Math.min(x0 + 1, width - 1);
      const i00 = (row0 + x0) * 3;
      const i01 = (row0 + column1) * 3;
      const i10 = (row1 + x0) * 3;
      const i11 = (row1 + column1) * 3;
      const at = (y * sidePx + x) * 3;
      for (let channel = 0; channel < 3; channel++) {
        const top = (1 - fx) * data[i00 + channel]! + fx * data[i01 + channel]!;
        const bottom = (1 - fx) * data[i10 + channel]! + fx * data[i11 + channel]!;
        out[at + channel] = (1 - fy) * top + fy * bottom;
      }
    }
  }
  return out;
}
