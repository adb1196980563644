import type { FaceCheckErrorCode } from '@roots/contracts/face-check';
import { ANALYSIS_ERROR_MESSAGES as ANALYSIS_MESSAGES } from '@roots/contracts/messages';

/** Closed list of reasons an analysis can fail: the contract's face-check codes, or our own fault. */
export type AnalysisErrorCode = FaceCheckErrorCode | 'INTERNAL';

/** User-facing text lives in the contracts' message catalogue. */
export const ANALYSIS_ERROR_MESSAGES: Record<AnalysisErrorCode, string> = ANALYSIS_MESSAGES;

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
