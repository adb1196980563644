import { type AlignedCrop, DESCRIPTOR_SIZE, type DetectedFace, FEATURE_GRID, toCropUnit } from '../inference/face-engine.js';
import type { HeritageModel } from '../heritage/heritage-model.js';
import { FACE_REGIONS, type FaceRegionId } from '../traits/regions.js';

export const ATTRIBUTION_REGIONS = ['eyes', 'nose', 'mouth', 'jaw', 'skin', 'hairline'] as const satisfies readonly FaceRegionId[];
export type AttributionRegionId = (typeof ATTRIBUTION_REGIONS)[number];

export interface RegionAttribution {
  id: AttributionRegionId;
  label: string;
  /** Share of the total absolute effect, 0..1; all regions sum to 1. */
  weight: number;
  /**
   * Change in the top group's logit margin if this region looked like the face's average:
   * positive means the region supports the top group.
   */
  effect: number;
  direction: 'supports' | 'opposes';
}

export interface Attributions {
  /**
   * `class-activation`: the head is linear over faceres's global average pool, so each cell of the
   * 7 x 7 feature map adds an exact, known amount to the logits. Summing cells inside a region
   * approximates greying the region out (occlusion) at no extra inference; see README.
   */
  method: 'class-activation';
  topGroup: string;
  regions: RegionAttribution[];
}

const SUBSAMPLES = 4;

function insidePolygon([x, y]: [number, number], polygon: [number, number][]): boolean {
  let inside = false;
  for (let i = 0, j = polygon.length - 1; i < polygon.length; j = i++) {
    const [xi, yi] = polygon[i]!;
    const [xj, yj] = polygon[j]!;
    if (yi > y !== yj > y && x < ((xj - xi) * (y - yi)) / (yj - yi) + xi) inside = !inside;
  }
  return inside;
}

/** Fraction of each feature-map cell covered by the region's outline (in crop space). */
export function cellCoverage(face: DetectedFace, crop: AlignedCrop, region: FaceRegionId): Float64Array {
  const polygon = FACE_REGIONS[region].outline.map((index) => {
    const point = face.mesh[index]!;
    return toCropUnit(crop, [point[0], point[1]]);
  });
  const coverage = new Float64Array(FEATURE_GRID * FEATURE_GRID);
  for (let row = 0; row < FEATURE_GRID; row++) {
    for (let column = 0; column < FEATURE_GRID; column++) {
      let hits = 0;
      for (let sy = 0; sy < SUBSAMPLES; sy++) {
        for (let sx = 0; sx < SUBSAMPLES; sx++) {
          const x = (column + (sx + 0.5) / SUBSAMPLES) / FEATURE_GRID;
          const y = (row + (sy + 0.5) / SUBSAMPLES) / FEATURE_GRID;
          if (insidePolygon([x, y], polygon)) hits += 1;
        }
      }
      coverage[row * FEATURE_GRID + column] = hits / (SUBSAMPLES * SUBSAMPLES);
    }
  }
  return coverage;
}

export function classActivationAttributions(
  model: HeritageModel,
  featureMap: Float32Array,
  face: DetectedFace,
  crop: AlignedCrop,
  topClass: number,
  topLabel: string,
): Attributions {
  const { head } = model;
  const features = head.features;
  // The map holds faceres's channels, the head's first inputs; any further inputs (the
  // recognition descriptor) have no spatial map and are left out of the attribution.
  const channels = DESCRIPTOR_SIZE;
  const cells = FEATURE_GRID * FEATURE_GRID;
  // Direction in feature space that separates the top group from the mean of the others.
  const direction = new Float64Array(channels);
  for (let f = 0; f < channels; f++) {
    let others = 0;
    for (let c = 0; c < head.classes; c++) if (c !== topClass) others += head.weights[c * features + f]!;
    direction[f] = (head.weights[topClass * features + f]! - others / (head.classes - 1)) / head.scale[f]!;
  }
  const cellEffect = new Float64Array(cells);
  let meanEffect = 0;
  for (let k = 0; k < cells; k++) {
    let sum = 0;
    for (let f = 0; f < channels; f++) sum += direction[f]! * featureMap[k * channels + f]!;
    cellEffect[k] = sum / cells;
    meanEffect += sum / cells / cells;
  }
  const raw = ATTRIBUTION_REGIONS.map((region) => {
    const coverage = cellCoverage(face, crop, region);
    let effect = 0;
    for (let k = 0; k < cells; k++) effect += coverage[k]! * (cellEffect[k]! - meanEffect);
    return { region, effect };
  });
  const total = raw.reduce((sum, r) => sum + Math.abs(r.effect), 0) || 1;
  return {
    method: 'class-activation',
    topGroup: topLabel,
    regions: raw.map(({ region, effect }) => ({
      id: region,
      label: FACE_REGIONS[region].label,
      weight: Math.round((Math.abs(effect) / total) * 100) / 100,
      effect: Math.round(effect * 1000) / 1000,
      direction: effect >= 0 ? 'supports' : 'opposes',
    })),
  };
}
