import { randomUUID } from 'node:crypto';
import {
  AUTH_BASE_PATH,
  sessionPersistenceSchema,
  type AuthProvider,
  type SessionRefreshResponse,
  type SignOutErrorCode,
} from '@roots/contracts/auth';
import { betterAuth } from 'better-auth';
import { drizzleAdapter } from 'better-auth/adapters/drizzle';
import { APIError, createAuthEndpoint, sessionMiddleware } from 'better-auth/api';
import { deleteSessionCookie, setSessionCookie } from 'better-auth/cookies';
import { emailOTP, genericOAuth, type GenericOAuthConfig } from 'better-auth/plugins';
import { eq } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../../config/env';
import type { Db } from '../../db/database';
import { authAccounts, authSessions, authUsers, authVerifications } from '../../db/schema';
import { maskEmail } from '../../lib/mask';
import type { SignInLimits } from '../../lib/sign-in-limits';
import { signInCodeEmail } from '../emails/email-templates';
import type { EmailsService } from '../emails/emails.service';

/**
 * The header the auth routes set to the client address as the server sees it (`request.ip`, which
 * follows TRUST_PROXY), replacing any a client sent: better-auth records it on sessions.
 */
export const CLIENT_IP_HEADER = 'x-roots-client-ip';

/** Validity of an email sign-in code. */
export const EMAIL_CODE_TTL_SECONDS = 10 * 60;

/** The redirect providers configured by environment (AUTH_GOOGLE_*, AUTH_APPLE_*). */
export function configuredProviders(config: Config): AuthProvider[] {
  const providers: AuthProvider[] = [];
  if (config.AUTH_GOOGLE_ISSUER && config.AUTH_GOOGLE_CLIENT_ID) providers.push('google');
  if (config.AUTH_APPLE_ISSUER && config.AUTH_APPLE_CLIENT_ID) providers.push('apple');
  return providers;
}

function providerConfig(config: Config, provider: AuthProvider): GenericOAuthConfig {
  const google = provider === 'google';
  const issuer = (google ? config.AUTH_GOOGLE_ISSUER : config.AUTH_APPLE_ISSUER)?.replace(/\/$/, '') ?? '';
  return {
    providerId: provider,
    discoveryUrl: `${issuer}/.well-known/openid-configuration`,
    clientId: (google ? config.AUTH_GOOGLE_CLIENT_ID : config.AUTH_APPLE_CLIENT_ID) ?? '',
    clientSecret: google ? config.AUTH_GOOGLE_CLIENT_SECRET : config.AUTH_APPLE_CLIENT_SECRET,
    // product-spec §7: profile and email with the account chooser every time; Apple-type: email and name.
    scopes: google ? ['openid', 'profile', 'email'] : ['openid', 'email', 'name'],
    // Apple answers by form post when email or name is asked for; better-auth turns the post into a GET.
    ...(google ? { prompt: 'select_account' as const } : { responseMode: 'form_post' as const }),
    pkce: true,
  };
}

/**
 * Our two session endpoints beside better-auth's own (product-spec §4):
 * - `POST /session-persistence {persistence:'session'}`: asked for before the redirect; the signed
 *   `dont_remember` cookie makes better-auth set the session cookie without Max-Age, so the sign-in
 *   ends with the browser session.
 * - `POST /refresh-session`: the browser calls it TOKEN_REFRESH_MARGIN_MS before the session ends;
 *   the session gets a new lifetime of `expiresInSeconds` (better-auth's own rolling refresh skips
 *   session-only sign-ins). A disabled user's sessions end instead ('user-disabled').
 */
const rootsSessionPlugin = (expiresInSeconds: number) => ({
  id: 'roots-session',
  endpoints: {
    setSessionPersistence: createAuthEndpoint('/session-persistence', { method: 'POST' }, async (ctx) => {
      const parsed = sessionPersistenceSchema.safeParse(ctx.body);
      if (!parsed.success) throw new APIError('BAD_REQUEST', { message: 'persistence must be session or local' });
      const cookie = ctx.context.authCookies.dontRememberToken;
      if (parsed.data.persistence === 'session') {
        await ctx.setSignedCookie(cookie.name, 'true', ctx.context.secret, cookie.attributes);
      } else {
        ctx.setCookie(cookie.name, '', { ...cookie.attributes, maxAge: 0 });
      }
      return ctx.json({ ok: true });
    }),
    refreshSession: createAuthEndpoint('/refresh-session', { method: 'POST', use: [sessionMiddleware] }, async (ctx) => {
      const { session, user } = ctx.context.session;
      if ((user as { disabled?: boolean }).disabled) {
        await ctx.context.internalAdapter.deleteUserSessions(user.id);
        deleteSessionCookie(ctx);
        throw new APIError('UNAUTHORIZED', { message: 'user-disabled', code: 'user-disabled' satisfies SignOutErrorCode });
      }
      const updated = await ctx.context.internalAdapter.updateSession(session.token, {
        expiresAt: new Date(Date.now() + expiresInSeconds * 1000),
        updatedAt: new Date(),
      });
      if (!updated) {
        deleteSessionCookie(ctx);
        throw new APIError('UNAUTHORIZED', { message: 'user-token-expired', code: 'user-token-expired' satisfies SignOutErrorCode });
      }
      const dontRemember = await ctx.getSignedCookie(ctx.context.authCookies.dontRememberToken.name, ctx.context.secret);
      await setSessionCookie(ctx, { session: updated, user }, !!dontRemember);
      const answer: SessionRefreshResponse = { session_expires_at: new Date(updated.expiresAt).toISOString() };
      return ctx.json(answer);
    }),
  },
});

export type AuthDependencies = { config: Config; db: Db; emails: EmailsService; log: FastifyBaseLogger; limits: SignInLimits };

/**
 * better-auth on our database (ADR 070): email one-time codes through the email outbox, generic
 * OpenID Connect for the Google-type and Apple-type providers, sessions in `auth_sessions`.
 * A disabled user cannot start a session.
 */
export function createAuth({ config, db, emails, log, limits }: AuthDependencies) {
  const providers = configuredProviders(config);
  return betterAuth({
    appName: config.PRODUCT_NAME,
    baseURL: config.publicUrl,
    basePath: AUTH_BASE_PATH,
    secret: config.AUTH_SECRET,
    trustedOrigins: [config.publicUrl, ...config.AUTH_TRUSTED_ORIGINS],
    database: drizzleAdapter(db, {
      provider: 'pg',
      schema: { user: authUsers, session: authSessions, account: authAccounts, verification: authVerifications },
    }),
    advanced: { database: { generateId: () => randomUUID() }, ipAddress: { ipAddressHeaders: [CLIENT_IP_HEADER] } },
    // Off in every environment: better-auth's limiter cannot see the client address behind our
    // server and fell back to one bucket shared by everyone (issue 22). The auth routes apply the
    // server's own per-address and per-email limits instead (SignInLimits).
    rateLimit: { enabled: false },
    telemetry: { enabled: false },
    // The library's own lines go to the server's logger (structured, LOG_LEVEL applies, `silent` in
    // tests), not to the console: an unreachable provider in a test no longer prints an ERROR line
    // (issue 33). The message only: its extra arguments may carry request data.
    logger: {
      level: 'debug',
      log: (level, message) => log[level]({ component: 'better-auth' }, message),
    },
    emailAndPassword: { enabled: false },
    user: { additionalFields: { disabled: { type: 'boolean', defaultValue: false, input: false } } },
    session: { expiresIn: config.AUTH_SESSION_TTL_SECONDS, updateAge: Math.min(86_400, Math.floor(config.AUTH_SESSION_TTL_SECONDS / 4)) },
    account: { accountLinking: { enabled: true, trustedProviders: ['google', 'apple', 'email-otp'] } },
    databaseHooks: {
      session: {
        create: {
          before: async (session) => {
            const [user] = await db.select({ disabled: authUsers.disabled }).from(authUsers).where(eq(authUsers.id, session.userId));
            if (user?.disabled) throw new APIError('FORBIDDEN', { message: 'user-disabled' });
            return undefined;
          },
        },
      },
    },
    plugins: [
      emailOTP({
        otpLength: 6,
        expiresIn: EMAIL_CODE_TTL_SECONDS,
        allowedAttempts: 5,
        // ADR 167: asking again while a code is valid sends the same code (a stranger's requests never
        // replace the one in the owner's inbox). Reuse needs the code back, so it is stored encrypted
        // under AUTH_SECRET rather than hashed; five wrong tries still end a code.
        resendStrategy: 'reuse',
        storeOTP: 'encrypted',
        async sendVerificationOTP({ email, otp, type }) {
          if (type !== 'sign-in') return;
          if ((await limits.codeEmail(email, otp)) === 'hold') {
            log.info({ email: maskEmail(email) }, 'sign-in code not emailed again yet (sent moments ago)');
            return;
          }
          await emails.enqueue(
            db,
            `sign-in-code:${randomUUID()}`,
            email,
            signInCodeEmail({ productName: config.PRODUCT_NAME, code: otp, validMinutes: EMAIL_CODE_TTL_SECONDS / 60 }),
          );
          emails.kick();
          log.info({ email: maskEmail(email) }, 'sign-in code sent');
        },
      }),
      ...(providers.length > 0 ? [genericOAuth({ config: providers.map((provider) => providerConfig(config, provider)) })] : []),
      rootsSessionPlugin(config.AUTH_SESSION_TTL_SECONDS),
    ],
  });
}

export type Auth = ReturnType<typeof createAuth>;
