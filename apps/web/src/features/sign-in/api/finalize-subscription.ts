import { subscriptionIdResponseSchema, type FinalizeRequest, type SubscriptionIdResponse } from '@roots/contracts/subscriptions';
import { postParsed } from '../../../lib/api-client';

/** `POST /subs/finalize` (product-spec §4, §7): links the purchase to the signed-in account; only an answer naming it counts. */
export function finalizeSubscription(body: FinalizeRequest): Promise<SubscriptionIdResponse> {
  return postParsed('/subs/finalize', body, subscriptionIdResponseSchema);
}
