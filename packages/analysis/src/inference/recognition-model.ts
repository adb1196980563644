import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { Tensor } from './runtime.js';

/**
 * The 128-d face-recognition descriptor that `@vladmandic/face-api` ships
 * (`model/face_recognition_model`): a ResNet-34-style network in the layout of dlib's
 * `dlib_face_recognition_resnet_model_v1` (weights public domain, port MIT). face-api's own
 * node builds need the whole `@tensorflow/tfjs` bundle (layers, data, webgl) beside the runtime
 * we already load, so we read its weights with tfjs's decoder and run the network on our tfjs.
 * Each convolution's bias and per-channel scale layer are folded into one fused convolution.
 */
export const RECOGNITION_INPUT_PX = 150;
export const RECOGNITION_SIZE = 128;
/** Mean RGB the network was trained with, subtracted before dividing by 256. */
const MEAN_RGB = [122.782, 117.001, 104.298] as const;
const MANIFEST = 'face_recognition_model-weights_manifest.json';

/** The tfjs operations the network needs (all in tfjs-core). */
export interface RecognitionTf {
  tensor(values: Float32Array | number[], shape: number[], dtype?: string): Tensor;
  tidy<T extends Tensor>(fn: () => T): T;
  io: { decodeWeights(data: ArrayBuffer, specs: unknown[]): Record<string, Tensor> };
  sub(a: Tensor, b: Tensor): Tensor;
  mul(a: Tensor, b: Tensor | number): Tensor;
  add(a: Tensor, b: Tensor): Tensor;
  div(a: Tensor, b: Tensor | number): Tensor;
  relu(x: Tensor): Tensor;
  maxPool(x: Tensor, size: number, strides: number, pad: 'valid'): Tensor;
  avgPool(x: Tensor, size: number, strides: number, pad: 'valid'): Tensor;
  zeros(shape: number[]): Tensor;
  concat(tensors: Tensor[], axis: number): Tensor;
  mean(x: Tensor, axis: number[]): Tensor;
  matMul(a: Tensor, b: Tensor): Tensor;
  dispose(t: Tensor | Tensor[] | Record<string, Tensor>): void;
  fused: {
    conv2d(args: {
      x: Tensor;
      filter: Tensor;
      strides: [number, number];
      pad: 'same' | 'valid';
      bias: Tensor;
      activation: 'relu' | 'linear';
    }): Tensor;
  };
}

interface ConvParams {
  filter: Tensor;
  bias: Tensor;
}

interface BlockParams {
  conv1: ConvParams;
  conv2: ConvParams;
}

const BLOCKS = [
  ['conv32_1', 'same'],
  ['conv32_2', 'same'],
  ['conv32_3', 'same'],
  ['conv64_down', 'down'],
  ['conv64_1', 'same'],
  ['conv64_2', 'same'],
  ['conv64_3', 'same'],
  ['conv128_down', 'down'],
  ['conv128_1', 'same'],
  ['conv128_2', 'same'],
  ['conv256_down', 'down'],
  ['conv256_1', 'same'],
  ['conv256_2', 'same'],
  ['conv256_down_out', 'down'],
] as const;

const require = createRequire(import.meta.url);

/** Folder of `@vladmandic/face-api`'s shipped weights. */
export function recognitionModelsDir(): string {
  return path.join(path.dirname(require.resolve('@vladmandic/face-api/package.json')), 'model');
}

export class RecognitionModel {
  private constructor(
    private readonly tf: RecognitionTf,
    private readonly stem: ConvParams,
    private readonly blocks: { params: BlockParams; down: boolean }[],
    private readonly fc: Tensor,
    private readonly mean: Tensor,
  ) {}

  static async load(tf: RecognitionTf, dir = recognitionModelsDir()): Promise<RecognitionModel> {
    const manifest = JSON.parse(await readFile(path.join(dir, MANIFEST), 'utf8')) as { paths: string[]; weights: unknown[] }[];
    const group = manifest[0];
    if (!group) throw new Error('face recognition manifest is empty');
    const shards = await Promise.all(group.paths.map((shard) => readFile(path.join(dir, shard))));
    const joined = Buffer.concat(shards);
    const buffer = joined.buffer.slice(joined.byteOffset, joined.byteOffset + joined.byteLength) as ArrayBuffer;
    const weights = tf.io.decodeWeights(buffer, group.weights);
    const take = (name: string): Tensor => {
      const tensor = weights[name];
      if (!tensor) throw new Error(`face recognition weight ${name} missing`);
      return tensor;
    };
    // conv(x, W) + b, then x * s + c  ==  conv(x, W * s) + (b * s + c): one fused convolution.
    const folded = (prefix: string): ConvParams => {
      const scale = take(`${prefix}/scale/weights`);
      return {
        filter: tf.tidy(() => tf.mul(take(`${prefix}/conv/filters`), scale)),
        bias: tf.tidy(() => tf.add(tf.mul(take(`${prefix}/conv/bias`), scale), take(`${prefix}/scale/biases`))),
      };
    };
    const stem = folded('conv32_down');
    const blocks = BLOCKS.map(([name, kind]) => ({
      params: { conv1: folded(`${name}/conv1`), conv2: folded(`${name}/conv2`) },
      down: kind === 'down',
    }));
    const fc = take('fc');
    tf.dispose(Object.values(weights).filter((tensor) => tensor !== fc));
    const mean = tf.tensor([...MEAN_RGB], [1, 1, 1, 3], 'float32');
    return new RecognitionModel(tf, stem, blocks, fc, mean);
  }

  /** 128-d descriptor of a 150 x 150 RGB crop (0..255 floats, row-major). */
  async describe(pixels: Float32Array): Promise<Float32Array> {
    const tf = this.tf;
    const output = tf.tidy(() => {
      const input = tf.tensor(pixels, [1, RECOGNITION_INPUT_PX, RECOGNITION_INPUT_PX, 3], 'float32');
      let x = tf.div(tf.sub(input, this.mean), 256);
      x = this.conv(x, this.stem, 2, 'valid', 'relu');
      x = tf.maxPool(x, 3, 2, 'valid');
      for (const block of this.blocks) x = block.down ? this.residualDown(x, block.params) : this.residual(x, block.params);
      return tf.matMul(tf.mean(x, [1, 2]), this.fc);
    });
    try {
      return Float32Array.from(await output.data());
    } finally {
      output.dispose();
    }
  }

  private conv(x: Tensor, params: ConvParams, stride: number, pad: 'same' | 'valid', activation: 'relu' | 'linear'): Tensor {
    return this.tf.fused.conv2d({ x, filter: params.filter, strides: [stride, stride], pad, bias: params.bias, activation });
  }

  private residual(x: Tensor, params: BlockParams): Tensor {
    const out = this.conv(this.conv(x, params.conv1, 1, 'same', 'relu'), params.conv2, 1, 'same', 'linear');
    return this.tf.relu(this.tf.add(out, x));
  }

  /**
   * Stride-2 block: the shortcut is a 2 x 2 average pool, zero-padded to the doubled channel
   * count; where the strided convolution comes out one row/column short of the pool, the
   * convolution's output is zero-padded at the end (as dlib's network and face-api's port do).
   */
  private residualDown(x: Tensor, params: BlockParams): Tensor {
    const tf = this.tf;
    let out = this.conv(this.conv(x, params.conv1, 2, 'valid', 'relu'), params.conv2, 1, 'same', 'linear');
    let pooled = tf.avgPool(x, 2, 2, 'valid');
    const [batch, poolH, poolW, poolC] = pooled.shape as [number, number, number, number];
    const [, outH, outW, outC] = out.shape as [number, number, number, number];
    if (poolH !== outH || poolW !== outW) {
      out = tf.concat([out, tf.zeros([batch, 1, outW, outC])], 1);
      out = tf.concat([out, tf.zeros([batch, outH + 1, 1, outC])], 2);
    }
    if (poolC !== outC) pooled = tf.concat([pooled, tf.zeros([batch, poolH, poolW, outC - poolC])], 3);
    return tf.relu(tf.add(pooled, out));
  }
}
