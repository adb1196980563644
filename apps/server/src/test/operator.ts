import type { OperatorRole, TotpEnrollment } from '@roots/contracts/admin';
import type { RootsApp } from '../app';
import { signInWithEmailCode } from './sign-in';

export type SignedInOperator = { email: string; cookie: string; secret: string };

/** The authenticator code of `secret` at the app's clock (`offsetSteps` 30-second steps later). */
export function totpCode(app: RootsApp, secret: string, email: string, offsetSteps = 0): string {
  return app.roots.operatorAccounts.totp(secret, email).generate({
    timestamp: app.roots.clock.now().getTime() + offsetSteps * 30_000,
  });
}

/**
 * Adds an operator with `role` (as `operator:add` does), signs them in by email code and sets up
 * their authenticator through the console's endpoints, as the console's enrollment screen does:
 * the returned cookie is a session that passed the second factor.
 */
export async function signInAsOperator(
  app: RootsApp,
  email: string,
  role: OperatorRole,
  origin = 'http://127.0.0.1:3000',
): Promise<SignedInOperator> {
  await app.roots.operatorAccounts.add({ email: 'test' }, email, role);
  const cookie = await signInWithEmailCode(app, email, origin);
  const enrolled = await app.inject({ method: 'POST', url: '/api/admin/second-factor/enroll', headers: { cookie, origin } });
  if (enrolled.statusCode !== 200) throw new Error(`enroll: ${enrolled.statusCode} ${enrolled.body}`);
  const { secret } = enrolled.json<TotpEnrollment>();
  const verified = await app.inject({
    method: 'POST',
    url: '/api/admin/second-factor/verify',
    headers: { cookie, origin },
    payload: { code: totpCode(app, secret, email) },
  });
  if (verified.statusCode !== 200) throw new Error(`verify: ${verified.statusCode} ${verified.body}`);
  return { email, cookie, secret };
}

/**
 * Requests as `operator` (JSON answers, 200 expected). A test that moves the clock past the
 * operator session's 12 hours gets a 401: the operator signs in again, email code then
 * authenticator, and the request is sent once more.
 */
export function operatorRequests(app: RootsApp, operator: SignedInOperator, origin = 'http://127.0.0.1:3000') {
  let cookie = operator.cookie;
  return async <T>(path: string, payload?: object): Promise<T> => {
    const send = () =>
      app.inject({ method: payload ? 'POST' : 'GET', url: path, headers: { cookie, origin }, ...(payload ? { payload } : {}) });
    let answer = await send();
    if (answer.statusCode === 401) {
      cookie = await signInWithEmailCode(app, operator.email, origin);
      await app.inject({
        method: 'POST',
        url: '/api/admin/second-factor/verify',
        headers: { cookie, origin },
        payload: { code: totpCode(app, operator.secret, operator.email) },
      });
      answer = await send();
    }
    if (answer.statusCode !== 200) throw new Error(`${path}: ${answer.statusCode} ${answer.body}`);
    return answer.json<T>();
  };
}
