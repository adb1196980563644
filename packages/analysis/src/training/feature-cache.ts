import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import sharp from 'sharp';
import { runFaceStage } from '../face-stage.js';
import { CROP_SCALE, DESCRIPTOR_SIZE, FaceEngine, alignedCrop } from '../inference/face-engine.js';
import { type LabelledImage, readLabels } from './dataset.js';

/**
 * Views of each dev image. `original` is what we evaluate on; `flip` and the two 10 % crops
 * measure stability; all but `original` can serve as extra training rows. Scale probes
 * (`original@1.0`, `original@1.4`) record how the crop size was chosen.
 */
export const VIEWS = ['original', 'flip', 'crop_tl', 'crop_br', 'rotate_pos', 'rotate_neg'] as const;
export const SCALE_PROBES = [1.0, 1.4] as const;
export type ViewId = (typeof VIEWS)[number] | `original@${number}`;

export const CACHE_VERSION = `v1-scale${CROP_SCALE}-${VIEWS.join('+')}`;

export interface CacheRow {
  file: string;
  label: number;
  view: ViewId;
  sharpness: number;
  brightness: number;
  faceSidePx: number;
}

export interface FeatureCache {
  version: string;
  rows: CacheRow[];
  /** rows.length x 1024 descriptors. */
  descriptors: Float32Array;
  /** Images where no face was found in the original view. */
  missing: string[];
}

export function defaultCacheDir(): string {
  return path.resolve(process.cwd(), '.cache');
}

async function viewBytes(bytes: Buffer, view: (typeof VIEWS)[number]): Promise<Buffer> {
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
    case 'rotate_pos':
      return image.rotate(10, { background: '#808080' }).jpeg({ quality: 95 }).toBuffer();
    case 'rotate_neg':
      return image.rotate(-10, { background: '#808080' }).jpeg({ quality: 95 }).toBuffer();
  }
}

/** Loads the cache for `dir`, building it first if it is missing or stale. */
export async function loadOrBuildCache(dir: string, cacheDir = defaultCacheDir(), log = console.error): Promise<FeatureCache> {
  const indexPath = path.join(cacheDir, 'features.json');
  const dataPath = path.join(cacheDir, 'features.bin');
  try {
    const index = JSON.parse(await readFile(indexPath, 'utf8')) as Omit<FeatureCache, 'descriptors'>;
    if (index.version === CACHE_VERSION) {
      const buffer = await readFile(dataPath);
      const descriptors = new Float32Array(buffer.buffer, buffer.byteOffset, buffer.byteLength / 4);
      return { ...index, descriptors };
    }
  } catch {
    // No cache yet.
  }
  const labels = await readLabels(dir);
  const cache = await buildCache(dir, labels, log);
  await mkdir(cacheDir, { recursive: true });
  await writeFile(dataPath, Buffer.from(cache.descriptors.buffer, cache.descriptors.byteOffset, cache.descriptors.byteLength));
  await writeFile(indexPath, JSON.stringify({ version: cache.version, rows: cache.rows, missing: cache.missing }));
  return cache;
}

async function buildCache(dir: string, labels: LabelledImage[], log: (line: string) => void): Promise<FeatureCache> {
  const engine = await FaceEngine.create();
  const rows: CacheRow[] = [];
  const chunks: Float32Array[] = [];
  const missing: string[] = [];
  const started = performance.now();
  for (const [index, item] of labels.entries()) {
    const bytes = await readFile(path.join(dir, item.file));
    for (const view of VIEWS) {
      const stage = await runFaceStage(engine, await viewBytes(bytes, view), { enforceQuality: false });
      if (!stage.ok) {
        if (view === 'original') missing.push(item.file);
        continue;
      }
      const meta = {
        file: item.file,
        label: item.label,
        sharpness: stage.quality.sharpness,
        brightness: stage.quality.brightness,
        faceSidePx: stage.quality.faceSidePx,
      };
      rows.push({ ...meta, view });
      chunks.push(stage.description.descriptor);
      if (view === 'original') {
        for (const scale of SCALE_PROBES) {
          const probe = await engine.describe(stage.image, alignedCrop(stage.face, scale));
          rows.push({ ...meta, view: `original@${scale}` });
          chunks.push(probe.descriptor);
        }
      }
    }
    if ((index + 1) % 25 === 0) {
      log(`features: ${index + 1}/${labels.length} images, ${((performance.now() - started) / 1000).toFixed(0)} s`);
    }
  }
  const descriptors = new Float32Array(chunks.length * DESCRIPTOR_SIZE);
  chunks.forEach((chunk, row) => descriptors.set(chunk, row * DESCRIPTOR_SIZE));
  return { version: CACHE_VERSION, rows, descriptors, missing };
}
