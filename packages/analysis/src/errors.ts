import type { FaceBox } from '@roots/contracts/face-check';
import type { AnalysisErrorCode } from '@roots/contracts/messages';

export type { AnalysisErrorCode, FaceBox };

/**
 * A failed analysis: data, not a thrown value, so it crosses worker boundaries intact. It carries a
 * code, never text: what a person reads is `ANALYSIS_ERROR_MESSAGES[code]` in
 * `@roots/contracts/messages`, picked by whoever shows it (ADR 133). The engine's workers run
 * compiled JavaScript and load contracts for types only.
 */
export interface AnalysisError {
  ok: false;
  code: AnalysisErrorCode;
  /** Technical detail for logs; never contains image data. */
  cause?: string;
  /**
   * With MULTIPLE_FACES only: the faces a customer may choose from, as fractions of the photo, left
   * to right (ADR 192). Geometry only, never image data.
   */
  faces?: FaceBox[];
}

export function analysisError(code: AnalysisErrorCode, cause?: string): AnalysisError {
  return cause === undefined ? { ok: false, code } : { ok: false, code, cause };
}

export function isAnalysisError(value: unknown): value is AnalysisError {
  return typeof value === 'object' && value !== null && (value as { ok?: unknown }).ok === false;
}
