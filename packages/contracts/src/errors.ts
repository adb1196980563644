import { z } from 'zod';

/** The closed list of error codes any Roots HTTP endpoint may answer with. */
export const API_ERROR_CODES = [
  'VALIDATION_ERROR',
  'BAD_REQUEST',
  'UNAUTHORIZED',
  'FORBIDDEN',
  'NOT_FOUND',
  'CONFLICT',
  /** The buyer already owns what they are about to pay for (a live plan, or a pack that includes it). */
  'ALREADY_OWNED',
  /**
   * The payment is disputed (open), or its dispute was lost or accepted (charged back): no refund
   * of it, by anyone, until the dispute ends in the merchant's favour (ADR 182).
   */
  'CHARGE_DISPUTED',
  'PAYMENT_NOT_ACCEPTED',
  'UNPROCESSABLE',
  'PAYLOAD_TOO_LARGE',
  'UNSUPPORTED_MEDIA_TYPE',
  'RATE_LIMITED',
  /** Under pressure the checkout asks for a solved proof-of-work challenge (429, with `challenge`; ADR 160). */
  'CHALLENGE_REQUIRED',
  'SERVICE_UNAVAILABLE',
  'INTERNAL_ERROR',
] as const;

export const apiErrorCodeSchema = z.enum(API_ERROR_CODES);
export type ApiErrorCode = z.infer<typeof apiErrorCodeSchema>;

/** The one error shape every endpoint answers with: `{ error, code }`. */
export const apiErrorSchema = z.object({
  error: z.string(),
  code: z.string(),
  details: z.array(z.object({ path: z.string(), message: z.string() })).optional(),
});
export type ApiError = z.infer<typeof apiErrorSchema>;

/**
 * The 429 of a checkout call (ADR 160): `RATE_LIMITED`, or `CHALLENGE_REQUIRED` with the ALTCHA
 * challenge the browser solves before asking again.
 */
export const checkoutRefusalSchema = apiErrorSchema.extend({ challenge: z.unknown().optional() });
