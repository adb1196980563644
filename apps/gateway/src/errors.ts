import type { GatewayErrorCode } from '@roots/contracts/gateway';

/** HTTP status of each gateway error code. */
const STATUS_BY_CODE: Record<GatewayErrorCode, number> = {
  VALIDATION_ERROR: 400,
  BAD_REQUEST: 400,
  CARD_INVALID: 422,
  UNAUTHORIZED: 401,
  TOKEN_EXPIRED: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  IDEMPOTENCY_KEY_REQUIRED: 400,
  IDEMPOTENCY_KEY_REUSED: 422,
  IDEMPOTENCY_REQUEST_IN_PROGRESS: 409,
  INVALID_STATE: 409,
  INSTRUMENT_NOT_USABLE: 422,
  REFUND_NOT_ALLOWED: 422,
  CHARGE_DISPUTED: 409,
  AMOUNT_MISMATCH: 422,
  PAYMENT_METHOD_NOT_ENABLED: 422,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  RATE_LIMITED: 429,
  INTERNAL_ERROR: 500,
  PAYMENT_OUTCOME_UNKNOWN: 503,
};

/** The one error class of the gateway: a closed code (its HTTP status follows) and a message. */
export class GatewayError extends Error {
  readonly statusCode: number;

  constructor(
    readonly code: GatewayErrorCode,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'GatewayError';
    this.statusCode = STATUS_BY_CODE[code];
  }
}

/** The code that goes with an HTTP status when nothing more specific is known (framework errors). */
export function codeForStatus(statusCode: number): GatewayErrorCode {
  switch (statusCode) {
    case 401:
      return 'UNAUTHORIZED';
    case 403:
      return 'FORBIDDEN';
    case 404:
      return 'NOT_FOUND';
    case 409:
      return 'INVALID_STATE';
    case 413:
      return 'PAYLOAD_TOO_LARGE';
    case 415:
      return 'UNSUPPORTED_MEDIA_TYPE';
    case 429:
      return 'RATE_LIMITED';
    default:
      return statusCode >= 500 ? 'INTERNAL_ERROR' : 'BAD_REQUEST';
  }
}
