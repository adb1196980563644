/**
 * The gateway protocol's constants without zod, so browser code (checkout SDK, secure-field
 * frames) can import them at no bundle cost: `@roots/contracts/gateway-constants`.
 * `@roots/contracts/gateway` re-exports all of them next to the schemas.
 */

/** Header names of the gateway protocol (lower case, as Node sees them). */
export const GATEWAY_HEADERS = {
  /** Required on every POST/PUT/DELETE; 1–255 visible characters, unique per logical operation. */
  idempotencyKey: 'idempotency-key',
  /** Set to `true` on an answer replayed from an earlier request with the same idempotency key. */
  idempotentReplayed: 'idempotent-replayed',
  /** Client SDK version, e.g. `5.26.0` ({@link CHECKOUT_CLIENT_VERSION}). */
  clientVersion: 'x-client-version',
  /** Client type, e.g. `web` or `secure-fields`. */
  clientType: 'x-client-type',
  /** JSON metadata of vault requests: sdk_name_version, sdk_client_device_model, sdk_os_version, sdk_runtime_details. */
  skyMetadata: 'sky-metadata',
  /** Request id of every answer (also accepted on requests); shown in vault error descriptions. */
  requestId: 'x-request-id',
  /** Merchant API credential (server-to-server only, never in a browser). */
  merchantKey: 'x-api-key',
  /** Webhook signature: `t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>">`. */
  webhookSignature: 'roots-signature',
  /** Webhook event id (same as `payload.id`); receivers deduplicate on it. */
  webhookId: 'roots-webhook-id',
} as const;

/** The vault's answer for a vault token that expired, was used or never existed (checkout-spec §8). */
export const VAULT_INVALID_TOKEN_MESSAGE = 'Invalid token';

/** Version of the PayPal script loader the SDK follows (checkout-spec §9). */
export const PAYPAL_LOADER_VERSION = '5.1.4';

/** Client version the SDK reports (checkout-spec §9). */
export const CHECKOUT_CLIENT_VERSION = '5.26.0';

/** The sandbox vault's provider config id, echoed in the save-instrument body. */
export const SANDBOX_VAULT_PROVIDER_CONFIG_ID = 'roots-sandbox-vault';

/** `type` of the window message the 3-D Secure, pix and hosted pages post to `window.opener`. */
export const GATEWAY_WINDOW_MESSAGE_TYPE = 'roots-gateway:completed';

/** Receivers reject webhook signatures older than this (replay protection). */
export const WEBHOOK_TOLERANCE_SECONDS = 300;

/** The closed list of gateway error codes. */
export const GATEWAY_ERROR_CODES = [
  /** Body, query or params failed schema validation (400). */
  'VALIDATION_ERROR',
  /** Malformed request that is not a schema issue, e.g. invalid JSON (400). */
  'BAD_REQUEST',
  /** Card data rejected by the vault: Luhn, brand, length, expiry or CVV (422). */
  'CARD_INVALID',
  /** Missing, forged or wrong credential (401). The SDK treats 401/403 as "API token is not valid or expired.". */
  'UNAUTHORIZED',
  /** Bearer token past its `exp` claim (401). */
  'TOKEN_EXPIRED',
  /** Credential valid but not allowed here, e.g. another session's execution or a foreign origin (403). */
  'FORBIDDEN',
  /** Unknown resource (404). */
  'NOT_FOUND',
  /** Mutating call without an `idempotency-key` header (400). */
  'IDEMPOTENCY_KEY_REQUIRED',
  /** Same idempotency key reused with a different request (422). */
  'IDEMPOTENCY_KEY_REUSED',
  /** The first request with this idempotency key is still running (409). */
  'IDEMPOTENCY_REQUEST_IN_PROGRESS',
  /** The execution's state does not allow this call, e.g. authorize twice, confirm without confirmRequested (409). */
  'INVALID_STATE',
  /** Stored instrument missing, deleted, disabled, transient for MIT, or of another holder (422). */
  'INSTRUMENT_NOT_USABLE',
  /** Refund larger than what is left to refund, or of an unsuccessful execution (422). */
  'REFUND_NOT_ALLOWED',
  /**
   * Refund of an execution with a dispute that is open, lost or accepted (409): the bank holds or
   * already took the money back, so a refund would pay the cardholder twice (Stripe's `charge_disputed`).
   */
  'CHARGE_DISPUTED',
  /** Amount or currency differs from the session (422). */
  'AMOUNT_MISMATCH',
  /** Payment method not enabled for the session (422). */
  'PAYMENT_METHOD_NOT_ENABLED',
  /** Body too large (413). */
  'PAYLOAD_TOO_LARGE',
  /** Content type not accepted (415). */
  'UNSUPPORTED_MEDIA_TYPE',
  /** Too many requests for this token (429). */
  'RATE_LIMITED',
  /** Unexpected failure; details are logged, never sent (500). */
  'INTERNAL_ERROR',
  /**
   * The payment processor has not told the outcome yet (no answer after retries, or still
   * processing): nothing is lost; send the same request with the same idempotency key later (503).
   */
  'PAYMENT_OUTCOME_UNKNOWN',
] as const;
/** Message of every 401/403 (checkout-spec §8). */
export const GATEWAY_UNAUTHORIZED_MESSAGE = 'API token is not valid or expired.';

/** Pix (checkout-spec §9): the payment popup lives this long; the gateway expires the payment with it. */
export const PIX_TIMEOUT_MS = 750_000;

/** Apple-type wallet session version (checkout-spec §9): the SDK opens it, the gateway's session says it. */
export const APPLE_PAY_SESSION_VERSION = 3;
/** Apple-type payment request fields (checkout-spec §9), used wherever a session's config leaves one out. */
export const APPLE_PAY_REQUEST_DEFAULTS = {
  countryCode: 'US',
  supportedNetworks: ['visa', 'masterCard', 'amex', 'discover'],
  merchantCapabilities: ['supports3DS'],
  requiredBillingContactFields: ['email', 'name', 'phone', 'postalAddress'],
} as const;

/** Card networks of checkout-spec §3. */
export const CARD_NETWORKS = ['amex', 'diners', 'discover', 'hipercard', 'jcb', 'maestro', 'mastercard', 'unionpay', 'visa'] as const;
/**
 * How a network is named to a person, everywhere (a stored card's label, a field's 'not accepted'
 * message): one name each (issue 33: 'Amex' on one screen, 'American Express' on another).
 */
export const CARD_NETWORK_NAMES: Record<(typeof CARD_NETWORKS)[number], string> = {
  amex: 'American Express',
  diners: 'Diners Club',
  discover: 'Discover',
  hipercard: 'Hipercard',
  jcb: 'JCB',
  maestro: 'Maestro',
  mastercard: 'Mastercard',
  unionpay: 'UnionPay',
  visa: 'Visa',
};
/** Well-known payment method codes; other redirect codes are allowed too (treated as generic redirect). */
export const PAYMENT_METHOD_CODES = ['card', 'googlePay', 'payPal', 'applePay', 'genericRedirect', 'pix'] as const;
/** Stored-instrument statuses (checkout-spec §3). `transient`: saved for one payment only. */
export const INSTRUMENT_STATUSES = ['enabled', 'created', 'deleted', 'disabled', 'invalid', 'transient'] as const;
/**
 * Execution statuses: `created` (session made, nothing authorized yet) is the gateway's own
 * initial state; the others are checkout-spec §3's. Final: authorizeSuccessful, authorizePending, authorizeFailed.
 * `authorizePending` is final for the SDK but resolves later (3-D Secure, redirect, pix).
 */
export const EXECUTION_STATUSES = [
  'created',
  'authorizeRequested',
  'confirmRequested',
  'authorizePending',
  'authorizeSuccessful',
  'authorizeFailed',
] as const;
export const FINAL_EXECUTION_STATUSES = ['authorizePending', 'authorizeSuccessful', 'authorizeFailed'] as const satisfies ReadonlyArray<
  (typeof EXECUTION_STATUSES)[number]
>;

/** True for a status after which nothing more happens to the execution (checkout-spec §4): polling stops. */
export function isFinalExecutionStatus(status: string): boolean {
  return (FINAL_EXECUTION_STATUSES as readonly string[]).includes(status);
}

/** Failure reasons of checkout-spec §3. */
export const FAILURE_REASONS = ['VALIDATION_FAILED', 'AUTHORIZATION_ERROR', 'AUTHENTICATION_ERROR', 'UNKNOWN_ERROR'] as const;

/** Decline codes of the sandbox (test cards and triggers; see the gateway README). */
export const DECLINE_CODES = [
  'card_declined',
  'insufficient_funds',
  'expired_card',
  'incorrect_cvc',
  'processing_error',
  'authentication_failed',
  'payment_canceled',
  'payment_expired',
] as const;
/**
 * Decline codes that may pass (funds, a processing fault): the product's dunning retries a renewal
 * declined with one of these and ends it on any other (hard). Processors map their refusals onto
 * DECLINE_CODES, so this set decides dunning for every processor (ADR 173).
 */
export const SOFT_DECLINE_CODES: ReadonlySet<string> = new Set<(typeof DECLINE_CODES)[number]>(['insufficient_funds', 'processing_error']);
export const WEBHOOK_EVENT_TYPES = [
  'execution.authorizeSuccessful',
  'execution.authorizeFailed',
  'refund.succeeded',
  /** The cardholder's bank disputed a successful payment (a chargeback); `data.dispute` says which. */
  'execution.disputeOpened',
  /**
   * A dispute moved on (evidence submitted, won, lost, accepted); `data.dispute` carries its new
   * status and `updatedAt`. Adyen's CHARGEBACK_REVERSED and SECOND_CHARGEBACK map onto it.
   */
  'execution.disputeUpdated',
] as const;

/**
 * Why a cardholder disputes a payment (Stripe's names). The sandbox opens `fraudulent` disputes
 * only (test card 4000000000000259); a real processor's chargeback whose reason code is not fraud
 * is `general` (the Adyen connector). The list is closed so receivers can rely on it.
 */
export const DISPUTE_REASONS = ['fraudulent', 'general'] as const;

/**
 * Where a dispute stands (Stripe's names, plus `accepted`): `needs_response` (opened; the merchant
 * may answer with evidence until `evidenceDueBy`), `under_review` (evidence submitted, the bank
 * decides), then `won`, `lost` (the bank kept the chargeback, or no answer came in time) or
 * `accepted` (the merchant gave the money up). The state machine is the gateway's disputes module.
 * Listed in the order a dispute moves: every move goes to a later status, so a receiver of
 * deliveries that arrive out of order keeps the status listed last ({@link disputeStatusRank}).
 */
export const DISPUTE_STATUSES = ['needs_response', 'under_review', 'won', 'lost', 'accepted'] as const;

/** Where a status stands in {@link DISPUTE_STATUSES}: a dispute only ever moves to a higher rank. */
export function disputeStatusRank(status: (typeof DISPUTE_STATUSES)[number]): number {
  return DISPUTE_STATUSES.indexOf(status);
}

/** Statuses in which a dispute is still going on: nothing may refund the execution meanwhile. */
export const OPEN_DISPUTE_STATUSES = ['needs_response', 'under_review'] as const;

/** Statuses in which the cardholder got the money back through the bank (a chargeback). */
export const CHARGED_BACK_DISPUTE_STATUSES = ['lost', 'accepted'] as const;

/**
 * Sandbox evidence words (Stripe's test convention): evidence whose text contains `winning_evidence`
 * is decided `won` at once, `losing_evidence` `lost`; any other evidence waits `under_review` for
 * the bank's decision (`POST /merchant/v1/disputes/{id}/decision`).
 */
export const SANDBOX_DISPUTE_EVIDENCE_WORDS = { won: 'winning_evidence', lost: 'losing_evidence' } as const;

/** Days a merchant has to answer a dispute with evidence, from when it opens. */
export const DISPUTE_EVIDENCE_DAYS = 7;

/**
 * The amount of a card verification: a session of nothing verifies a card with its issuer and
 * stores it for the holder (a "save card" checkout, ADR 143). Only the card method can verify, and
 * only to store: a verification that keeps nothing would prove nothing to anyone.
 */
export const CARD_VERIFICATION_AMOUNT = 0;
/** The one method a zero-amount session offers (and the default when the merchant names none). */
export const CARD_VERIFICATION_METHODS = ['card'] as const;
