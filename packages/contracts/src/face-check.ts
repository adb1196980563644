import { z } from 'zod';

/** Why a photo cannot be analysed; the analysis engine's typed errors (packages/analysis). */
export const FACE_CHECK_ERROR_CODES = [
  /** Not a JPEG, PNG or WebP by its magic bytes (SVG, PDF, GIF, TIFF, HEIC…): refused undecoded (ADR 164). */
  'UNSUPPORTED_IMAGE_FORMAT',
  'NOT_AN_IMAGE',
  'CORRUPT_IMAGE',
  'IMAGE_TOO_LARGE',
  'NO_FACE',
  /** Several whole, comparable faces and none chosen: the answer lists them to choose from (ADR 192). */
  'MULTIPLE_FACES',
  /** The face the customer chose is not one the engine finds in this photo (ADR 192). */
  'CHOSEN_FACE_NOT_FOUND',
  'FACE_TOO_SMALL',
  'TOO_DARK',
  'TOO_BLURRY',
] as const;
export const faceCheckErrorCodeSchema = z.enum(FACE_CHECK_ERROR_CODES);
export type FaceCheckErrorCode = z.infer<typeof faceCheckErrorCodeSchema>;

/** Largest photo the server accepts for a face check or a report, in bytes. */
export const MAX_SELFIE_BYTES = 15 * 1024 * 1024;

/**
 * A face in the photo as fractions of the (EXIF-rotated) photo's width and height: left, top,
 * width, height in 0..1. Geometry only, never image data: what the browser, the server and the
 * analyzer pass to say which face of a group photo is the customer's (ADR 192).
 */
export const faceBoxSchema = z
  .object({
    x: z.number().min(0).max(1),
    y: z.number().min(0).max(1),
    width: z.number().gt(0).max(1),
    height: z.number().gt(0).max(1),
  })
  .refine((box) => box.x + box.width <= 1.001 && box.y + box.height <= 1.001, { message: 'the face box lies outside the photo' });
export type FaceBox = z.infer<typeof faceBoxSchema>;

/** Most faces a photo is offered with (the engine reports up to 5, ADR 090). */
export const MAX_CHOOSABLE_FACES = 5;

/** Query parameter of `POST /api/face-check` and of the analyzer's calls naming the chosen face. */
export const FACE_BOX_PARAM = 'face';

const FRACTION = String.raw`(?:0(?:\.\d{1,6})?|1(?:\.0{1,6})?)`;
/** `x,y,width,height` as fractions with up to 6 decimals, e.g. `0.52,0.18,0.31,0.41`. */
export const faceBoxParamSchema = z
  .string()
  .regex(new RegExp(`^${FRACTION}(?:,${FRACTION}){3}$`), 'is not a face box: x,y,width,height as fractions of the photo')
  .refine((text) => faceBoxSchema.safeParse(faceBoxFromParam(text)).success, { message: 'the face box lies outside the photo' });

/** The query parameter of a face box (fractions rounded to 6 decimals). */
export function faceBoxToParam(box: FaceBox): string {
  const fraction = (value: number) => String(Math.round(Math.min(1, Math.max(0, value)) * 1e6) / 1e6);
  return [box.x, box.y, box.width, box.height].map(fraction).join(',');
}

/** The face box of a query parameter that {@link faceBoxParamSchema} accepted. */
export function faceBoxFromParam(text: string): FaceBox {
  const [x = 0, y = 0, width = 0, height = 0] = text.split(',').map(Number);
  return { x, y, width, height };
}

/** Query of `POST /api/face-check`: `face` names the face the customer chose in a group photo. */
export const faceCheckQuerySchema = z.object({ [FACE_BOX_PARAM]: faceBoxParamSchema.optional() });

/**
 * 422 of `POST /api/face-check` (and a failed report's reason) for a photo with several whole,
 * comparable faces and none chosen: the faces to choose from, left to right (ADR 192).
 */
export const severalFacesAnswerSchema = z.object({
  error: z.string(),
  code: z.literal('MULTIPLE_FACES'),
  faces: z.array(faceBoxSchema).min(2).max(MAX_CHOOSABLE_FACES),
});
export type SeveralFacesAnswer = z.infer<typeof severalFacesAnswerSchema>;

/** POST /api/face-check answer when the photo is usable: exactly one face, enough light and size. */
export const faceCheckOkSchema = z.object({
  ok: z.literal(true),
  quality: z.object({ brightness: z.number(), sharpness: z.number(), faceSize: z.number() }).partial(),
});
export type FaceCheckOk = z.infer<typeof faceCheckOkSchema>;
