import { z } from 'zod';

/** Why a photo cannot be analysed; the analysis engine's typed errors (packages/analysis). */
export const FACE_CHECK_ERROR_CODES = [
  /** Not a JPEG, PNG or WebP by its magic bytes (SVG, PDF, GIF, TIFF, HEIC…): refused undecoded (ADR 164). */
  'UNSUPPORTED_IMAGE_FORMAT',
  'NOT_AN_IMAGE',
  'CORRUPT_IMAGE',
  'IMAGE_TOO_LARGE',
  'NO_FACE',
  'MULTIPLE_FACES',
  'FACE_TOO_SMALL',
  'TOO_DARK',
  'TOO_BLURRY',
] as const;
export const faceCheckErrorCodeSchema = z.enum(FACE_CHECK_ERROR_CODES);
export type FaceCheckErrorCode = z.infer<typeof faceCheckErrorCodeSchema>;

/** Largest photo the server accepts for a face check or a report, in bytes. */
export const MAX_SELFIE_BYTES = 15 * 1024 * 1024;

/** POST /api/face-check answer when the photo is usable: exactly one face, enough light and size. */
export const faceCheckOkSchema = z.object({
  ok: z.literal(true),
  quality: z.object({ brightness: z.number(), sharpness: z.number(), faceSize: z.number() }).partial(),
});
export type FaceCheckOk = z.infer<typeof faceCheckOkSchema>;
