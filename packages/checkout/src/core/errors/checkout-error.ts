/**
 * The one error class of the checkout SDK (checkout-spec §8). Every failure the SDK throws, logs
 * or reports through an event carries one code of {@link CHECKOUT_ERROR_CODES}; the text shown to
 * shoppers and integrators comes from `CHECKOUT_MESSAGES` in `@roots/contracts/messages`.
 */

import { CHECKOUT_MESSAGES } from '@roots/contracts/messages';

/** Prefix of every code ("provider-prefixed codes", checkout-spec §8). */
export const CHECKOUT_ERROR_PREFIX = 'ROOTS';

/**
 * Configuration and input errors of checkout-spec §5 and §8 ("Collect input errors" and the
 * element, config and client checks): each is thrown synchronously, or reported as a failure,
 * by a validation the integrator's input fails. error-catalogue.test.ts triggers every one.
 */
export const VALIDATION_ERROR_CODES = [
  // Collect input errors
  'INVALID_RECORDS',
  'EMPTY_RECORDS',
  'MISSING_RECORDS',
  'INVALID_TABLE',
  'MISSING_TABLE',
  'EMPTY_TABLE',
  'INVALID_FIELDS',
  'MISSING_FIELDS',
  'EMPTY_FIELDS',
  'INVALID_SKYFLOW_ID',
  'EMPTY_SKYFLOW_ID',
  'INVALID_ELEMENT_TYPE',
  'MISSING_ELEMENT_TYPE',
  'EMPTY_ELEMENT_TYPE',
  'INVALID_UPSERT',
  'EMPTY_UPSERT',
  'INVALID_COLUMN',
  'MISSING_COLUMN',
  'EMPTY_COLUMN',
  'INVALID_TOKENS',
  'INVALID_REQUIRED',
  'INVALID_ENABLE_CARD_ICON',
  'INVALID_VALIDATIONS',
  'INVALID_VALIDATION_RULE_TYPE',
  'INVALID_VALIDATION_RULE_PARAMS',
  'INVALID_REGEX',
  'MISSING_MIN_MAX',
  'MISSING_ELEMENT_IN_ELEMENT_MATCH',
  'INVALID_ELEMENT_IN_ELEMENT_MATCH',
  'INVALID_EVENT_LISTENER',
  'INVALID_EVENT_HANDLER',
  'INVALID_CONTAINER_TYPE',
  'INVALID_COMPOSABLE_OPTIONS',
  'MISSING_LAYOUT',
  'INVALID_LAYOUT',
  'EMPTY_LAYOUT',
  'NEGATIVE_LAYOUT_VALUE',
  'LAYOUT_ELEMENT_COUNT_MISMATCH',
  'NON_UNIQUE_ELEMENT_NAME',
  'DUPLICATE_ELEMENT',
  'INVALID_ELEMENT_SELECTOR',
  'EMPTY_ELEMENT_IN_MOUNT',
  'CONTAINER_MOUNT_FAILED',
  'MISSING_GET_BEARER_TOKEN',
  'CANNOT_CHANGE_ELEMENT_NAME_OR_TYPE',
  'MISSING_VALUE',
  'INVALID_DROPDOWN_OPTIONS',
  'INVALID_MASK',
  'INVALID_REPLACE_PATTERN',
  'INVALID_FORMAT',
  'INVALID_TRANSLATION',
  'INVALID_CUSTOM_ELEMENTS_URL',
  'INVALID_VAULT_URL',
  'INVALID_LOG_LEVEL',
  'INVALID_ENV',
  'DUPLICATE_LAYOUT_FIELD',
  // Elements
  'CARD_FORM_COLLECT_ELEMENT_NOT_MOUNTED',
  'CLIENT_UI_ELEMENT_MISSING',
  'PARENT_ELEMENT_MISSING',
  // Bearer token: not a string, or its expiry claim has passed
  'INVALID_BEARER_TOKEN',
  // Configuration and methods
  'CONFIG_MALFORMED',
  'MISSING_PAYMENT_METHOD_CODE',
  'REDIRECT_LINK_MISSING',
  // Client errors
  'CLIENT_CONFIG_MALFORMED',
  'COLLECT_CREATION_FAILED',
  'COLLECT_OPERATION_FAILED',
  'API_URL_NOT_FOUND',
  // Pay blocked by validation (checkout-spec §4 "Pay gating")
  'VALIDATION_FAILED',
] as const;

/** The closed list of error codes, grouped as checkout-spec §8 lists them. */
export const CHECKOUT_ERROR_CODES = [
  ...VALIDATION_ERROR_CODES,
  // Vault
  'VAULT_NETWORK_ERROR',
  'VAULT_CONNECTION_ERROR',
  // Bearer token rejected by the vault, session refresh
  'BEARER_TOKEN_REJECTED',
  'SESSION_REFRESH_FAILED',
  // Payment API
  'UNAUTHORIZED',
  'TOO_MANY_REQUESTS',
  'UNSUCCESSFUL_REQUEST',
  'NETWORK_ERROR',
  // Polling
  'AUTHORIZATION_NOT_REQUESTED',
  'MAX_POLL_ATTEMPTS_EXCEEDED',
  // SDK loading
  'APPLE_PAY_SDK_LOAD_FAILED',
  'GOOGLE_PAY_SDK_LOAD_FAILED',
  'PAYPAL_SDK_LOAD_FAILED',
  'APPLE_PAY_NOT_AVAILABLE',
  'UNKNOWN_ERROR',
  // Wallet callbacks and PayPal
  'CALLBACK_FAILED',
  'PAYPAL_ORDER_CREATION_FAILED',
  'PAYPAL_BUTTON_MOUNT_FAILED',
  // Client errors
  'BIN_LOOKUP_FAILED',
  'SAVE_INSTRUMENT_URL_NOT_AVAILABLE',
  // Payment outcome (checkout-spec §3 failure reasons)
  'AUTHORIZATION_ERROR',
  'AUTHENTICATION_ERROR',
] as const;

export type CheckoutErrorCode = (typeof CHECKOUT_ERROR_CODES)[number];

/** The failure reasons of checkout-spec §3: the only codes a failure event carries. */
export const FAILURE_REASONS = ['VALIDATION_FAILED', 'AUTHORIZATION_ERROR', 'AUTHENTICATION_ERROR', 'UNKNOWN_ERROR'] as const;
export type FailureReason = (typeof FAILURE_REASONS)[number];

const AUTHENTICATION_CODES: readonly CheckoutErrorCode[] = [
  'UNAUTHORIZED',
  'AUTHENTICATION_ERROR',
  'BEARER_TOKEN_REJECTED',
  'INVALID_BEARER_TOKEN',
  'SESSION_REFRESH_FAILED',
];
/** Listed with the configuration errors, but raised on the way to an authorization. */
const PAYMENT_PATH_CODES: readonly CheckoutErrorCode[] = [
  'COLLECT_OPERATION_FAILED',
  'CONTAINER_MOUNT_FAILED',
  'REDIRECT_LINK_MISSING',
  'API_URL_NOT_FOUND',
];
const UNKNOWN_CODES: readonly CheckoutErrorCode[] = [
  'UNKNOWN_ERROR',
  'APPLE_PAY_SDK_LOAD_FAILED',
  'GOOGLE_PAY_SDK_LOAD_FAILED',
  'PAYPAL_SDK_LOAD_FAILED',
  'APPLE_PAY_NOT_AVAILABLE',
];

/**
 * The failure reason of an internal code (checkout-spec §3, §4): pay gating is VALIDATION_FAILED;
 * a rejected or expired token AUTHENTICATION_ERROR; SDK loading, availability and integrator
 * configuration UNKNOWN_ERROR; everything on the way to an authorization (payment API, vault,
 * polling, redirects, wallet callbacks) AUTHORIZATION_ERROR, as "anything else" in §4.
 */
export function failureReasonOf(code: CheckoutErrorCode): FailureReason {
  if (code === 'VALIDATION_FAILED') return 'VALIDATION_FAILED';
  if (AUTHENTICATION_CODES.includes(code)) return 'AUTHENTICATION_ERROR';
  if (PAYMENT_PATH_CODES.includes(code)) return 'AUTHORIZATION_ERROR';
  if (UNKNOWN_CODES.includes(code) || (VALIDATION_ERROR_CODES as readonly CheckoutErrorCode[]).includes(code)) return 'UNKNOWN_ERROR';
  return 'AUTHORIZATION_ERROR';
}

/** User-facing and integrator-facing text: the contracts' catalogue (ADR 133). */
export { CHECKOUT_MESSAGES };

/** The message of a failure event whose detail stays in its cause (checkout-spec §4, §8). */
export const FAILURE_REASON_MESSAGES: Record<FailureReason, string> = {
  VALIDATION_FAILED: CHECKOUT_MESSAGES.paymentBlocked,
  AUTHORIZATION_ERROR: CHECKOUT_MESSAGES.authorizationFailed,
  AUTHENTICATION_ERROR: CHECKOUT_MESSAGES.unauthorized,
  UNKNOWN_ERROR: CHECKOUT_MESSAGES.somethingWentWrong,
};

/** Default text per code; call sites may pass a more precise message. */
const DEFAULT_MESSAGES: Partial<Record<CheckoutErrorCode, string>> = {
  UNAUTHORIZED: CHECKOUT_MESSAGES.unauthorized,
  AUTHENTICATION_ERROR: CHECKOUT_MESSAGES.unauthorized,
  NETWORK_ERROR: CHECKOUT_MESSAGES.networkError,
  AUTHORIZATION_ERROR: CHECKOUT_MESSAGES.authorizationFailed,
  APPLE_PAY_NOT_AVAILABLE: CHECKOUT_MESSAGES.applePayNotAvailable,
  SAVE_INSTRUMENT_URL_NOT_AVAILABLE: CHECKOUT_MESSAGES.saveInstrumentUrlMissing,
  AUTHORIZATION_NOT_REQUESTED: 'Authorization was not requested after 10 polls',
  MAX_POLL_ATTEMPTS_EXCEEDED: 'Maximum poll attempts exceeded',
  CARD_FORM_COLLECT_ELEMENT_NOT_MOUNTED: 'Elements must be mounted before validate or collect',
  MISSING_GET_BEARER_TOKEN: 'getBearerToken is missing from the client configuration',
  INVALID_CUSTOM_ELEMENTS_URL: 'customElementsURL must begin with https',
  SESSION_REFRESH_FAILED: 'Session refresh failed',
  TOO_MANY_REQUESTS: 'Too many requests',
  UNKNOWN_ERROR: CHECKOUT_MESSAGES.somethingWentWrong,
  VALIDATION_FAILED: CHECKOUT_MESSAGES.paymentBlocked,
};

/**
 * @example
 * throw new CheckoutError('INVALID_TABLE', 'records[0].table must be a non-empty string');
 * error.fullCode // 'ROOTS_INVALID_TABLE'
 */
export class CheckoutError extends Error {
  override readonly name = 'CheckoutError';
  readonly code: CheckoutErrorCode;
  /** HTTP status of the gateway answer, when the error comes from one. */
  readonly status: number | undefined;

  constructor(code: CheckoutErrorCode, message?: string, options: { cause?: unknown; status?: number } = {}) {
    super(message ?? DEFAULT_MESSAGES[code] ?? code, options.cause === undefined ? undefined : { cause: options.cause });
    this.code = code;
    this.status = options.status;
  }

  /** The provider-prefixed code, e.g. `ROOTS_INVALID_TABLE`. */
  get fullCode(): string {
    return `${CHECKOUT_ERROR_PREFIX}_${this.code}`;
  }
}
