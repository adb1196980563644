import { AppError } from '../../errors';
import type { Clock } from '../../lib/clock';
import { normalizeEmail } from '../../lib/mask';

export type IdentityClaim = { firebase_id?: string | undefined; apple_token?: string | undefined; email: string };
export type VerifiedIdentity = { userId: string; provider: 'firebase' | 'apple' };

const FIREBASE_UID = /^[A-Za-z0-9_-]{1,128}$/;

function decodeJwtPayload(token: string): Record<string, unknown> | undefined {
  const parts = token.split('.');
  if (parts.length !== 3 || !parts[1]) return undefined;
  try {
    const payload = JSON.parse(Buffer.from(parts[1], 'base64url').toString('utf8')) as unknown;
    return typeof payload === 'object' && payload !== null ? (payload as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The one identity check of the signed-in endpoints (`/subs/create`, `/subs/create-applepay`,
 * `/subs/finalize`). Until real sign-in lands (better-auth, a later issue, ADR 033) it checks what
 * can be checked without the identity provider: a well-formed identity id, or an Apple identity
 * token that is a JWT with a subject, not expired, and — when it names an email — the buyer's.
 * Signatures are NOT verified yet; the auth issue replaces this function.
 * @throws AppError UNAUTHORIZED (401) when neither credential passes.
 */
export function verifyBuyerIdentity(claim: IdentityClaim, clock: Clock, message: string): VerifiedIdentity {
  if (claim.apple_token) {
    const payload = decodeJwtPayload(claim.apple_token);
    const subject = payload?.sub;
    const expiresAt = payload?.exp;
    const email = payload?.email;
    const fresh = typeof expiresAt === 'number' && expiresAt * 1000 > clock.now().getTime();
    const sameEmail = typeof email !== 'string' || normalizeEmail(email) === normalizeEmail(claim.email);
    if (typeof subject === 'string' && subject.length > 0 && subject.length <= 255 && fresh && sameEmail) {
      return { userId: `apple:${subject}`, provider: 'apple' };
    }
    throw new AppError('UNAUTHORIZED', 401, message);
  }
  if (claim.firebase_id && FIREBASE_UID.test(claim.firebase_id)) return { userId: claim.firebase_id, provider: 'firebase' };
  throw new AppError('UNAUTHORIZED', 401, message);
}
