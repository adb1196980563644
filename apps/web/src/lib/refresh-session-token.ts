import type { SessionTokenResponse } from '@roots/contracts/subscriptions';
import { postJson } from './api-client';
import { subscriptionServiceUrl } from './subscription-service';

/** The latest token of each payment session this page has, so a refresh always proves the newest. */
const latestTokens = new Map<string, string>();

/**
 * The checkout's getBearerToken callback (checkout-spec §4 "Bearer token"): called when the
 * session's token expired or a call was refused, it trades the latest token for a fresh one of the
 * same payment session (POST /init/session/token), so the open paywall still pays once.
 */
export async function refreshSessionToken(session: { sessionId: string; bearerToken: string }): Promise<string> {
  const { bearerToken } = await postJson<SessionTokenResponse>(subscriptionServiceUrl('/init/session/token'), {
    bearer_token: latestTokens.get(session.sessionId) ?? session.bearerToken,
  });
  latestTokens.set(session.sessionId, bearerToken);
  return bearerToken;
}
