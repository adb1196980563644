import type { AuthProvider, MeResponse, SessionRefreshResponse } from '@roots/contracts/auth';
import {
  AUTH_BASE_PATH,
  AUTH_MAX_RETRIES,
  AUTH_NETWORK_TIMEOUT_MS,
  meResponseSchema,
  REDIRECT_WAIT_FLAG_MS,
  REFRESH_BACKOFF_INITIAL_MS,
  REFRESH_BACKOFF_MAX_MS,
  sessionStateResponseSchema,
  signInOptionsSchema,
  TOKEN_EXPIRY_SKEW_MS,
  TOKEN_REFRESH_MARGIN_MS,
} from '@roots/contracts/auth';
import { identityErrorCode } from '@roots/contracts/identity-errors';
import { IDENTITY_ERROR_MESSAGES } from '@roots/contracts/messages';
import { getJson, postJson, RequestError, timeoutSignal } from './api-client';
import { LOCAL_KEYS } from './session-keys';

/**
 * The browser side of sign-in (product-spec §4): redirect sign-in, email code, the session summary,
 * refresh before expiry with back-off, sign-out. The session itself is an httpOnly cookie (ADR 070).
 */

/**
 * The identity calls' network policy (product-spec §9): every try ends after AUTH_NETWORK_TIMEOUT_MS
 * without an answer; a try that got none (network error, timeout) is made again, at most `retries`
 * times, right away. An answer, even an error answer, is final. Calls that must not be repeated (an
 * email code sent or checked) pass `retries: 0`: a second code would replace the first.
 */
export async function identityRequest<T>(call: (signal: AbortSignal) => Promise<T>, retries: number = AUTH_MAX_RETRIES): Promise<T> {
  for (let attempt = 0; ; attempt += 1) {
    try {
      return await call(timeoutSignal(AUTH_NETWORK_TIMEOUT_MS));
    } catch (error) {
      const noAnswer = error instanceof RequestError && error.status === 0;
      if (!noAnswer || attempt >= retries) throw error;
    }
  }
}

export const fetchSignInOptions = () => identityRequest((signal) => getJson('/api/account/sign-in-options', signInOptionsSchema, signal));

/** The signed-in user, or null when there is no live session. */
export async function fetchMe(): Promise<MeResponse | null> {
  try {
    return await identityRequest((signal) => getJson('/api/account/me', meResponseSchema, signal));
  } catch (error) {
    if (error instanceof RequestError && error.status === 401) return null;
    throw error;
  }
}

/**
 * The same as {@link fetchMe} for pages a visitor sees too (paywall, sign-in): a visitor is a 200
 * `{ me: null }` there, so a visitor's page logs no 401 (ADR 149). A disabled user is still a 401: null.
 */
export async function fetchSessionState(): Promise<MeResponse | null> {
  try {
    return (await identityRequest((signal) => getJson('/api/account/session', sessionStateResponseSchema, signal))).me;
  } catch (error) {
    if (error instanceof RequestError && error.status === 401) return null;
    throw error;
  }
}

/** Session-only persistence (product-spec §4): chosen before any sign-in starts; the session cookie then ends with the browser. */
export async function chooseSessionOnlyPersistence(): Promise<void> {
  await identityRequest((signal) => postJson(`${AUTH_BASE_PATH}/session-persistence`, { persistence: 'session' }, { signal }));
}

/** Session-only persistence is chosen before leaving for the provider, then the browser goes there. */
export async function startRedirectSignIn(provider: AuthProvider, callbackPath: string): Promise<void> {
  const answer = await identityCall(async () => {
    await chooseSessionOnlyPersistence();
    return postJson<{ url?: string }>(`${AUTH_BASE_PATH}/sign-in/social`, {
      provider,
      callbackURL: callbackPath,
      errorCallbackURL: callbackPath,
      disableRedirect: true,
    });
  });
  try {
    window.localStorage.setItem(LOCAL_KEYS.waitingForRedirectResponse, 'true');
  } catch {
    // storage disabled: the flag is only a hint
  }
  if (answer.url) window.location.assign(answer.url);
}

/** Clears the redirect-wait flag REDIRECT_WAIT_FLAG_MS after start-up (product-spec §4). */
export function clearRedirectFlagLater(): () => void {
  const timer = window.setTimeout(() => {
    try {
      window.localStorage.removeItem(LOCAL_KEYS.waitingForRedirectResponse);
    } catch {
      // nothing to clear
    }
  }, REDIRECT_WAIT_FLAG_MS);
  return () => window.clearTimeout(timer);
}

/**
 * A failed identity call as the readable code of product-spec §8 and its message (`auth/<code>`);
 * anything else unchanged.
 */
export function asIdentityError(reason: unknown): unknown {
  if (!(reason instanceof RequestError)) return reason;
  const code = identityErrorCode({ status: reason.status, code: reason.code });
  return code ? new RequestError(IDENTITY_ERROR_MESSAGES[code], `auth/${code}`, reason.status) : reason;
}

/** An identity call whose failure reads as an identity error. */
async function identityCall<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (reason) {
    throw asIdentityError(reason);
  }
}

export async function sendEmailCode(email: string): Promise<void> {
  await identityCall(async () => {
    await chooseSessionOnlyPersistence();
    await identityRequest(
      (signal) => postJson(`${AUTH_BASE_PATH}/email-otp/send-verification-otp`, { email, type: 'sign-in' }, { signal }),
      0,
    );
  });
}

/** Signs in with the code emailed by {@link sendEmailCode} and reads the session it started (null: none). */
export async function signInWithEmailCode(email: string, otp: string): Promise<MeResponse | null> {
  await identityCall(() => identityRequest((signal) => postJson(`${AUTH_BASE_PATH}/sign-in/email-otp`, { email, otp }, { signal }), 0));
  return fetchMe();
}

export async function signOut(): Promise<void> {
  await identityRequest((signal) => postJson(`${AUTH_BASE_PATH}/sign-out`, {}, { signal })).catch(() => undefined);
}

/** setTimeout's largest delay; a longer wait is taken in steps. */
const MAX_TIMER_DELAY_MS = 2 ** 31 - 1;

/**
 * Milliseconds until the next session refresh: TOKEN_REFRESH_MARGIN_MS before the expiry (taken
 * TOKEN_EXPIRY_SKEW_MS early), or, after `failures` failed refreshes in a row, 30 s doubling up to 16 min.
 * @example nextRefreshDelayMs(inOneHour, now, 0) // 3_270_000 (1 h − 5 min − 30 s)
 */
export function nextRefreshDelayMs(expiresAt: Date, now: Date, failures: number): number {
  if (failures > 0) return Math.min(REFRESH_BACKOFF_INITIAL_MS * 2 ** (failures - 1), REFRESH_BACKOFF_MAX_MS);
  const due = expiresAt.getTime() - TOKEN_EXPIRY_SKEW_MS - TOKEN_REFRESH_MARGIN_MS - now.getTime();
  return Math.max(0, due);
}

/** What one refresh told: a new end, the session is gone (401), or no answer (network, 5xx). */
export type RefreshOutcome = { kind: 'refreshed'; expiresAt: Date } | { kind: 'signed-out' } | { kind: 'failed'; error: unknown };

/** `POST /api/auth/refresh-session`: a 401 (user-token-expired, user-disabled) means signed out. */
export async function refreshSession(): Promise<RefreshOutcome> {
  try {
    const answer = await identityRequest((signal) => postJson<SessionRefreshResponse>(`${AUTH_BASE_PATH}/refresh-session`, {}, { signal }));
    return { kind: 'refreshed', expiresAt: new Date(answer.session_expires_at) };
  } catch (error) {
    if (error instanceof RequestError && error.status === 401) return { kind: 'signed-out' };
    return { kind: 'failed', error };
  }
}

export type SessionKeeperOptions = {
  /** When the current session ends (`session_expires_at` of /api/account/me). */
  expiresAt: Date;
  /** Called once when the server says the session is gone (expired or the user disabled). */
  onSignedOut: () => void;
  /** The refresh call; default {@link refreshSession}. */
  refresh?: () => Promise<RefreshOutcome>;
};

/**
 * Keeps the session alive (product-spec §4): refreshes TOKEN_REFRESH_MARGIN_MS before expiry; after
 * a failure (no answer, or an answer that did not move the end) logs 'refresh-failed' and backs off
 * 30 s doubling to 16 min; on a 401 calls `onSignedOut`. Returns a stop function.
 */
export function keepSessionAlive({ expiresAt: initialExpiresAt, onSignedOut, refresh = refreshSession }: SessionKeeperOptions): () => void {
  let failures = 0;
  let timer = 0;
  let stopped = false;
  let expiresAt = initialExpiresAt;
  let dueAt = 0;
  const wait = () => {
    const delay = Math.max(0, dueAt - Date.now());
    timer = window.setTimeout(() => void (delay > MAX_TIMER_DELAY_MS ? wait() : tick()), Math.min(delay, MAX_TIMER_DELAY_MS));
  };
  const schedule = () => {
    dueAt = Date.now() + nextRefreshDelayMs(expiresAt, new Date(), failures);
    wait();
  };
  const tick = async () => {
    const outcome = await refresh();
    if (stopped) return;
    switch (outcome.kind) {
      case 'signed-out':
        stopped = true;
        onSignedOut();
        return;
      case 'refreshed':
        if (outcome.expiresAt.getTime() > expiresAt.getTime()) {
          failures = 0;
          expiresAt = outcome.expiresAt;
          break;
        }
        failures += 1;
        console.error('refresh-failed', 'the session end did not move');
        break;
      case 'failed':
        failures += 1;
        console.error('refresh-failed', outcome.error);
        break;
      default: {
        const unknown: never = outcome;
        throw new Error(`unknown refresh outcome ${String(unknown)}`);
      }
    }
    schedule();
  };
  schedule();
  return () => {
    stopped = true;
    window.clearTimeout(timer);
  };
}
