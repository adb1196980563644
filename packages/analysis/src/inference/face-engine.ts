import {
  type GraphModel,
  type HumanInstance,
  type Tensor,
  type TfNamespace,
  humanModelsDir,
  humanPipelineConfig,
  loadHumanConstructor,
} from './runtime.js';
import { pathToFileURL } from 'node:url';
import path from 'node:path';

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
  score: number;
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
const FEATURE_MAP_NODE = 'conv_pw_13_relu/clip_by_value';
const DESCRIPTOR_NODE = 'global_pooling/Mean';

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
  ) {}

  get tf(): TfNamespace {
    return this.human.tf;
  }

  /** Loads blazeface + facemesh (through Human) and faceres (directly) on the wasm backend. */
  static async create(): Promise<FaceEngine> {
    const Human = loadHumanConstructor();
    const modelsDir = humanModelsDir();
    const human = new Human(humanPipelineConfig(modelsDir));
    await human.load();
    const faceres = await human.tf.loadGraphModel(pathToFileURL(path.join(modelsDir, 'faceres.json')).href);
    return new FaceEngine(human, faceres);
  }

  private toTensor(image: RgbImage): Tensor {
    return this.tf.tensor4d(image.data, [1, image.height, image.width, 3], 'int32');
  }

  async detect(image: RgbImage): Promise<DetectedFace[]> {
    const input = this.toTensor(image);
    try {
      const result = await this.human.detect(input);
      return result.face
        .filter((face) => face.mesh.length >= 468)
        .map((face) => ({
          box: face.box,
          score: face.score,
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
   * Runs faceres on the aligned crop. `grey` optionally lists 224x224 masks (1 = grey out) for
   * occlusion; each mask adds one batch row.
   */
  async describe(image: RgbImage, crop: AlignedCrop, options: { flip?: boolean } = {}): Promise<FaceDescription> {
    const tf = this.tf;
    const input = this.toTensor(image);
    const outputs = tf.tidy(() => {
      const pixels = tf.cast(input, 'float32');
      const transform = tf.tensor(cropTransform(crop, options.flip ?? false), [1, 8], 'float32');
      const cropped = (tf.image as unknown as TransformApi).transform(pixels, transform, 'bilinear', 'nearest', 0, [
        DESCRIPTOR_INPUT_PX,
        DESCRIPTOR_INPUT_PX,
      ]);
      return this.faceres.execute(cropped, [FEATURE_MAP_NODE, DESCRIPTOR_NODE]) as Tensor[];
    });
    input.dispose();
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

interface TransformApi {
  transform(
    image: Tensor,
    transforms: Tensor,
    interpolation: 'bilinear' | 'nearest',
    fillMode: 'constant' | 'reflect' | 'wrap' | 'nearest',
    fillValue: number,
    outputShape: [number, number],
  ): Tensor;
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
export function cropTransform(crop: AlignedCrop, flip: boolean): number[] {
  const step = crop.sizePx / DESCRIPTOR_INPUT_PX;
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
