import type { DeclineCode } from '@roots/contracts/gateway';

/**
 * What each Adyen `resultCode` (Checkout API v71, `PaymentResponse.resultCode`) does to an
 * execution; the table in apps/gateway/README.md ("Adyen") says the same. `unexpected` results are
 * ones the gateway never asks for (native 3-D Secure 2, authentication-only, partial
 * authorisation, vouchers): the execution fails loudly with the raw code logged.
 */
export const RESULT_CODE_OUTCOMES = {
  Authorised: 'authorised',
  Refused: 'refused',
  Error: 'refused',
  Cancelled: 'cancelled',
  RedirectShopper: 'challenge',
  Received: 'processing',
  Pending: 'processing',
  IdentifyShopper: 'unexpected',
  ChallengeShopper: 'unexpected',
  PresentToShopper: 'unexpected',
  PartiallyAuthorised: 'unexpected',
  AuthenticationFinished: 'unexpected',
  AuthenticationNotRequired: 'unexpected',
  Success: 'unexpected',
} as const satisfies Record<string, 'authorised' | 'refused' | 'cancelled' | 'challenge' | 'processing' | 'unexpected'>;

export type ResultCodeOutcome = (typeof RESULT_CODE_OUTCOMES)[keyof typeof RESULT_CODE_OUTCOMES];

export function resultCodeOutcome(resultCode: string | undefined): ResultCodeOutcome | undefined {
  return resultCode !== undefined && Object.hasOwn(RESULT_CODE_OUTCOMES, resultCode)
    ? RESULT_CODE_OUTCOMES[resultCode as keyof typeof RESULT_CODE_OUTCOMES]
    : undefined;
}

/**
 * Adyen's refusal reasons (`refusalReasonCode` → `refusalReason`, Adyen's published list) and our
 * decline code for each. The product's dunning retries `insufficient_funds` and
 * `processing_error` (soft); every other code ends the renewal (hard).
 */
export const REFUSAL_REASONS: Readonly<Record<string, { reason: string; code: DeclineCode }>> = {
  '2': { reason: 'Refused', code: 'card_declined' },
  '3': { reason: 'Referral', code: 'card_declined' },
  '4': { reason: 'Acquirer Error', code: 'processing_error' },
  '5': { reason: 'Blocked Card', code: 'card_declined' },
  '6': { reason: 'Expired Card', code: 'expired_card' },
  '7': { reason: 'Invalid Amount', code: 'card_declined' },
  '8': { reason: 'Invalid Card Number', code: 'card_declined' },
  '9': { reason: 'Issuer Unavailable', code: 'processing_error' },
  '10': { reason: 'Not supported', code: 'card_declined' },
  '11': { reason: '3D Not Authenticated', code: 'authentication_failed' },
  '12': { reason: 'Not enough balance', code: 'insufficient_funds' },
  '14': { reason: 'Acquirer Fraud', code: 'card_declined' },
  '15': { reason: 'Cancelled', code: 'payment_canceled' },
  '16': { reason: 'Shopper Cancelled', code: 'payment_canceled' },
  '17': { reason: 'Invalid Pin', code: 'card_declined' },
  '18': { reason: 'Pin tries exceeded', code: 'card_declined' },
  '19': { reason: 'Pin validation not possible', code: 'card_declined' },
  '20': { reason: 'FRAUD', code: 'card_declined' },
  '21': { reason: 'Not Submitted', code: 'processing_error' },
  '22': { reason: 'FRAUD-CANCELLED', code: 'card_declined' },
  '23': { reason: 'Transaction Not Permitted', code: 'card_declined' },
  '24': { reason: 'CVC Declined', code: 'incorrect_cvc' },
  '25': { reason: 'Restricted Card', code: 'card_declined' },
  '26': { reason: 'Revocation Of Auth', code: 'card_declined' },
  '27': { reason: 'Declined Non Generic', code: 'card_declined' },
  '28': { reason: 'Withdrawal amount exceeded', code: 'insufficient_funds' },
  '29': { reason: 'Withdrawal count exceeded', code: 'insufficient_funds' },
  '31': { reason: 'Issuer Suspected Fraud', code: 'card_declined' },
  '32': { reason: 'AVS Declined', code: 'card_declined' },
  '33': { reason: 'Card requires online pin', code: 'card_declined' },
  '34': { reason: 'No checking account available on Card', code: 'card_declined' },
  '35': { reason: 'No savings account available on Card', code: 'card_declined' },
  '36': { reason: 'Mobile pin required', code: 'card_declined' },
  '37': { reason: 'Contactless fallback', code: 'card_declined' },
  '38': { reason: 'Authentication required', code: 'authentication_failed' },
  '39': { reason: 'RReq not received from DS', code: 'authentication_failed' },
  '40': { reason: 'Current AID is in Penalty Box', code: 'card_declined' },
  '41': { reason: 'CVM Required Restart Payment', code: 'card_declined' },
  '42': { reason: '3DS Authentication Error', code: 'authentication_failed' },
  '43': { reason: 'Online PIN required', code: 'card_declined' },
  '44': { reason: 'Try another interface', code: 'card_declined' },
  '45': { reason: 'Chip downgrade mode', code: 'card_declined' },
  '46': { reason: 'Transaction blocked by Adyen to prevent excessive retry fees', code: 'card_declined' },
};

/** Decline codes the product's dunning retries (its billing reads the same set). */
export { SOFT_DECLINE_CODES } from '@roots/contracts/gateway-constants';

const BY_REASON = new Map(Object.values(REFUSAL_REASONS).map((entry) => [entry.reason.toLowerCase(), entry.code]));

/**
 * Our decline code for a refusal: by `refusalReasonCode`, else by the `refusalReason` text (a
 * notification carries only the text). Undefined when Adyen sent something not in the table.
 */
export function declineCodeFor(refusal: { code?: string | undefined; reason?: string | undefined }): DeclineCode | undefined {
  if (refusal.code !== undefined && Object.hasOwn(REFUSAL_REASONS, refusal.code)) return REFUSAL_REASONS[refusal.code]?.code;
  if (refusal.reason !== undefined) return BY_REASON.get(refusal.reason.trim().toLowerCase());
  return undefined;
}
