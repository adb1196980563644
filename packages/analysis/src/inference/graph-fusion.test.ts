import { describe, expect, it } from 'vitest';
import { type GraphModelFiles, type GraphNode, decodeWeights, fuseGraph } from './graph-fusion.js';

interface TestWeight {
  name: string;
  shape: number[];
  values: number[];
  float16?: boolean;
}

/** Half-precision bits of values that float16 holds exactly (tests only). */
function toFloat16Bits(value: number): number {
  if (value === 0) return 0;
  const sign = value < 0 ? 0x8000 : 0;
  const exponent = Math.floor(Math.log2(Math.abs(value)));
  const fraction = Math.abs(value) / 2 ** exponent - 1;
  return sign | ((exponent + 15) << 10) | Math.round(fraction * 1024);
}

function graphFiles(nodes: GraphNode[], weights: TestWeight[]): GraphModelFiles {
  const bytes: number[] = [];
  const view = new DataView(new ArrayBuffer(8));
  for (const weight of weights) {
    for (const value of weight.values) {
      if (weight.float16) {
        view.setUint16(0, toFloat16Bits(value), true);
        bytes.push(view.getUint8(0), view.getUint8(1));
      } else {
        view.setFloat32(0, value, true);
        bytes.push(view.getUint8(0), view.getUint8(1), view.getUint8(2), view.getUint8(3));
      }
    }
  }
  const constants = weights.map((weight) => ({ name: weight.name, op: 'Const' }));
  return {
    json: {
      format: 'graph-model',
      modelTopology: { node: [...constants, ...nodes], library: {}, versions: {} },
      signature: { outputs: { kept: { name: 'out' }, dropped: { name: 'head' } } },
      weightsManifest: [
        {
          paths: ['test.bin'],
          weights: weights.map(({ name, shape, float16 }) => ({
            name,
            shape,
            dtype: 'float32',
            ...(float16 ? { quantization: { dtype: 'float16', original_dtype: 'float32' } } : {}),
          })),
        },
      ],
    },
    weightData: Uint8Array.from(bytes),
  };
}

const convAttr = { strides: { list: { i: ['1', '1', '1', '1'] } }, padding: { s: 'U0FNRQ==' } };

/** conv → bias → ReLU6, then depthwise → scale → bias → ReLU, plus a head nobody asks for. */
function mobileNetLikeGraph(): GraphNode[] {
  return [
    { name: 'input', op: 'Placeholder' },
    { name: 'conv', op: 'Conv2D', input: ['input', 'kernel'], attr: convAttr },
    { name: 'add', op: 'Add', input: ['conv', 'bias'] },
    { name: 'relu', op: 'Relu', input: ['add'] },
    { name: 'min', op: 'Minimum', input: ['relu', 'six'] },
    { name: 'max', op: 'Maximum', input: ['min', 'zero'] },
    { name: 'dw', op: 'DepthwiseConv2dNative', input: ['max', 'dwKernel'], attr: convAttr },
    { name: 'mul', op: 'Mul', input: ['dw', 'dwScale'] },
    { name: 'dwAdd', op: 'AddV2', input: ['mul', 'dwBias'] },
    { name: 'out', op: 'Relu', input: ['dwAdd'] },
    { name: 'head', op: 'MatMul', input: ['out', 'headKernel'] },
  ];
}

const weights: TestWeight[] = [
  { name: 'kernel', shape: [1, 1, 2, 2], values: [1, 2, 3, 4] },
  { name: 'bias', shape: [2], values: [0.5, -0.5], float16: true },
  { name: 'six', shape: [], values: [6], float16: true },
  { name: 'zero', shape: [], values: [0], float16: true },
  { name: 'dwKernel', shape: [1, 2, 2, 1], values: [1, 1, 2, 2] },
  { name: 'dwScale', shape: [2], values: [0.5, 4], float16: true },
  { name: 'dwBias', shape: [2], values: [1, 2] },
  { name: 'headKernel', shape: [2, 3], values: [1, 2, 3, 4, 5, 6] },
];

function decodeFusedOps(node: GraphNode | undefined): string[] {
  const attr = node?.attr?.fused_ops as { list: { s: string[] } } | undefined;
  return (attr?.list.s ?? []).map((value) => Buffer.from(value, 'base64').toString('utf8'));
}

describe('decodeWeights', () => {
  it('reads float32 and float16-quantised weights in manifest order', () => {
    const decoded = decodeWeights(graphFiles([], weights));
    expect(Array.from(decoded.get('bias')!.values)).toEqual([0.5, -0.5]);
    expect(Array.from(decoded.get('dwScale')!.values)).toEqual([0.5, 4]);
    expect(Array.from(decoded.get('headKernel')!.values)).toEqual([1, 2, 3, 4, 5, 6]);
  });

  it('refuses weight data that does not match the manifest', () => {
    const files = graphFiles([], weights);
    expect(() => decodeWeights({ ...files, weightData: files.weightData.subarray(4) })).toThrow(/does not match/);
  });
});

describe('fuseGraph', () => {
  it('fuses conv + bias + ReLU6 and depthwise + scale + bias + ReLU, and prunes what the output does not need', () => {
    const { artifacts, report } = fuseGraph(graphFiles(mobileNetLikeGraph(), weights), ['out']);
    const nodes = new Map(artifacts.modelTopology.node.map((node) => [node.name, node]));

    expect(report.fusedConvolutions).toBe(2);
    expect(nodes.get('max')?.op).toBe('_FusedConv2D');
    expect(nodes.get('max')?.input).toEqual(['input', 'kernel', 'bias']);
    expect(decodeFusedOps(nodes.get('max'))).toEqual(['BiasAdd', 'Relu6']);
    expect(nodes.get('out')?.op).toBe('FusedDepthwiseConv2dNative');
    expect(nodes.get('out')?.input).toEqual(['max', 'dwKernel', 'dwBias']);
    expect(decodeFusedOps(nodes.get('out'))).toEqual(['BiasAdd', 'Relu']);
    expect(nodes.get('out')?.attr?.strides).toEqual(convAttr.strides);
    for (const gone of ['conv', 'add', 'relu', 'min', 'dw', 'mul', 'dwAdd', 'head', 'headKernel', 'six', 'dwScale']) {
      expect(nodes.has(gone)).toBe(false);
    }
    expect(artifacts.weightSpecs.map((spec) => spec.name)).toEqual(['kernel', 'bias', 'dwKernel', 'dwBias']);
    expect(artifacts.weightSpecs.find((spec) => spec.name === 'bias')?.quantization?.dtype).toBe('float16');
    expect(Object.keys((artifacts.signature as { outputs: object }).outputs)).toEqual(['kept']);

    const written = decodeWeights({
      json: { modelTopology: artifacts.modelTopology, weightsManifest: [{ paths: [], weights: artifacts.weightSpecs }] },
      weightData: new Uint8Array(artifacts.weightData),
    });
    expect(Array.from(written.get('kernel')!.values)).toEqual([1, 2, 3, 4]);
    expect(Array.from(written.get('bias')!.values)).toEqual([0.5, -0.5]);
    // Depthwise kernel [1, 2, 2, 1]: channel is the fastest axis, so scales alternate 0.5, 4.
    expect(Array.from(written.get('dwKernel')!.values)).toEqual([0.5, 4, 1, 8]);
    expect(Array.from(written.get('dwBias')!.values)).toEqual([1, 2]);
  });

  it('stops a chain at a result that has another reader or is an output', () => {
    const nodes = [...mobileNetLikeGraph(), { name: 'tap', op: 'Identity', input: ['add'] }];
    const shared = fuseGraph(graphFiles(nodes, weights), ['out', 'tap']);
    const byName = new Map(shared.artifacts.modelTopology.node.map((node) => [node.name, node]));
    expect(byName.has('conv')).toBe(false);
    expect(byName.get('add')?.op).toBe('_FusedConv2D');
    expect(decodeFusedOps(byName.get('add'))).toEqual(['BiasAdd']);
    expect(byName.get('relu')?.input).toEqual(['add']);
    expect(byName.get('max')?.op).toBe('Maximum');
    expect(byName.get('tap')?.input).toEqual(['add']);

    const asOutput = fuseGraph(graphFiles(mobileNetLikeGraph(), weights), ['out', 'relu']);
    const relu = asOutput.artifacts.modelTopology.node.find((node) => node.name === 'relu');
    expect(relu?.op).toBe('_FusedConv2D');
    expect(decodeFusedOps(relu)).toEqual(['BiasAdd', 'Relu']);
  });
});
