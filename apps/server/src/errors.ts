import type { ApiErrorCode } from '@roots/contracts';

/** HTTP status of each error code: a code and a status can never disagree. */
export const STATUS_BY_CODE: Record<ApiErrorCode, number> = {
  VALIDATION_ERROR: 400,
  BAD_REQUEST: 400,
  UNAUTHORIZED: 401,
  PAYMENT_NOT_ACCEPTED: 402,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  CONFLICT: 409,
  ALREADY_OWNED: 409,
  CHARGE_DISPUTED: 409,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  UNPROCESSABLE: 422,
  RATE_LIMITED: 429,
  CHALLENGE_REQUIRED: 429,
  INTERNAL_ERROR: 500,
  SERVICE_UNAVAILABLE: 503,
};

/**
 * The one error class of the server: a closed code (its HTTP status follows from it) and a
 * user-facing message from the contracts' catalogue.
 *
 * @example
 * throw new AppError('NOT_FOUND', MESSAGES.noSubscriptions);
 */
export class AppError extends Error {
  readonly statusCode: number;
  /** Sent as `retry-after` (seconds) with a 429 or 503 that says when to come back. */
  readonly retryAfterSeconds: number | undefined;

  constructor(
    readonly code: ApiErrorCode,
    message: string,
    options?: { cause?: unknown; retryAfterSeconds?: number },
  ) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'AppError';
    this.statusCode = STATUS_BY_CODE[code];
    this.retryAfterSeconds = options?.retryAfterSeconds;
  }
}

/** The code that goes with an HTTP status when nothing more specific is known (framework errors). */
export function codeForStatus(statusCode: number): ApiErrorCode {
  switch (statusCode) {
    case 400:
      return 'BAD_REQUEST';
    case 401:
      return 'UNAUTHORIZED';
    case 402:
      return 'PAYMENT_NOT_ACCEPTED';
    case 403:
      return 'FORBIDDEN';
    case 404:
      return 'NOT_FOUND';
    case 409:
      return 'CONFLICT';
    case 413:
      return 'PAYLOAD_TOO_LARGE';
    case 415:
      return 'UNSUPPORTED_MEDIA_TYPE';
    case 422:
      return 'UNPROCESSABLE';
    case 429:
      return 'RATE_LIMITED';
    case 503:
      return 'SERVICE_UNAVAILABLE';
    default:
      return statusCode >= 500 ? 'INTERNAL_ERROR' : 'BAD_REQUEST';
  }
}
