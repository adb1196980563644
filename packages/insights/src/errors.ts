/** The closed list of reasons an insights function refuses its input. */
export const INSIGHTS_ERROR_CODES = [
  'INVALID_DATE',
  'INVALID_TIME',
  'INVALID_UTC_OFFSET',
  'DATE_BEFORE_BIRTH',
  'RANGE_TOO_LONG',
  'UNKNOWN_HERITAGE_GROUP',
] as const;

export type InsightsErrorCode = (typeof INSIGHTS_ERROR_CODES)[number];

/**
 * The one error class of `@roots/insights`. Thrown only for input a caller should have validated
 * (a route maps it to a 400 `VALIDATION_ERROR`); the message is for logs, not for users.
 */
export class InsightsError extends Error {
  override readonly name = 'InsightsError';

  constructor(
    readonly code: InsightsErrorCode,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}
