import { beforeAll, describe, expect, it } from 'vitest';
import { decodeImage } from '../image/decode.js';
import { faceImage } from '../testing/fixtures.js';
import {
  type DetectedFace,
  DESCRIPTOR_INPUT_PX,
  FaceEngine,
  type RgbImage,
  alignedCrop,
  cropTransform,
  sampleCrop,
} from './face-engine.js';
import { FACERES_OUTPUTS, loadFaceres } from './faceres-model.js';
import { type GraphModel, type Tensor, humanModelsDir } from './runtime.js';

let engine: FaceEngine;
let shipped: GraphModel;
let image: RgbImage;
let face: DetectedFace;

interface TransformApi {
  transform(image: Tensor, transforms: Tensor, interpolation: string, fillMode: string, fillValue: number, shape: [number, number]): Tensor;
}

/** The crop as tf.image.transform makes it: what the engine did before sampling in JavaScript. */
async function tfCrop(flip: boolean): Promise<Float32Array> {
  const tf = engine.tf;
  const pixels = tf.tensor4d(new Float32Array(image.data), [1, image.height, image.width, 3], 'float32');
  const transform = tf.tensor(cropTransform(alignedCrop(face), flip), [1, 8], 'float32');
  const cropped = (tf.image as unknown as TransformApi).transform(pixels, transform, 'bilinear', 'nearest', 0, [
    DESCRIPTOR_INPUT_PX,
    DESCRIPTOR_INPUT_PX,
  ]);
  const values = Float32Array.from(await cropped.data());
  tf.dispose([pixels, transform, cropped]);
  return values;
}

function maxRelativeDifference(actual: Float32Array, expected: Float32Array): number {
  let difference = 0;
  let scale = 0;
  for (let i = 0; i < expected.length; i++) {
    difference = Math.max(difference, Math.abs(actual[i]! - expected[i]!));
    scale = Math.max(scale, Math.abs(expected[i]!));
  }
  return difference / scale;
}

beforeAll(async () => {
  engine = await FaceEngine.create({ recognition: true });
  shipped = (await loadFaceres(engine.tf, humanModelsDir(), { fused: false })).model;
  const decoded = await decodeImage(faceImage(3));
  if (!decoded.ok) throw new Error('fixture did not decode');
  image = decoded.image;
  const faces = await engine.detect(image);
  if (!faces[0]) throw new Error('fixture has no face');
  face = faces[0];
});

describe('aligned crop sampled in JavaScript', () => {
  it.each([false, true])('matches tf.image.transform (flip %s) to a fraction of a grey level', async (flip) => {
    const ours = sampleCrop(image, cropTransform(alignedCrop(face), flip));
    const reference = await tfCrop(flip);
    expect(ours).toHaveLength(reference.length);
    let worst = 0;
    for (let i = 0; i < reference.length; i++) worst = Math.max(worst, Math.abs(ours[i]! - reference[i]!));
    expect(worst).toBeLessThan(0.05);
  });
});

describe('fused faceres', () => {
  it('gives the shipped graph’s descriptor and feature map for a real face', async () => {
    const crop = alignedCrop(face);
    const fused = await engine.describe(image, crop);
    const input = engine.tf.tensor4d(await tfCrop(false), [1, DESCRIPTOR_INPUT_PX, DESCRIPTOR_INPUT_PX, 3], 'float32');
    const outputs = shipped.execute(input, [...FACERES_OUTPUTS]) as Tensor[];
    const [map, descriptor] = await Promise.all(outputs.map(async (t) => Float32Array.from(await t.data())));
    engine.tf.dispose([input, ...outputs]);

    expect(fused.descriptor).toHaveLength(1024);
    expect(fused.featureMap).toHaveLength(7 * 7 * 1024);
    expect(maxRelativeDifference(fused.descriptor, descriptor!)).toBeLessThan(1e-4);
    expect(maxRelativeDifference(fused.featureMap, map!)).toBeLessThan(1e-3);
  });
});

describe('tensor bookkeeping', () => {
  it('leaves no tensor behind after detect, describe and recognize', async () => {
    const before = engine.tf.memory().numTensors;
    for (let call = 0; call < 5; call++) {
      const faces = await engine.detect(image);
      await engine.describe(image, alignedCrop(faces[0]!), { flip: call % 2 === 1 });
      await engine.recognize(image, alignedCrop(faces[0]!), { flip: call % 2 === 1 });
    }
    expect(engine.tf.memory().numTensors).toBe(before);
  });
});

describe('face-recognition descriptor (face-api weights)', () => {
  async function descriptorOf(bytes: Buffer): Promise<Float32Array> {
    const decoded = await decodeImage(bytes);
    if (!decoded.ok) throw new Error(decoded.code);
    const [found] = await engine.detect(decoded.image);
    if (!found) throw new Error('no face');
    return engine.recognize(decoded.image, alignedCrop(found));
  }
  const distance = (a: Float32Array, b: Float32Array) => Math.sqrt(a.reduce((sum, value, i) => sum + (value - b[i]!) ** 2, 0));

  it('puts a re-encoded copy of a face far closer to it than another person', async () => {
    const sharp = (await import('sharp')).default;
    const face = await descriptorOf(faceImage(0));
    const copy = await descriptorOf(await sharp(faceImage(0)).resize(360).jpeg({ quality: 70 }).toBuffer());
    const others = await Promise.all([1, 2, 3].map((n) => descriptorOf(faceImage(n))));
    expect(face).toHaveLength(128);
    // dlib's metric: the same person within ~0.6, different people beyond it.
    expect(distance(face, copy)).toBeLessThan(0.25);
    for (const other of others) expect(distance(face, other)).toBeGreaterThan(0.45);
  });
});
