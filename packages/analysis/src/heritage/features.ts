import type { FeatureSet } from './heritage-model.js';

/** The descriptors of one aligned crop: faceres and, when measured, its mirror and the recognition descriptor. */
export interface CropDescriptors {
  faceres: ArrayLike<number>;
  faceresFlip?: ArrayLike<number>;
  recognition?: ArrayLike<number>;
  recognitionFlip?: ArrayLike<number>;
}

export const needsRecognition = (set: FeatureSet) => set.includes('recognition');
export const needsFlip = (set: FeatureSet) => set.endsWith('-flipavg');

/**
 * What the head reads for `set`: faceres, then the recognition descriptor when the set has it;
 * `-flipavg` averages each with its mirrored crop's. Training (from the feature cache) and the
 * analyser both go through here, so they cannot disagree.
 */
export function headFeatures(set: FeatureSet, parts: CropDescriptors, out?: Float32Array): Float32Array {
  const flip = needsFlip(set);
  const pieces: [ArrayLike<number>, ArrayLike<number> | undefined][] = [[parts.faceres, parts.faceresFlip]];
  if (needsRecognition(set)) {
    if (!parts.recognition) throw new Error(`${set} needs the recognition descriptor`);
    pieces.push([parts.recognition, parts.recognitionFlip]);
  }
  const size = pieces.reduce((sum, [plain]) => sum + plain.length, 0);
  const target = out ?? new Float32Array(size);
  let offset = 0;
  for (const [plain, mirrored] of pieces) {
    if (flip && !mirrored) throw new Error(`${set} needs the mirrored crop's descriptors`);
    for (let i = 0; i < plain.length; i++) target[offset + i] = flip ? (plain[i]! + mirrored![i]!) / 2 : plain[i]!;
    offset += plain.length;
  }
  return target;
}

/**
 * The 7 x 7 x C map of the crop averaged with its mirror's, the mirror's columns put back in
 * place, so that pooling it gives the flip-averaged descriptor (class activation stays exact).
 */
export function flipAveragedMap(map: Float32Array, mirroredMap: Float32Array, grid: number, channels: number): Float32Array {
  const out = new Float32Array(map.length);
  for (let row = 0; row < grid; row++) {
    for (let column = 0; column < grid; column++) {
      const at = (row * grid + column) * channels;
      const from = (row * grid + (grid - 1 - column)) * channels;
      for (let c = 0; c < channels; c++) out[at + c] = (map[at + c]! + mirroredMap[from + c]!) / 2;
    }
  }
  return out;
}
