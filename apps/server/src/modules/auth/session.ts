import type { SignOutErrorCode } from '@roots/contracts/auth';
import type { FastifyRequest } from 'fastify';
import { AppError } from '../../errors';
import type { Auth } from './auth';

/** The signed-in user as the server's checks see it. */
export type SessionUser = {
  id: string;
  email: string;
  emailVerified: boolean;
  name: string;
  sessionExpiresAt: Date;
  /** The better-auth session's id (absent on a user the server makes up, e.g. for a data deletion). */
  sessionId?: string;
};

/** Fastify's headers as a Fetch `Headers` (what better-auth reads cookies from). */
export function toHeaders(request: FastifyRequest): Headers {
  const headers = new Headers();
  for (const [name, value] of Object.entries(request.headers)) {
    if (value === undefined) continue;
    for (const item of Array.isArray(value) ? value : [value]) headers.append(name, item);
  }
  return headers;
}

/** Sends a one-time sign-in code by email (access recovery). */
export type SignInCodeSender = { sendSignInCode(email: string): Promise<void> };

/**
 * Reads the session cookie of a request. A disabled user's sessions are revoked and the request is
 * refused with 'user-disabled'; no or an expired session with 'user-token-expired' (product-spec §4:
 * the browser signs out on either).
 */
export class SessionReader implements SignInCodeSender {
  constructor(private readonly auth: Auth) {}

  /** Emails a one-time sign-in code through better-auth's email-OTP plugin (the same code as the sign-in screen's). */
  async sendSignInCode(email: string): Promise<void> {
    await this.auth.api.sendVerificationOTP({ body: { email, type: 'sign-in' } });
  }

  async current(request: FastifyRequest): Promise<SessionUser | null> {
    const found = await this.auth.api.getSession({ headers: toHeaders(request), query: { disableCookieCache: true } });
    if (!found) return null;
    if ((found.user as { disabled?: boolean }).disabled) {
      await this.auth.api.revokeSessions({ headers: toHeaders(request) }).catch(() => undefined);
      throw new AppError('UNAUTHORIZED', 'user-disabled' satisfies SignOutErrorCode);
    }
    return {
      id: found.user.id,
      email: found.user.email,
      emailVerified: found.user.emailVerified,
      name: found.user.name,
      sessionExpiresAt: new Date(found.session.expiresAt),
      sessionId: found.session.id,
    };
  }

  /** @throws AppError UNAUTHORIZED 'user-token-expired' without a live session. */
  async require(request: FastifyRequest): Promise<SessionUser> {
    const user = await this.current(request);
    if (!user) throw new AppError('UNAUTHORIZED', 'user-token-expired' satisfies SignOutErrorCode);
    return user;
  }
}
