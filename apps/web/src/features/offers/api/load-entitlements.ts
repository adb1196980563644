import { entitlementsResponseSchema, type EntitlementsResponse } from '@roots/contracts/subscriptions';
import { getJson } from '../../../lib/api-client';
import { subscriptionServiceUrl } from '../../../lib/subscription-service';

/** `GET /api/entitlements`: what this browser and account own (issue 23); the offers leave it out. */
export function loadEntitlements(signal: AbortSignal): Promise<EntitlementsResponse> {
  return getJson(subscriptionServiceUrl('/api/entitlements'), entitlementsResponseSchema, signal);
}
