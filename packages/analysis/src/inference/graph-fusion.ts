/**
 * Rewrites a tfjs graph model before loading it: convolution → batch-norm → ReLU6 chains become one
 * fused convolution, and nodes the requested outputs do not need are dropped.
 *
 * faceres was exported without the converter's fusing pass, so each of its 27 convolutions is
 * followed by up to five separate element-wise kernels (per-channel Mul, Add, Relu, Minimum,
 * Maximum), each a full pass over the activation and a fresh tensor. XNNPACK applies the bias and
 * the clamp inside the convolution, so the fused graph computes the same function (up to float
 * rounding) with a fifth of the kernels and far fewer live tensors. See ADR 051.
 */

/** The parts of a tfjs graph-model JSON node we read or write. */
export interface GraphNode {
  name: string;
  op: string;
  input?: string[];
  attr?: Record<string, unknown>;
  device?: string;
}

export interface WeightSpec {
  name: string;
  shape: number[];
  dtype: string;
  quantization?: { dtype: string; scale?: number; min?: number; original_dtype?: string };
}

/** A graph model as found on disk: model.json parsed, plus its weight shards concatenated. */
export interface GraphModelFiles {
  json: {
    modelTopology: { node: GraphNode[]; [key: string]: unknown };
    weightsManifest: { paths: string[]; weights: WeightSpec[] }[];
    [key: string]: unknown;
  };
  weightData: Uint8Array;
}

/** What `tf.loadGraphModel` accepts from an in-memory IO handler (tfjs `ModelArtifacts`). */
export interface GraphModelArtifacts {
  modelTopology: { node: GraphNode[]; [key: string]: unknown };
  format?: unknown;
  generatedBy?: unknown;
  convertedBy?: unknown;
  signature?: unknown;
  userDefinedMetadata?: unknown;
  weightSpecs: WeightSpec[];
  weightData: ArrayBuffer;
}

export interface FusionReport {
  /** Convolutions that absorbed their scale, bias and activation. */
  fusedConvolutions: number;
  nodesBefore: number;
  nodesAfter: number;
}

type WeightValues = Float32Array | Int32Array;

/** Where one weight of the manifest lies in the concatenated weight data. */
interface WeightEntry {
  spec: WeightSpec;
  offset: number;
  byteLength: number;
  size: number;
}

const BIAS_ADD_OPS = new Set(['Add', 'AddV2', 'BiasAdd']);
const RELU6_MAX = 6;

function sourceName(input: string): string {
  return input.replace(/^\^/, '').replace(/:\d+$/, '');
}

/** Half-precision bits → float32, exact for every value including subnormals. */
function halfToFloat(bits: number): number {
  const sign = bits & 0x8000 ? -1 : 1;
  const exponent = (bits >> 10) & 0x1f;
  const fraction = bits & 0x3ff;
  if (exponent === 0) return sign * 2 ** -14 * (fraction / 1024);
  if (exponent === 31) return fraction ? NaN : sign * Infinity;
  return sign * 2 ** (exponent - 15) * (1 + fraction / 1024);
}

/** Locates every weight (float32, float16-quantised float32, int32) and checks the data's size. */
function indexWeights(files: GraphModelFiles): Map<string, WeightEntry> {
  const index = new Map<string, WeightEntry>();
  let offset = 0;
  for (const spec of files.json.weightsManifest.flatMap((group) => group.weights)) {
    const size = spec.shape.reduce((product, side) => product * side, 1);
    const quantization = spec.quantization?.dtype;
    let bytesPerValue: number;
    if (spec.dtype === 'float32' && quantization === 'float16') bytesPerValue = 2;
    else if ((spec.dtype === 'float32' || spec.dtype === 'int32') && quantization === undefined) bytesPerValue = 4;
    else throw new Error(`weight ${spec.name}: ${spec.dtype}/${quantization ?? 'none'} is not supported`);
    index.set(spec.name, { spec, offset, byteLength: size * bytesPerValue, size });
    offset += size * bytesPerValue;
  }
  if (offset !== files.weightData.byteLength) throw new Error('weight data does not match the manifest');
  return index;
}

function decodeWeight(files: GraphModelFiles, entry: WeightEntry): WeightValues {
  const view = new DataView(files.weightData.buffer, files.weightData.byteOffset + entry.offset, entry.byteLength);
  if (entry.spec.dtype === 'int32') return Int32Array.from({ length: entry.size }, (_, i) => view.getInt32(4 * i, true));
  if (entry.spec.quantization?.dtype === 'float16') {
    return Float32Array.from({ length: entry.size }, (_, i) => halfToFloat(view.getUint16(2 * i, true)));
  }
  return Float32Array.from({ length: entry.size }, (_, i) => view.getFloat32(4 * i, true));
}

/** Decodes every weight of the manifest into typed arrays (float16 ones as float32). */
export function decodeWeights(files: GraphModelFiles): Map<string, { shape: number[]; values: WeightValues }> {
  const decoded = new Map<string, { shape: number[]; values: WeightValues }>();
  for (const [name, entry] of indexWeights(files)) decoded.set(name, { shape: entry.spec.shape, values: decodeWeight(files, entry) });
  return decoded;
}

function encodeStrings(values: string[]): { list: { s: string[] } } {
  return { list: { s: values.map((value) => Buffer.from(value, 'utf8').toString('base64')) } };
}

/**
 * Fuses conv → [Mul(per-channel scale), depthwise only] → Add(bias) → [Relu → Minimum(6) →
 * Maximum(0)] chains, and prunes everything `outputs` does not depend on. Pure: returns new
 * artifacts and leaves `files` untouched.
 */
export function fuseGraph(files: GraphModelFiles, outputs: readonly string[]): { artifacts: GraphModelArtifacts; report: FusionReport } {
  const index = indexWeights(files);
  const decoded = new Map<string, WeightValues>();
  const valuesOf = (name: string) => {
    let values = decoded.get(name);
    if (!values) decoded.set(name, (values = decodeWeight(files, index.get(name)!)));
    return values;
  };
  // Weights we rewrite (folded depthwise kernels); the rest pass through in their own encoding.
  const replaced = new Map<string, Float32Array>();
  const nodes = files.json.modelTopology.node.map((node) => ({ ...node, input: [...(node.input ?? [])] }));
  const byName = new Map(nodes.map((node) => [node.name, node]));
  const consumers = new Map<string, string[]>();
  for (const node of nodes) {
    for (const input of node.input) {
      const source = sourceName(input);
      consumers.set(source, [...(consumers.get(source) ?? []), node.name]);
    }
  }
  const protectedNames = new Set(outputs);
  const onlyConsumer = (name: string) => {
    const list = consumers.get(name) ?? [];
    if (list.length !== 1 || protectedNames.has(name)) return undefined;
    return byName.get(list[0]!);
  };
  const constantOperand = (node: GraphNode, from: string) => {
    const inputs = (node.input ?? []).map(sourceName);
    if (inputs.length !== 2 || !inputs.includes(from)) return undefined;
    const other = inputs[0] === from ? inputs[1]! : inputs[0]!;
    const entry = index.get(other);
    return entry && entry.spec.dtype === 'float32' ? { name: other, shape: entry.spec.shape } : undefined;
  };
  const scalarEquals = (weight: { name: string; shape: number[] } | undefined, value: number) =>
    weight !== undefined && weight.shape.length === 0 && valuesOf(weight.name)[0] === value;

  const removed = new Set<string>();
  let fusedConvolutions = 0;
  for (const conv of nodes) {
    if (conv.op !== 'Conv2D' && conv.op !== 'DepthwiseConv2dNative') continue;
    const kernelName = sourceName(conv.input[1] ?? '');
    const kernel = index.get(kernelName)?.spec;
    if (!kernel || kernel.shape.length !== 4 || (consumers.get(kernelName) ?? []).length !== 1) continue;
    const channels = conv.op === 'Conv2D' ? kernel.shape[3]! : kernel.shape[2]! * kernel.shape[3]!;
    const isChannelVector = (w: { shape: number[] } | undefined) => w !== undefined && w.shape.length === 1 && w.shape[0] === channels;

    const chain: GraphNode[] = [];
    let last: GraphNode = conv;
    let next = onlyConsumer(conv.name);
    let scale: Float32Array | undefined;
    if (conv.op === 'DepthwiseConv2dNative' && kernel.shape[3] === 1 && next?.op === 'Mul') {
      const operand = constantOperand(next, last.name);
      if (isChannelVector(operand) && (consumers.get(operand!.name) ?? []).length === 1) {
        scale = valuesOf(operand!.name) as Float32Array;
        chain.push(next);
        last = next;
        next = onlyConsumer(next.name);
      }
    }
    if (!next || !BIAS_ADD_OPS.has(next.op)) continue;
    const biasOperand = constantOperand(next, last.name);
    if (!isChannelVector(biasOperand)) continue;
    chain.push(next);
    last = next;
    next = onlyConsumer(next.name);

    let activation: 'Relu' | 'Relu6' | undefined;
    if (next?.op === 'Relu') {
      const relu = next;
      activation = 'Relu';
      const minimum = onlyConsumer(relu.name);
      const maximum = minimum?.op === 'Minimum' ? onlyConsumer(minimum.name) : undefined;
      const upper = minimum?.op === 'Minimum' ? constantOperand(minimum, relu.name) : undefined;
      const lower = maximum?.op === 'Maximum' ? constantOperand(maximum, minimum!.name) : undefined;
      chain.push(relu);
      last = relu;
      if (scalarEquals(upper, RELU6_MAX) && scalarEquals(lower, 0)) {
        activation = 'Relu6';
        chain.push(minimum!, maximum!);
        last = maximum!;
      }
    }

    if (scale) {
      // Depthwise kernel [h, w, channels, 1]: channel is the fastest-varying axis.
      const values = Float32Array.from(valuesOf(kernelName));
      for (let i = 0; i < values.length; i++) values[i] = values[i]! * scale[i % channels]!;
      replaced.set(kernelName, values);
    }
    const fusedName = last.name;
    for (const node of [conv, ...chain]) removed.add(node.name);
    removed.delete(fusedName);
    const fused = byName.get(fusedName)!;
    fused.op = conv.op === 'Conv2D' ? '_FusedConv2D' : 'FusedDepthwiseConv2dNative';
    fused.input = [conv.input[0]!, conv.input[1]!, biasOperand!.name];
    fused.attr = {
      ...conv.attr,
      num_args: { i: '1' },
      epsilon: { f: 0 },
      fused_ops: encodeStrings(activation ? ['BiasAdd', activation] : ['BiasAdd']),
    };
    if (conv.device) fused.device = conv.device;
    fusedConvolutions += 1;
  }

  // Keep only what the outputs depend on (this also drops the scale constants folded away).
  const kept = nodes.filter((node) => !removed.has(node.name));
  const keptByName = new Map(kept.map((node) => [node.name, node]));
  const needed = new Set<string>();
  const stack = [...outputs];
  while (stack.length > 0) {
    const name = stack.pop()!;
    if (needed.has(name)) continue;
    const node = keptByName.get(name);
    if (!node) throw new Error(`graph node ${name} not found`);
    needed.add(name);
    for (const input of node.input) stack.push(sourceName(input));
  }
  const finalNodes = kept.filter((node) => needed.has(node.name));

  // Untouched weights keep their bytes and encoding (faceres ships float16), so the buffer tfjs
  // decodes is no larger than the shipped one.
  const specs: WeightSpec[] = [];
  const chunks: Uint8Array[] = [];
  for (const [name, entry] of index) {
    if (!needed.has(name)) continue;
    const values = replaced.get(name);
    if (values) {
      specs.push({ name, shape: entry.spec.shape, dtype: 'float32' });
      chunks.push(new Uint8Array(values.buffer, values.byteOffset, values.byteLength));
    } else {
      specs.push(entry.spec);
      chunks.push(files.weightData.subarray(entry.offset, entry.offset + entry.byteLength));
    }
  }
  const weightData = new Uint8Array(chunks.reduce((sum, chunk) => sum + chunk.byteLength, 0));
  let at = 0;
  for (const chunk of chunks) {
    weightData.set(chunk, at);
    at += chunk.byteLength;
  }
  const { modelTopology, weightsManifest: _manifest, signature, ...metadata } = files.json;
  return {
    artifacts: {
      ...metadata,
      signature: keepSignatureOutputs(signature, needed),
      modelTopology: { ...modelTopology, node: finalNodes },
      weightSpecs: specs,
      weightData: weightData.buffer,
    },
    report: { fusedConvolutions, nodesBefore: nodes.length, nodesAfter: finalNodes.length },
  };
}

/** The signature without the outputs that were pruned (tfjs would look for their nodes). */
function keepSignatureOutputs(signature: unknown, kept: Set<string>): unknown {
  if (typeof signature !== 'object' || signature === null || !('outputs' in signature)) return signature;
  const outputs = (signature as { outputs: Record<string, { name?: string }> }).outputs;
  const filtered = Object.fromEntries(Object.entries(outputs).filter(([key, entry]) => kept.has(sourceName(entry.name ?? key))));
  return { ...signature, outputs: filtered };
}
