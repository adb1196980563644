import type { FaceCheckErrorCode } from '@roots/contracts/face-check';

/** Closed list of reasons an analysis can fail: the contract's face-check codes, or our own fault. */
export type AnalysisErrorCode = FaceCheckErrorCode | 'INTERNAL';

/** User-facing text, in one place. */
export const ANALYSIS_ERROR_MESSAGES: Record<AnalysisErrorCode, string> = {
  NOT_AN_IMAGE: "This file doesn't look like a photo. Please upload a JPEG, PNG, WebP or HEIC image.",
  CORRUPT_IMAGE: "We couldn't open this photo; the file seems damaged. Please try another one.",
  IMAGE_TOO_LARGE: 'This photo is too large. Please upload one under 15 MB and 40 megapixels.',
  NO_FACE: "We couldn't find a face in this photo. Try again with your face centred and well lit.",
  MULTIPLE_FACES: 'We found more than one face. Please use a photo with just you in it.',
  FACE_TOO_SMALL: 'Your face is too small in this photo. Move closer to the camera, or crop the photo around your face.',
  TOO_DARK: 'This photo is too dark for us to see your face. Try again somewhere brighter.',
  TOO_BLURRY: 'This photo is too blurry. Hold the camera steady and make sure your face is in focus.',
  INTERNAL: 'Something went wrong on our side. Please try again in a moment.',
};

/** A failed analysis: data, not a thrown value, so it crosses worker boundaries intact. */
export interface AnalysisError {
  ok: false;
  code: AnalysisErrorCode;
  message: string;
  /** Technical detail for logs; never contains image data. */
  cause?: string;
}

export function analysisError(code: AnalysisErrorCode, cause?: string): AnalysisError {
  return cause === undefined
    ? { ok: false, code, message: ANALYSIS_ERROR_MESSAGES[code] }
    : { ok: false, code, message: ANALYSIS_ERROR_MESSAGES[code], cause };
}

export function isAnalysisError(value: unknown): value is AnalysisError {
  return typeof value === 'object' && value !== null && (value as { ok?: unknown }).ok === false;
}
