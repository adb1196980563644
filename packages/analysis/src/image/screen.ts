import { JPG } from 'image-size/types/jpg';
import { PNG } from 'image-size/types/png';
import { WEBP } from 'image-size/types/webp';
import { type AnalysisError, analysisError } from '../errors.js';

/**
 * The formats a camera or a phone's gallery hands a browser, and the browser hands us (ADR 164):
 * JPEG (every camera), PNG (screenshots, Safari's canvas fallback) and WebP (what the web app
 * compresses every selfie to). Everything else, SVG, PDF, GIF, TIFF, HEIC/AVIF among them, is
 * refused before any decoder sees it.
 */
export const ACCEPTED_IMAGE_FORMATS = ['jpeg', 'png', 'webp'] as const;
export type AcceptedImageFormat = (typeof ACCEPTED_IMAGE_FORMATS)[number];

/** Largest photo accepted, in bytes (the HTTP body limit is the same). */
export const MAX_INPUT_BYTES = 15 * 1024 * 1024;
/** Most pixels (width × height, read from the header) a photo may declare; more is refused undecoded. */
export const MAX_INPUT_PIXELS = 40_000_000;
/**
 * Bytes of the file the header reader looks at. A JPEG's size sits in its frame header after the
 * EXIF, ICC and XMP segments (well under this in camera files); a crafted file of millions of tiny
 * segments would otherwise keep the reader busy for seconds (2.7 s measured for 15 MB). When the
 * frame header lies further in, the worker's metadata read (libvips, header only) decides instead.
 */
export const HEADER_WINDOW_BYTES = 128 * 1024;

const READERS = { jpeg: JPG, png: PNG, webp: WEBP } as const;

export type ScreenedImage = {
  ok: true;
  format: AcceptedImageFormat;
  /** Width and height as the header declares them; undefined when the header lies beyond the window. */
  size?: { width: number; height: number };
};

/**
 * Recognises an accepted format by its magic bytes and reads width × height from its header, never
 * decoding a pixel: microseconds on the calling thread, so a refused file costs nothing downstream.
 *
 * @example
 * const screened = screenImage(bytes);
 * if (!screened.ok) return reply.status(415).send(...); // UNSUPPORTED_IMAGE_FORMAT or IMAGE_TOO_LARGE
 */
export function screenImage(bytes: Uint8Array): ScreenedImage | AnalysisError {
  if (bytes.byteLength > MAX_INPUT_BYTES) return analysisError('IMAGE_TOO_LARGE', `${bytes.byteLength} bytes`);
  const head = bytes.subarray(0, HEADER_WINDOW_BYTES);
  const format = ACCEPTED_IMAGE_FORMATS.find((candidate) => recognises(candidate, head));
  if (format === undefined) return analysisError('UNSUPPORTED_IMAGE_FORMAT', describeMagic(head));
  let size: { width: number; height: number } | undefined;
  try {
    const { width, height } = READERS[format].calculate(head);
    size = { width, height };
  } catch {
    // The header reaches past the window (or is damaged): the worker's header read decides.
    return { ok: true, format };
  }
  if (!(size.width > 0 && size.height > 0)) return analysisError('CORRUPT_IMAGE', `${format} header declares ${size.width}x${size.height}`);
  if (size.width * size.height > MAX_INPUT_PIXELS) return analysisError('IMAGE_TOO_LARGE', `${size.width}x${size.height} pixels`);
  return { ok: true, format, size };
}

function recognises(format: AcceptedImageFormat, head: Uint8Array): boolean {
  try {
    // JPEG: SOI followed by a marker (image-size checks the SOI only).
    if (format === 'jpeg') return JPG.validate(head) && head[2] === 0xff;
    return READERS[format].validate(head);
  } catch {
    return false; // PNG signature with a damaged first chunk
  }
}

/** The first bytes in hex, for logs: enough to tell an SVG from a PDF, never any image content. */
function describeMagic(head: Uint8Array): string {
  return `magic ${Buffer.from(head.subarray(0, 8)).toString('hex') || '(empty)'}`;
}
