/**
 * Multinomial logistic regression with L2, trained by Nesterov-accelerated gradient descent on
 * standardised features. Small and dependency-free: 1024 inputs x 7 classes, a few thousand rows.
 */
export interface LinearHead {
  /** Per-feature mean and standard deviation used to standardise inputs. */
  mean: Float64Array;
  scale: Float64Array;
  /** classes x features, applied to standardised inputs. */
  weights: Float64Array;
  bias: Float64Array;
  classes: number;
  features: number;
}

export interface TrainOptions {
  /** L2 strength on the mean cross-entropy. */
  lambda: number;
  iterations?: number;
  /** Start from these weights (warm start along a lambda path). */
  init?: LinearHead;
}

export function standardiser(x: Float32Array, rows: number, features: number): { mean: Float64Array; scale: Float64Array } {
  const mean = new Float64Array(features);
  const scale = new Float64Array(features);
  for (let r = 0; r < rows; r++) for (let f = 0; f < features; f++) mean[f]! += x[r * features + f]!;
  for (let f = 0; f < features; f++) mean[f]! /= rows;
  for (let r = 0; r < rows; r++) {
    for (let f = 0; f < features; f++) {
      const d = x[r * features + f]! - mean[f]!;
      scale[f]! += d * d;
    }
  }
  for (let f = 0; f < features; f++) scale[f] = Math.sqrt(scale[f]! / rows) + 1e-6;
  return { mean, scale };
}

function standardise(x: Float32Array, rows: number, features: number, mean: Float64Array, scale: Float64Array): Float64Array {
  const z = new Float64Array(rows * features);
  for (let r = 0; r < rows; r++) {
    for (let f = 0; f < features; f++) z[r * features + f] = (x[r * features + f]! - mean[f]!) / scale[f]!;
  }
  return z;
}

/** Largest eigenvalue of ZᵀZ / n by power iteration (for the step size). */
function largestEigenvalue(z: Float64Array, rows: number, features: number): number {
  let v = new Float64Array(features).fill(1 / Math.sqrt(features));
  let eigen = 1;
  const t = new Float64Array(rows);
  for (let iteration = 0; iteration < 25; iteration++) {
    for (let r = 0; r < rows; r++) {
      let s = 0;
      for (let f = 0; f < features; f++) s += z[r * features + f]! * v[f]!;
      t[r] = s;
    }
    const next = new Float64Array(features);
    for (let r = 0; r < rows; r++) {
      const tr = t[r]!;
      for (let f = 0; f < features; f++) next[f]! += z[r * features + f]! * tr;
    }
    let norm = 0;
    for (let f = 0; f < features; f++) norm += next[f]! * next[f]!;
    norm = Math.sqrt(norm);
    eigen = norm / rows;
    for (let f = 0; f < features; f++) next[f]! /= norm;
    v = next;
  }
  return eigen;
}

export function trainSoftmax(
  x: Float32Array,
  labels: Int32Array | number[],
  rows: number,
  features: number,
  classes: number,
  options: TrainOptions,
): LinearHead {
  const { mean, scale } = options.init ?? standardiser(x, rows, features);
  const z = standardise(x, rows, features, mean, scale);
  const lipschitz = 0.5 * largestEigenvalue(z, rows, features) + options.lambda;
  const step = 1 / lipschitz;
  const size = classes * features;
  let w = options.init ? Float64Array.from(options.init.weights) : new Float64Array(size);
  let b = options.init ? Float64Array.from(options.init.bias) : new Float64Array(classes);
  let wPrev = Float64Array.from(w);
  let bPrev = Float64Array.from(b);
  const gradW = new Float64Array(size);
  const gradB = new Float64Array(classes);
  const logits = new Float64Array(classes);
  const iterations = options.iterations ?? 200;
  for (let iteration = 1; iteration <= iterations; iteration++) {
    const momentum = (iteration - 1) / (iteration + 2);
    const yW = new Float64Array(size);
    const yB = new Float64Array(classes);
    for (let i = 0; i < size; i++) yW[i] = w[i]! + momentum * (w[i]! - wPrev[i]!);
    for (let c = 0; c < classes; c++) yB[c] = b[c]! + momentum * (b[c]! - bPrev[c]!);
    gradW.fill(0);
    gradB.fill(0);
    for (let r = 0; r < rows; r++) {
      const offset = r * features;
      let max = -Infinity;
      for (let c = 0; c < classes; c++) {
        let s = yB[c]!;
        const wOffset = c * features;
        for (let f = 0; f < features; f++) s += yW[wOffset + f]! * z[offset + f]!;
        logits[c] = s;
        if (s > max) max = s;
      }
      let total = 0;
      for (let c = 0; c < classes; c++) {
        logits[c] = Math.exp(logits[c]! - max);
        total += logits[c]!;
      }
      const label = labels[r]!;
      for (let c = 0; c < classes; c++) {
        const residual = (logits[c]! / total - (c === label ? 1 : 0)) / rows;
        gradB[c]! += residual;
        const wOffset = c * features;
        for (let f = 0; f < features; f++) gradW[wOffset + f]! += residual * z[offset + f]!;
      }
    }
    wPrev = w;
    bPrev = b;
    w = new Float64Array(size);
    b = new Float64Array(classes);
    for (let i = 0; i < size; i++) w[i] = yW[i]! - step * (gradW[i]! + options.lambda * yW[i]!);
    for (let c = 0; c < classes; c++) b[c] = yB[c]! - step * gradB[c]!;
  }
  return { mean, scale, weights: w, bias: b, classes, features };
}

/** Raw logits for one descriptor. */
export function headLogits(head: LinearHead, descriptor: ArrayLike<number>): Float64Array {
  const out = new Float64Array(head.classes);
  for (let c = 0; c < head.classes; c++) {
    let s = head.bias[c]!;
    const offset = c * head.features;
    for (let f = 0; f < head.features; f++) s += head.weights[offset + f]! * ((descriptor[f]! - head.mean[f]!) / head.scale[f]!);
    out[c] = s;
  }
  return out;
}

export function softmax(logits: ArrayLike<number>, temperature = 1): Float64Array {
  const out = new Float64Array(logits.length);
  let max = -Infinity;
  for (let i = 0; i < logits.length; i++) max = Math.max(max, logits[i]! / temperature);
  let total = 0;
  for (let i = 0; i < logits.length; i++) {
    out[i] = Math.exp(logits[i]! / temperature - max);
    total += out[i]!;
  }
  for (let i = 0; i < logits.length; i++) out[i]! /= total;
  return out;
}

/** Temperature minimising the negative log-likelihood of held-out logits (golden-section search). */
export function fitTemperature(logitRows: Float64Array[], labels: number[]): number {
  const nll = (t: number): number => {
    let total = 0;
    logitRows.forEach((logits, i) => {
      total -= Math.log(Math.max(1e-12, softmax(logits, t)[labels[i]!]!));
    });
    return total;
  };
  let low = Math.log(0.05);
  let high = Math.log(20);
  const ratio = (Math.sqrt(5) - 1) / 2;
  for (let iteration = 0; iteration < 60; iteration++) {
    const a = high - ratio * (high - low);
    const b = low + ratio * (high - low);
    if (nll(Math.exp(a)) < nll(Math.exp(b))) high = b;
    else low = a;
  }
  return Math.exp((low + high) / 2);
}
