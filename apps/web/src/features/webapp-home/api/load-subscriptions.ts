import { mySubscriptionsResponseSchema } from '@roots/contracts/account';
import type { SubscriptionSummary } from '@roots/contracts/subscriptions';
import { getJson } from '../../../lib/api-client';

/** `GET /api/account/subscriptions`: the signed-in user's subscriptions (the past-due banner reads their status). */
export async function loadSubscriptions(signal?: AbortSignal): Promise<SubscriptionSummary[]> {
  return (await getJson('/api/account/subscriptions', mySubscriptionsResponseSchema, signal)).subscriptions;
}
