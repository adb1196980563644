import type { MeResponse } from '@roots/contracts/auth';
import { useEffect, useState } from 'react';
import { useNavigate } from 'react-router';
import { fetchMe, keepSessionAlive, signOut } from './auth-session';
import { productPath, ROUTE_PATHS } from './paths';
import { usePublicConfig } from './public-config-context';

/**
 * The signed-in area's guard: reads the session once, sends a visitor (or a user without a
 * purchase) to sign-in, and keeps the session refreshed while the screen is open.
 */
export function useSignedIn(): MeResponse | null {
  const { slug } = usePublicConfig();
  const navigate = useNavigate();
  const [me, setMe] = useState<MeResponse | null>(null);
  useEffect(() => {
    let stop: (() => void) | undefined;
    let active = true;
    const toSignIn = () => void signOut().then(() => navigate(productPath(slug, ROUTE_PATHS.signIn)));
    void fetchMe().then((answer) => {
      if (!active) return;
      if (!answer || !answer.has_purchase) {
        toSignIn();
        return;
      }
      setMe(answer);
      stop = keepSessionAlive(new Date(answer.session_expires_at), toSignIn);
    }, toSignIn);
    return () => {
      active = false;
      stop?.();
    };
  }, [navigate, slug]);
  return me;
}
