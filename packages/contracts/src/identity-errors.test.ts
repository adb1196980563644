import { describe, expect, it } from 'vitest';
import { identityErrorCode } from './identity-errors';
import { IDENTITY_ERROR_MESSAGES } from './messages';

describe('identity error codes (product-spec §8)', () => {
  it('maps the identity server codes and statuses sign-in can produce to readable codes', () => {
    expect(identityErrorCode({ status: 400, code: 'INVALID_EMAIL' })).toBe('invalid-email');
    expect(identityErrorCode({ status: 400, code: 'INVALID_OTP' })).toBe('wrong-password');
    expect(identityErrorCode({ status: 400, code: 'OTP_EXPIRED' })).toBe('wrong-password');
    expect(identityErrorCode({ status: 403, code: 'TOO_MANY_ATTEMPTS' })).toBe('too-many-requests');
    expect(identityErrorCode({ status: 429 })).toBe('too-many-requests');
    expect(identityErrorCode({ status: 404, code: 'USER_NOT_FOUND' })).toBe('user-not-found');
    expect(identityErrorCode({ status: 422, code: 'USER_ALREADY_EXISTS' })).toBe('email-already-in-use');
    expect(identityErrorCode({ status: 401, code: 'user-disabled' })).toBe('user-disabled');
    expect(identityErrorCode({ status: 401, code: 'user-token-expired' })).toBe('requires-recent-login');
    expect(identityErrorCode({ status: 0, code: 'NETWORK_ERROR' })).toBe('network-request-failed');
    expect(identityErrorCode({ status: 403, code: 'INVALID_ORIGIN' })).toBe('unauthorized-domain');
    expect(identityErrorCode({ status: 500, code: 'SOMETHING_ELSE' })).toBeNull();
  });

  it('has a user-facing message for every code of the spec', () => {
    expect(Object.keys(IDENTITY_ERROR_MESSAGES).sort()).toEqual(
      [
        'invalid-email',
        'wrong-password',
        'email-already-in-use',
        'user-not-found',
        'too-many-requests',
        'requires-recent-login',
        'user-disabled',
        'network-request-failed',
        'popup-blocked',
        'unauthorized-domain',
      ].sort(),
    );
  });
});
