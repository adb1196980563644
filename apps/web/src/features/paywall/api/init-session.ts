import type { InitSessionResponse } from '@roots/contracts/subscriptions';
import { postJson } from '../../../lib/api-client';
import { subscriptionServiceUrl } from '../../../lib/subscription-service';

/** POST /init/session: a gateway payment session for the plan's first charge (product-spec §7). */
export function initSession(planId: string): Promise<InitSessionResponse> {
  return postJson<InitSessionResponse>(subscriptionServiceUrl('/init/session'), { plan_id: planId });
}
