import { accessRecoveryResponseSchema, type AccessRecoveryResponse } from '@roots/contracts/account';
import { postParsed } from '../../../lib/api-client';
import { chooseSessionOnlyPersistence } from '../../../lib/auth-session';

/**
 * `POST /api/account/access-recovery`: the sign-in it may lead to is session-only, like every
 * sign-in (product-spec §4), so the persistence is chosen first.
 * @throws RequestError with the server's message (rate limit, validation, network).
 */
export async function requestAccessRecovery(email: string): Promise<AccessRecoveryResponse> {
  await chooseSessionOnlyPersistence();
  return postParsed('/api/account/access-recovery', { email }, accessRecoveryResponseSchema);
}
