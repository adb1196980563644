import type { InitSessionResponse } from '@roots/contracts/subscriptions';
import { postJson } from '../../../lib/api-client';
import { subscriptionServiceUrl } from '../../../lib/subscription-service';

/**
 * POST /init/session: a gateway payment session for the plan's first charge (product-spec §7).
 * `email`, the one the funnel collected, is kept masked by the server so a declined payment's record
 * says whose it was (ADR 154); it never becomes the session's card holder.
 */
export function initSession(planId: string, email?: string): Promise<InitSessionResponse> {
  return postJson<InitSessionResponse>(subscriptionServiceUrl('/init/session'), { plan_id: planId, ...(email ? { email } : {}) });
}
