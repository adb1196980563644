import sharp from 'sharp';
import { type AnalysisError, analysisError } from '../errors.js';
import type { RgbImage } from '../inference/face-engine.js';
import { MAX_INPUT_BYTES, MAX_INPUT_PIXELS, screenImage } from './screen.js';

// libvips' operation cache would keep decoded pixels of earlier photos alive; we never want that.
sharp.cache(false);
// One libvips thread per worker: the pool already uses every core, and fewer threads hold less memory.
sharp.concurrency(1);

export { MAX_INPUT_BYTES, MAX_INPUT_PIXELS };
/** Long side of the image we analyse; larger photos are downscaled first. */
export const ANALYSIS_LONG_SIDE_PX = 640;
/** Below this short side no usable face can be in the photo. */
export const MIN_INPUT_SIDE_PX = 64;

export type DecodeResult = { ok: true; image: RgbImage } | AnalysisError;

/** libvips' name of each accepted format, as `metadata().format` answers it. */
const LIBVIPS_FORMAT = { jpeg: 'jpeg', png: 'png', webp: 'webp' } as const;

/**
 * Decodes in memory, honours EXIF orientation, drops alpha and downscales to
 * {@link ANALYSIS_LONG_SIDE_PX}. Never writes to disk. Only JPEG, PNG and WebP reach a decoder,
 * and only when their header declares at most {@link MAX_INPUT_PIXELS} (ADR 164).
 */
export async function decodeImage(bytes: Uint8Array): Promise<DecodeResult> {
  const screened = screenImage(bytes);
  if (!screened.ok) return screened;
  let width: number;
  let height: number;
  try {
    // Header only (no pixels): the size again when the frame header lay beyond the screen's window.
    const metadata = await sharp(bytes, { limitInputPixels: false }).metadata();
    if (metadata.format !== LIBVIPS_FORMAT[screened.format]) {
      return analysisError('UNSUPPORTED_IMAGE_FORMAT', `${screened.format} magic, ${metadata.format} content`);
    }
    if (!metadata.width || !metadata.height) return analysisError('NOT_AN_IMAGE', 'no dimensions');
    width = metadata.width;
    height = metadata.height;
  } catch (error) {
    return analysisError('NOT_AN_IMAGE', describe(error));
  }
  if (width * height > MAX_INPUT_PIXELS) return analysisError('IMAGE_TOO_LARGE', `${width}x${height} pixels`);
  if (Math.min(width, height) < MIN_INPUT_SIDE_PX) return analysisError('FACE_TOO_SMALL', `${width}x${height} pixels`);
  try {
    const { data, info } = await sharp(bytes, { failOn: 'truncated', limitInputPixels: MAX_INPUT_PIXELS })
      .rotate()
      .resize({ width: ANALYSIS_LONG_SIDE_PX, height: ANALYSIS_LONG_SIDE_PX, fit: 'inside', withoutEnlargement: true })
      .removeAlpha()
      .toColourspace('srgb')
      .raw()
      .toBuffer({ resolveWithObject: true });
    if (info.channels !== 3) return analysisError('CORRUPT_IMAGE', `${info.channels} channels`);
    return {
      ok: true,
      image: { data: new Uint8Array(data.buffer, data.byteOffset, data.byteLength), width: info.width, height: info.height },
    };
  } catch (error) {
    return analysisError('CORRUPT_IMAGE', describe(error));
  }
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message.slice(0, 200) : 'unknown decoder error';
}
