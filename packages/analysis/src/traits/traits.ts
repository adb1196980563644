import type { DetectedFace } from '../inference/face-engine.js';
import { FACE_REGIONS, type FaceRegionId, MAX_POLYGON_POINTS } from './regions.js';

export type TraitId =
  'face_shape' | 'eye_shape' | 'eye_spacing' | 'nose_width' | 'nose_bridge' | 'lip_fullness' | 'brow_height' | 'jaw_width' | 'cheekbones';

export interface TraitRegion {
  id: FaceRegionId;
  label: string;
  /** Coarse outline, [x, y] as fractions of the face box (may fall slightly outside 0..1). */
  polygon: [number, number][];
}

export interface Trait {
  id: TraitId;
  /** Category in plain words, e.g. "Wide-set". */
  label: string;
  /** Where this face falls among the reference faces, 0 (lowest) .. 1 (highest). */
  value: number;
  description: string;
  region: TraitRegion;
}

/** Deciles (0, 10 .. 100 %) of each raw measurement over the reference set (models/trait-norms.json). */
export type TraitNorms = Record<TraitId, number[]>;

type Mesh = DetectedFace['mesh'];

function distance(mesh: Mesh, a: number, b: number): number {
  const p = mesh[a]!;
  const q = mesh[b]!;
  return Math.hypot(p[0] - q[0], p[1] - q[1]);
}

function midpoint(mesh: Mesh, a: number, b: number): [number, number, number] {
  const p = mesh[a]!;
  const q = mesh[b]!;
  return [(p[0] + q[0]) / 2, (p[1] + q[1]) / 2, (p[2] + q[2]) / 2];
}

interface TraitDefinition {
  id: TraitId;
  region: FaceRegionId;
  /** Scale-free measurement from the mesh. */
  measure(mesh: Mesh): number;
  /** Labels for the lower, middle and upper third of the reference set. */
  labels: [string, string, string];
  describe(label: string): string;
}

const faceWidth = (mesh: Mesh) => distance(mesh, 234, 454);
const eyeWidth = (mesh: Mesh) => (distance(mesh, 33, 133) + distance(mesh, 362, 263)) / 2;

export const TRAIT_DEFINITIONS: TraitDefinition[] = [
  {
    id: 'face_shape',
    region: 'face_oval',
    measure: (mesh) => distance(mesh, 10, 152) / faceWidth(mesh),
    labels: ['Broad', 'Balanced', 'Long'],
    describe: (label) =>
      `Compared with the faces we measured, your face looks ${label.toLowerCase()}: this compares its height with its width.`,
  },
  {
    id: 'eye_shape',
    region: 'eyes',
    measure: (mesh) => (distance(mesh, 159, 145) + distance(mesh, 386, 374)) / 2 / eyeWidth(mesh),
    labels: ['Narrow almond', 'Almond', 'Round'],
    describe: (label) => `Your eyes look ${label.toLowerCase()}: this compares how open they are with how wide they are.`,
  },
  {
    id: 'eye_spacing',
    region: 'eyes',
    measure: (mesh) => distance(mesh, 133, 362) / eyeWidth(mesh),
    labels: ['Close-set', 'Evenly spaced', 'Wide-set'],
    describe: (label) => `Your eyes are ${label.toLowerCase()}, judged by the gap between them against the width of one eye.`,
  },
  {
    id: 'nose_width',
    region: 'nose',
    measure: (mesh) => distance(mesh, 129, 358) / faceWidth(mesh),
    labels: ['Narrow', 'Medium', 'Broad'],
    describe: (label) => `Your nose is ${label.toLowerCase()} at the nostrils for the width of your face.`,
  },
  {
    id: 'nose_bridge',
    region: 'nose',
    // Depth of the mid-bridge in front of the inner eye corners, relative to face width.
    measure: (mesh) => (midpoint(mesh, 133, 362)[2] - mesh[6]![2]) / faceWidth(mesh),
    labels: ['Low', 'Medium', 'High'],
    describe: (label) => `Your nose bridge looks ${label.toLowerCase()}: how far it stands out between your eyes.`,
  },
  {
    id: 'lip_fullness',
    region: 'mouth',
    measure: (mesh) => (distance(mesh, 0, 13) + distance(mesh, 14, 17)) / distance(mesh, 61, 291),
    labels: ['Thin', 'Medium', 'Full'],
    describe: (label) => `Your lips look ${label.toLowerCase()} for the width of your mouth.`,
  },
  {
    id: 'brow_height',
    region: 'brows',
    measure: (mesh) => (distance(mesh, 105, 159) + distance(mesh, 334, 386)) / 2 / eyeWidth(mesh),
    labels: ['Low-set', 'Medium', 'High-set'],
    describe: (label) => `Your eyebrows are ${label.toLowerCase()} relative to your eyes.`,
  },
  {
    id: 'jaw_width',
    region: 'jaw',
    measure: (mesh) => distance(mesh, 172, 397) / faceWidth(mesh),
    labels: ['Tapered', 'Medium', 'Wide'],
    describe: (label) => `Your jaw looks ${label.toLowerCase()} compared with the width of your cheeks.`,
  },
  {
    id: 'cheekbones',
    region: 'cheekbones',
    measure: (mesh) => faceWidth(mesh) / distance(mesh, 103, 332),
    labels: ['Subtle', 'Defined', 'Prominent'],
    describe: (label) => `Your cheekbones look ${label.toLowerCase()}: how much wider the face is at the cheeks than at the forehead.`,
  },
];

/** Position of `value` among deciles, 0..1, linear between them. */
export function percentile(deciles: number[], value: number): number {
  const last = deciles.length - 1;
  if (value <= deciles[0]!) return 0;
  if (value >= deciles[last]!) return 1;
  for (let i = 0; i < last; i++) {
    const low = deciles[i]!;
    const high = deciles[i + 1]!;
    if (value <= high) return (i + (high > low ? (value - low) / (high - low) : 0.5)) / last;
  }
  return 1;
}

/** Evenly subsampled outline, rounded to 1 % of the face box. */
export function regionPolygon(face: DetectedFace, region: FaceRegionId): [number, number][] {
  const outline = FACE_REGIONS[region].outline;
  const step = Math.max(1, outline.length / MAX_POLYGON_POINTS);
  const [x0, y0, width, height] = face.box;
  const points: [number, number][] = [];
  for (let position = 0; position < outline.length && points.length < MAX_POLYGON_POINTS; position += step) {
    const point = face.mesh[outline[Math.floor(position)]!]!;
    points.push([Math.round(((point[0] - x0) / width) * 100) / 100, Math.round(((point[1] - y0) / height) * 100) / 100]);
  }
  return points;
}

export function measureTraits(face: DetectedFace): Record<TraitId, number> {
  return Object.fromEntries(TRAIT_DEFINITIONS.map((definition) => [definition.id, definition.measure(face.mesh)])) as Record<
    TraitId,
    number
  >;
}

export function describeTraits(face: DetectedFace, norms: TraitNorms): Trait[] {
  return TRAIT_DEFINITIONS.map((definition) => {
    const value = percentile(norms[definition.id], definition.measure(face.mesh));
    const label = definition.labels[value < 1 / 3 ? 0 : value > 2 / 3 ? 2 : 1];
    return {
      id: definition.id,
      label,
      value: Math.round(value * 100) / 100,
      description: definition.describe(label),
      region: { id: definition.region, label: FACE_REGIONS[definition.region].label, polygon: regionPolygon(face, definition.region) },
    };
  });
}
