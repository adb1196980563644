import { z } from 'zod';
import { accessKindSchema } from './subscriptions';

/**
 * Sign-in (product-spec §3, §4, §7): redirect sign-in with a Google-type or an Apple-type OpenID
 * Connect provider, or a one-time code by email. The server runs better-auth under `/api/auth`
 * (ADR 070); these are the shapes the web app and the server share around it.
 */

/** Redirect providers; which are enabled is configuration (`GET /api/account/sign-in-options`). */
export const AUTH_PROVIDERS = ['google', 'apple'] as const;
export const authProviderSchema = z.enum(AUTH_PROVIDERS);
export type AuthProvider = z.infer<typeof authProviderSchema>;

/** Base path of the better-auth handler on the server. */
export const AUTH_BASE_PATH = '/api/auth';

/** `GET /api/account/sign-in-options`: the configured redirect providers (email code is always on). */
export const signInOptionsSchema = z.object({ providers: z.array(authProviderSchema), email_code: z.boolean() });
export type SignInOptions = z.infer<typeof signInOptionsSchema>;

export { EMAIL_CODE_LENGTH } from './product-defaults';

/**
 * Signed-in user summary (product-spec §3): email and displayName default to empty text.
 * `providerId` is 'google', 'apple' or 'email'; `providerDataId` the subject at that provider.
 */
export const signedInUserSummarySchema = z.object({
  uid: z.string(),
  email: z.string().default(''),
  displayName: z.string().default(''),
  providerId: z.string(),
  providerDataId: z.string(),
  isAppleAuth: z.boolean(),
  isGoogleAuth: z.boolean(),
});
export type SignedInUserSummary = z.infer<typeof signedInUserSummarySchema>;

/** `GET /api/account/me`. `has_purchase` false → the not-exist modal (product-spec §8). */
export const meResponseSchema = z.object({
  user: signedInUserSummarySchema,
  has_purchase: z.boolean(),
  access: z.array(accessKindSchema),
  /** When the session ends (ISO); the client refreshes TOKEN_REFRESH_MARGIN_MS before. */
  session_expires_at: z.iso.datetime(),
});
export type MeResponse = z.infer<typeof meResponseSchema>;

/**
 * `GET /api/account/session`: who is signed in, for pages a visitor sees too (ADR 149). A visitor
 * gets 200 `{ me: null }`, not the 401 of `/api/account/me`, so a visitor's page logs no failed request.
 */
export const sessionStateResponseSchema = z.object({ me: meResponseSchema.nullable() });
export type SessionStateResponse = z.infer<typeof sessionStateResponseSchema>;

/** Identity errors the client acts on by signing out (product-spec §4). */
export const SIGN_OUT_ERROR_CODES = ['user-disabled', 'user-token-expired'] as const;
export type SignOutErrorCode = (typeof SIGN_OUT_ERROR_CODES)[number];

/** Session refresh timing (product-spec §4, §9). */
export const TOKEN_REFRESH_MARGIN_MS = 5 * 60_000;
/** Product-spec §9: each identity call gives up after 30 s without an answer (the spec's range is 30 to 60 s). */
export const AUTH_NETWORK_TIMEOUT_MS = 30_000;
/** Product-spec §9: a call safe to repeat is tried again at most 3 times when it got no answer. */
export const AUTH_MAX_RETRIES = 3;
export const TOKEN_EXPIRY_SKEW_MS = 30_000;
export const REFRESH_BACKOFF_INITIAL_MS = 30_000;
export const REFRESH_BACKOFF_MAX_MS = 16 * 60_000;
/** The local `waitingForRedirectResponse` flag is cleared this long after start-up. */
export const REDIRECT_WAIT_FLAG_MS = 3_000;

/** `POST /api/auth/session-persistence`: 'session' keeps the sign-in to this browser session only. */
export const sessionPersistenceSchema = z.object({ persistence: z.enum(['session', 'local']) });
export type SessionPersistence = z.infer<typeof sessionPersistenceSchema>;

/** `POST /api/auth/refresh-session`: the session's new end (it answers 401 once the session is gone). */
export const sessionRefreshResponseSchema = z.object({ session_expires_at: z.iso.datetime() });
export type SessionRefreshResponse = z.infer<typeof sessionRefreshResponseSchema>;
