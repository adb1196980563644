import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import sharp from 'sharp';
import type { AnalysisErrorCode } from '../errors.js';
import { type PhotoMeasures, judgePhoto, measurePhoto, refusal } from '../face-stage.js';
import { headFeatures, needsRecognition } from '../heritage/features.js';
import { FEATURE_SETS, type FeatureSet } from '../heritage/heritage-model.js';
import { CROP_SCALE, DESCRIPTOR_SIZE, FaceEngine, alignedCrop } from '../inference/face-engine.js';
import { FACE_DETECTION_MIN_CONFIDENCE } from '../inference/runtime.js';
import { RECOGNITION_SIZE } from '../inference/recognition-model.js';
import { type LabelledImage, readLabels } from './dataset.js';

/**
 * Views of each dev image. `original` is what we evaluate on; `flip` and the two 10 % crops
 * measure stability; all but `original` can serve as extra training rows.
 */
export const VIEWS = ['original', 'flip', 'crop_tl', 'crop_br'] as const;
export type ViewId = (typeof VIEWS)[number];

/**
 * Per row, side by side: faceres of the aligned crop, faceres of its mirror, the 128-d
 * recognition descriptor of the crop and of its mirror.
 */
export const ROW_LAYOUT = {
  faceres: [0, DESCRIPTOR_SIZE],
  faceresFlip: [DESCRIPTOR_SIZE, DESCRIPTOR_SIZE],
  recognition: [2 * DESCRIPTOR_SIZE, RECOGNITION_SIZE],
  recognitionFlip: [2 * DESCRIPTOR_SIZE + RECOGNITION_SIZE, RECOGNITION_SIZE],
} as const;
export const ROW_SIZE = 2 * DESCRIPTOR_SIZE + 2 * RECOGNITION_SIZE;

export const CACHE_VERSION = `v2-scale${CROP_SCALE}-min${FACE_DETECTION_MIN_CONFIDENCE}-${VIEWS.join('+')}-faceres2+recognition2`;

export interface CacheRow {
  file: string;
  label: number;
  view: ViewId;
  sharpness: number;
  brightness: number;
  faceSidePx: number;
}

/** What the gates saw on a dev photo as it is (the `original` view), mesh left out. */
export interface PhotoRecord {
  file: string;
  label: number;
  /** Decoding failed: its code. */
  error?: AnalysisErrorCode;
  measures?: Omit<PhotoMeasures, 'faces'> & { faces: Omit<PhotoMeasures['faces'][number], 'mesh'>[] };
}

export interface FeatureCache {
  version: string;
  rows: CacheRow[];
  /** rows.length x ROW_SIZE features (see ROW_LAYOUT). */
  features: Float32Array;
  /** Images where no face was found in the original view. */
  missing: string[];
  photos: PhotoRecord[];
}

export { FEATURE_SETS, type FeatureSet };

export function featureSize(set: FeatureSet): number {
  return needsRecognition(set) ? DESCRIPTOR_SIZE + RECOGNITION_SIZE : DESCRIPTOR_SIZE;
}

/** Writes a row's features for `set` into `out` (see heritage/features.ts). */
export function composeFeatures(row: Float32Array, set: FeatureSet, out = new Float32Array(featureSize(set))): Float32Array {
  const part = (name: keyof typeof ROW_LAYOUT) => row.subarray(ROW_LAYOUT[name][0], ROW_LAYOUT[name][0] + ROW_LAYOUT[name][1]);
  return headFeatures(
    set,
    {
      faceres: part('faceres'),
      faceresFlip: part('faceresFlip'),
      recognition: part('recognition'),
      recognitionFlip: part('recognitionFlip'),
    },
    out,
  );
}

/** rows x featureSize(set), dense. */
export function featureMatrix(cache: FeatureCache, set: FeatureSet): { size: number; data: Float32Array } {
  const size = featureSize(set);
  const data = new Float32Array(cache.rows.length * size);
  for (let row = 0; row < cache.rows.length; row++) {
    composeFeatures(cache.features.subarray(row * ROW_SIZE, (row + 1) * ROW_SIZE), set, data.subarray(row * size, (row + 1) * size));
  }
  return { size, data };
}

/** The refusal code the gates give a recorded dev photo, or undefined when it is analysed. */
export function recordedRefusal(photo: PhotoRecord): AnalysisErrorCode | undefined {
  if (photo.error) return photo.error;
  if (!photo.measures) return 'NO_FACE';
  const faces = photo.measures.faces.map((face) => ({ ...face, mesh: [] }));
  return refusal({ ...photo.measures, faces })?.code;
}

export function defaultCacheDir(): string {
  return path.resolve(process.cwd(), '.cache');
}

async function viewBytes(bytes: Buffer, view: ViewId): Promise<Buffer> {
  if (view === 'original') return bytes;
  const image = sharp(bytes);
  const { width = 0, height = 0 } = await image.metadata();
  const cropWidth = Math.round(width * 0.9);
  const cropHeight = Math.round(height * 0.9);
  switch (view) {
    case 'flip':
      return image.flop().jpeg({ quality: 95 }).toBuffer();
    case 'crop_tl':
      return image.extract({ left: 0, top: 0, width: cropWidth, height: cropHeight }).jpeg({ quality: 95 }).toBuffer();
    case 'crop_br':
      return image
        .extract({ left: width - cropWidth, top: height - cropHeight, width: cropWidth, height: cropHeight })
        .jpeg({ quality: 95 })
        .toBuffer();
  }
}

/** Loads the cache for `dir`, building it first if it is missing or stale. */
export async function loadOrBuildCache(dir: string, cacheDir = defaultCacheDir(), log = console.error): Promise<FeatureCache> {
  const indexPath = path.join(cacheDir, 'features-v2.json');
  const dataPath = path.join(cacheDir, 'features-v2.bin');
  try {
    const index = JSON.parse(await readFile(indexPath, 'utf8')) as Omit<FeatureCache, 'features'>;
    if (index.version === CACHE_VERSION) {
      const buffer = await readFile(dataPath);
      const features = new Float32Array(buffer.buffer, buffer.byteOffset, buffer.byteLength / 4);
      return { ...index, features };
    }
  } catch {
    // No cache yet.
  }
  const labels = await readLabels(dir);
  const cache = await buildCache(dir, labels, log);
  await mkdir(cacheDir, { recursive: true });
  await writeFile(dataPath, Buffer.from(cache.features.buffer, cache.features.byteOffset, cache.features.byteLength));
  await writeFile(indexPath, JSON.stringify({ version: cache.version, rows: cache.rows, missing: cache.missing, photos: cache.photos }));
  return cache;
}

async function buildCache(dir: string, labels: LabelledImage[], log: (line: string) => void): Promise<FeatureCache> {
  const engine = await FaceEngine.create({ recognition: true });
  const rows: CacheRow[] = [];
  const chunks: Float32Array[] = [];
  const missing: string[] = [];
  const photos: PhotoRecord[] = [];
  const started = performance.now();
  for (const [index, item] of labels.entries()) {
    const bytes = await readFile(path.join(dir, item.file));
    for (const view of VIEWS) {
      const measured = await measurePhoto(engine, await viewBytes(bytes, view));
      if (view === 'original') {
        photos.push(
          measured.ok
            ? {
                file: item.file,
                label: item.label,
                measures: { ...measured.measures, faces: measured.measures.faces.map(({ mesh: _mesh, ...face }) => face) },
              }
            : { file: item.file, label: item.label, error: measured.code },
        );
      }
      const stage = measured.ok ? judgePhoto(measured.image, measured.measures, false) : measured;
      if (!stage.ok) {
        if (view === 'original') missing.push(item.file);
        continue;
      }
      const crop = alignedCrop(stage.face);
      const [plain, mirrored] = [await engine.describe(stage.image, crop), await engine.describe(stage.image, crop, { flip: true })];
      const recognition = await engine.recognize(stage.image, crop);
      const recognitionFlip = await engine.recognize(stage.image, crop, { flip: true });
      const row = new Float32Array(ROW_SIZE);
      row.set(plain.descriptor, ROW_LAYOUT.faceres[0]);
      row.set(mirrored.descriptor, ROW_LAYOUT.faceresFlip[0]);
      row.set(recognition, ROW_LAYOUT.recognition[0]);
      row.set(recognitionFlip, ROW_LAYOUT.recognitionFlip[0]);
      rows.push({
        file: item.file,
        label: item.label,
        view,
        sharpness: stage.quality.sharpness,
        brightness: stage.quality.brightness,
        faceSidePx: stage.quality.faceSidePx,
      });
      chunks.push(row);
    }
    if ((index + 1) % 25 === 0) {
      log(`features: ${index + 1}/${labels.length} images, ${((performance.now() - started) / 1000).toFixed(0)} s`);
    }
  }
  const features = new Float32Array(chunks.length * ROW_SIZE);
  chunks.forEach((chunk, row) => features.set(chunk, row * ROW_SIZE));
  return { version: CACHE_VERSION, rows, features, missing, photos };
}
