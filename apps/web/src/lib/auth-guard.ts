import type { MeResponse } from '@roots/contracts/auth';
import { useCallback, useEffect, useState } from 'react';
import { useNavigate } from 'react-router';
import { fetchMe, keepSessionAlive, nextRefreshDelayMs, signOut } from './auth-session';
import { errorMessage, RequestError } from './api-client';
import { productPath, ROUTE_PATHS } from './paths';
import { usePublicConfig } from './public-config-context';

/** Signs out and goes to sign-in: what the signed-in area does once the server says the session is gone. */
function useSignOutToSignIn(): () => Promise<void> {
  const { slug } = usePublicConfig();
  const navigate = useNavigate();
  return useCallback(async () => {
    await signOut();
    // The query goes along: a vSubscriptionId in it is finalized once the user has signed in.
    await navigate(`${productPath(slug, ROUTE_PATHS.signIn)}${window.location.search}`);
  }, [navigate, slug]);
}

/** True for an answer that means the session is gone (401: user-token-expired or user-disabled). */
function isSignedOutError(error: unknown): boolean {
  return error instanceof RequestError && error.status === 401;
}

/**
 * What a signed-in screen does with a failed request: the server's 401 (session ended, user
 * disabled) signs out to sign-in; any other failure is passed to `show` as the message to display.
 * `show` should be stable (a state setter); so is the returned function.
 */
export function useRequestFailure(show: (message: string) => void): (reason: unknown) => void {
  const toSignIn = useSignOutToSignIn();
  return useCallback(
    (reason: unknown) => {
      if (isSignedOutError(reason)) void toSignIn();
      else show(errorMessage(reason));
    },
    [toSignIn, show],
  );
}

/**
 * The signed-in area's guard: reads the session once; a visitor (or a user without a purchase) is
 * signed out and sent to sign-in; while the screen is open the session is refreshed before it ends
 * (product-spec §4). A failed read (offline, 5xx, a navigation that aborted it) signs nobody out: it is
 * retried with the refresh back-off.
 */
export function useSignedIn(): MeResponse | null {
  const toSignIn = useSignOutToSignIn();
  const [me, setMe] = useState<MeResponse | null>(null);
  const { slug } = usePublicConfig();
  const navigate = useNavigate();
  useEffect(() => {
    // vSubscriptionId on the signed-in area (product-spec §2): sign-in finalizes it for whoever is
    // (or signs) in, then comes back; the session is kept.
    if (new URLSearchParams(window.location.search).has('vSubscriptionId')) {
      void navigate(`${productPath(slug, ROUTE_PATHS.signIn)}${window.location.search}`, { replace: true });
      return;
    }
    let stopKeeping: (() => void) | undefined;
    let retryTimer = 0;
    let failures = 0;
    let active = true;
    const signedOut = () => {
      if (active) void toSignIn();
    };
    const load = () =>
      void fetchMe().then(
        (answer) => {
          if (!active) return;
          if (!answer || !answer.has_purchase) {
            signedOut();
            return;
          }
          setMe(answer);
          stopKeeping = keepSessionAlive({ expiresAt: new Date(answer.session_expires_at), onSignedOut: signedOut });
        },
        (error: unknown) => {
          if (!active) return;
          failures += 1;
          console.error('refresh-failed', error);
          retryTimer = window.setTimeout(load, nextRefreshDelayMs(new Date(), new Date(), failures));
        },
      );
    load();
    return () => {
      active = false;
      window.clearTimeout(retryTimer);
      stopKeeping?.();
    };
  }, [toSignIn, navigate, slug]);
  return me;
}
