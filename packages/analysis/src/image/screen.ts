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
 * EXIF, ICC and XMP segments (well under this in camera files). When it lies further in, the
 * worker's metadata read (libvips, header only, before any pixel) decides instead.
 */
export const HEADER_WINDOW_BYTES = 256 * 1024;

/** Width and height from a header, or undefined when the header does not say within the window. */
type SizeReader = (head: Uint8Array) => { width: number; height: number } | undefined;

/**
 * PNG (IHDR, the first chunk) and WebP (VP8/VP8L/VP8X, at fixed offsets) are read by image-size.
 * The JPEG frame header is found by {@link jpegFrameSize}: image-size's JPEG walker copies a little
 * for every byte it skips, 2.7 s for a crafted 15 MB file and 76–106 ms for 128 KB of it on a busy
 * machine, too slow for the request thread (ADR 164).
 */
const READERS: Record<AcceptedImageFormat, SizeReader> = {
  jpeg: (head) => jpegFrameSize(head),
  png: (head) => PNG.calculate(head),
  webp: (head) => WEBP.calculate(head),
};

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
    size = READERS[format](head);
  } catch {
    size = undefined;
  }
  // The header reaches past the window (or is damaged): the worker's header read decides.
  if (size === undefined) return { ok: true, format };
  if (!(size.width > 0 && size.height > 0)) return analysisError('CORRUPT_IMAGE', `${format} header declares ${size.width}x${size.height}`);
  if (size.width * size.height > MAX_INPUT_PIXELS) return analysisError('IMAGE_TOO_LARGE', `${size.width}x${size.height} pixels`);
  return { ok: true, format, size };
}

function recognises(format: AcceptedImageFormat, head: Uint8Array): boolean {
  try {
    // JPEG: SOI followed by a marker (image-size checks the SOI only).
    if (format === 'jpeg') return JPG.validate(head) && head[2] === 0xff;
    return (format === 'png' ? PNG : WEBP).validate(head);
  } catch {
    return false; // PNG signature with a damaged first chunk
  }
}

/** JPEG markers that stand alone, without a length: TEM, RST0–7, SOI. */
const isStandalone = (marker: number) => marker === 0x01 || (marker >= 0xd0 && marker <= 0xd8);
/** Start-of-frame markers (SOF0–SOF15 but DHT, JPG and DAC): the frame header with the size. */
const isStartOfFrame = (marker: number) => marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc;

/**
 * Walks a JPEG's segments (marker, 16-bit length) to its frame header without allocating: at most
 * one step per segment or fill byte. Undefined when the window ends first, when a scan or the end
 * comes before any frame, or when bytes between segments are not a marker (libvips may still read
 * such a file; the worker's header read decides).
 */
function jpegFrameSize(head: Uint8Array): { width: number; height: number } | undefined {
  let at = 2;
  while (at + 9 <= head.length) {
    if (head[at] !== 0xff) return undefined;
    const marker = head[at + 1] as number;
    if (marker === 0xff) {
      at += 1; // fill byte
      continue;
    }
    if (isStandalone(marker)) {
      at += 2;
      continue;
    }
    if (isStartOfFrame(marker)) {
      return {
        height: ((head[at + 5] as number) << 8) | (head[at + 6] as number),
        width: ((head[at + 7] as number) << 8) | (head[at + 8] as number),
      };
    }
    if (marker === 0xda || marker === 0xd9) return undefined;
    const length = ((head[at + 2] as number) << 8) | (head[at + 3] as number);
    if (length < 2) return undefined;
    at += 2 + length;
  }
  return undefined;
}

/** The first bytes in hex, for logs: enough to tell an SVG from a PDF, never any image content. */
function describeMagic(head: Uint8Array): string {
  return `magic ${Buffer.from(head.subarray(0, 8)).toString('hex') || '(empty)'}`;
}
