import type { Attribution } from '@roots/contracts/events';
import { subscriptionIdResponseSchema, type SubscriptionIdResponse } from '@roots/contracts/subscriptions';
import { postParsed } from '../../../lib/api-client';
import { subscriptionServiceUrl } from '../../../lib/subscription-service';

/** `POST /subs/create-no-user` with `subscription_id`: a one-click add-on on the purchase's stored card (product-spec §4). */
export function buyAddOn(body: {
  plan_id: string;
  email: string;
  subscription_id: string;
  attribution: Attribution;
}): Promise<SubscriptionIdResponse> {
  return postParsed(subscriptionServiceUrl('/subs/create-no-user'), body, subscriptionIdResponseSchema);
}
