import { describe, expect, it } from 'vitest';
import { AppError } from '../../errors';
import { ManualClock } from '../../lib/clock';
import { verifyBuyerIdentity } from './identity';

const clock = new ManualClock('2026-03-01T00:00:00Z');
const jwt = (payload: object) => `e30.${Buffer.from(JSON.stringify(payload)).toString('base64url')}.sig`;
const now = clock.now().getTime() / 1000;

describe('verifyBuyerIdentity', () => {
  it('accepts a well-formed identity id or a fresh Apple token for the same email', () => {
    expect(verifyBuyerIdentity({ firebase_id: 'uid_123', email: 'a@b.co' }, clock, 'x')).toEqual({
      userId: 'uid_123',
      provider: 'firebase',
    });
    expect(
      verifyBuyerIdentity({ apple_token: jwt({ sub: '001.abc', exp: now + 60, email: 'A@b.co' }), email: 'a@b.co' }, clock, 'x').userId,
    ).toBe('apple:001.abc');
  });

  it('rejects missing, malformed, expired or foreign credentials', () => {
    for (const claim of [
      { email: 'a@b.co' },
      { firebase_id: 'has spaces', email: 'a@b.co' },
      { apple_token: 'not-a-jwt', email: 'a@b.co' },
      { apple_token: jwt({ sub: 'x', exp: now - 1 }), email: 'a@b.co' },
      { apple_token: jwt({ sub: 'x', exp: now + 60, email: 'other@b.co' }), email: 'a@b.co' },
    ]) {
      expect(() => verifyBuyerIdentity(claim, clock, 'Finalize error')).toThrow(AppError);
    }
  });
});
