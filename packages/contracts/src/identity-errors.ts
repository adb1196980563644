import type { IdentityErrorCode } from './messages';

// Zod-free: the sign-in screen imports it.

/** Codes of the identity server (better-auth and its redirect errors) → the readable codes of product-spec §8. */
const SERVER_CODES: Record<string, IdentityErrorCode> = {
  INVALID_EMAIL: 'invalid-email',
  INVALID_OTP: 'wrong-password',
  OTP_EXPIRED: 'wrong-password',
  INVALID_EMAIL_OR_PASSWORD: 'wrong-password',
  INVALID_PASSWORD: 'wrong-password',
  TOO_MANY_ATTEMPTS: 'too-many-requests',
  USER_NOT_FOUND: 'user-not-found',
  USER_ALREADY_EXISTS: 'email-already-in-use',
  USER_ALREADY_EXISTS_USE_ANOTHER_EMAIL: 'email-already-in-use',
  account_already_linked_to_different_user: 'email-already-in-use',
  unable_to_link_account: 'email-already-in-use',
  SESSION_EXPIRED: 'requires-recent-login',
  SESSION_NOT_FRESH: 'requires-recent-login',
  'user-token-expired': 'requires-recent-login',
  'user-disabled': 'user-disabled',
  USER_DISABLED: 'user-disabled',
  BANNED_USER: 'user-disabled',
  NETWORK_ERROR: 'network-request-failed',
  INVALID_ORIGIN: 'unauthorized-domain',
  INVALID_CALLBACK_URL: 'unauthorized-domain',
  INVALID_ERROR_CALLBACK_URL: 'unauthorized-domain',
  invalid_callback_url: 'unauthorized-domain',
};

/**
 * The readable identity code of a failed sign-in call, from the server's code and the HTTP status;
 * null when it is none of them (the caller shows the server's own message).
 * @example identityErrorCode({ status: 400, code: 'INVALID_OTP' }) // 'wrong-password'
 * @example identityErrorCode({ status: 429 }) // 'too-many-requests'
 */
export function identityErrorCode(answer: { status: number; code?: string | undefined }): IdentityErrorCode | null {
  const known = answer.code ? SERVER_CODES[answer.code] : undefined;
  if (known) return known;
  if (answer.status === 0) return 'network-request-failed';
  if (answer.status === 429) return 'too-many-requests';
  return null;
}
