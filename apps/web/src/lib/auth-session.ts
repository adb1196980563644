import type { MeResponse, AuthProvider, SignInOptions } from '@roots/contracts/auth';
import {
  AUTH_BASE_PATH,
  REDIRECT_WAIT_FLAG_MS,
  REFRESH_BACKOFF_INITIAL_MS,
  REFRESH_BACKOFF_MAX_MS,
  TOKEN_EXPIRY_SKEW_MS,
  TOKEN_REFRESH_MARGIN_MS,
} from '@roots/contracts/auth';
import { errorFromResponse, postJson, RequestError } from './http';
import { LOCAL_KEYS } from './session-keys';

/**
 * The browser side of sign-in (product-spec §4): redirect sign-in, email code, the session summary,
 * refresh before expiry with back-off, sign-out. The session itself is an httpOnly cookie (ADR 070).
 */

async function getJson<T>(url: string): Promise<T> {
  let response: Response;
  try {
    response = await fetch(url, { credentials: 'same-origin' });
  } catch {
    throw new RequestError('Network Error', 'NETWORK_ERROR', 0);
  }
  if (!response.ok) throw await errorFromResponse(response);
  return (await response.json()) as T;
}

export const fetchSignInOptions = () => getJson<SignInOptions>('/api/account/sign-in-options');

/** The signed-in user, or null when there is no live session. */
export async function fetchMe(): Promise<MeResponse | null> {
  try {
    return await getJson<MeResponse>('/api/account/me');
  } catch (error) {
    if (error instanceof RequestError && error.status === 401) return null;
    throw error;
  }
}

/** Session-only persistence is chosen before leaving for the provider, then the browser goes there. */
export async function startRedirectSignIn(provider: AuthProvider, callbackPath: string): Promise<void> {
  await postJson(`${AUTH_BASE_PATH}/session-persistence`, { persistence: 'session' });
  const answer = await postJson<{ url?: string }>(`${AUTH_BASE_PATH}/sign-in/social`, {
    provider,
    callbackURL: callbackPath,
    errorCallbackURL: callbackPath,
    disableRedirect: true,
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

export async function sendEmailCode(email: string): Promise<void> {
  await postJson(`${AUTH_BASE_PATH}/session-persistence`, { persistence: 'session' });
  await postJson(`${AUTH_BASE_PATH}/email-otp/send-verification-otp`, { email, type: 'sign-in' });
}

export async function verifyEmailCode(email: string, otp: string): Promise<void> {
  await postJson(`${AUTH_BASE_PATH}/sign-in/email-otp`, { email, otp });
}

export async function signOut(): Promise<void> {
  await postJson(`${AUTH_BASE_PATH}/sign-out`, {}).catch(() => undefined);
}

/**
 * Milliseconds until the next session refresh: TOKEN_REFRESH_MARGIN_MS before the (skewed) expiry,
 * or, after `failures` network failures in a row, 30 s doubling up to 16 min.
 */
export function nextRefreshDelayMs(expiresAt: Date, now: Date, failures: number): number {
  if (failures > 0) return Math.min(REFRESH_BACKOFF_INITIAL_MS * 2 ** (failures - 1), REFRESH_BACKOFF_MAX_MS);
  const due = expiresAt.getTime() - TOKEN_EXPIRY_SKEW_MS - TOKEN_REFRESH_MARGIN_MS - now.getTime();
  return Math.max(0, due);
}

/**
 * Keeps the session alive: refreshes before expiry, backs off after network failures, and calls
 * `onSignedOut` when the server says the session is gone (expired, disabled). Returns a stop function.
 */
export function keepSessionAlive(initialExpiresAt: Date, onSignedOut: () => void): () => void {
  let failures = 0;
  let timer = 0;
  let expiresAt = initialExpiresAt;
  const schedule = () => {
    timer = window.setTimeout(() => void refresh(), nextRefreshDelayMs(expiresAt, new Date(), failures));
  };
  const refresh = async () => {
    try {
      await getJson(`${AUTH_BASE_PATH}/get-session`);
      const me = await fetchMe();
      if (!me) {
        onSignedOut();
        return;
      }
      failures = 0;
      expiresAt = new Date(me.session_expires_at);
    } catch (error) {
      if (error instanceof RequestError && error.status === 401) {
        onSignedOut();
        return;
      }
      failures += 1;
      console.error('refresh-failed', error);
    }
    schedule();
  };
  schedule();
  return () => window.clearTimeout(timer);
}
