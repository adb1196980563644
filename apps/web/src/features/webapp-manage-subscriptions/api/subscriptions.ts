import {
  cancelMineResponseSchema,
  mySubscriptionsResponseSchema,
  planChangeCanceledSchema,
  planChangeResponseSchema,
} from '@roots/contracts/account';
import type { CancelOutcome, PlanChange, SubscriptionSummary } from '@roots/contracts/subscriptions';
import type { CardUpdateApi } from '../../../components/card-update/card-update-form';
import { getJson, postParsed, sendParsed } from '../../../lib/api-client';

/** `GET /api/account/subscriptions`: the signed-in user's subscriptions. */
export async function loadSubscriptions(signal?: AbortSignal): Promise<SubscriptionSummary[]> {
  return (await getJson('/api/account/subscriptions', mySubscriptionsResponseSchema, signal)).subscriptions;
}

/** `POST /api/account/subscriptions/{id}/cancel`; `refund` asks the money-back guarantee's refund with it. */
export function cancelSubscription(id: string, refund: boolean): Promise<CancelOutcome> {
  return postParsed(`/api/account/subscriptions/${id}/cancel`, { refund }, cancelMineResponseSchema);
}

// The card-update schemas load with the card form, only when a customer asks to update a card.
const loadCardUpdateSchemas = () => import('@roots/contracts/card-update');

/** `POST /api/account/subscriptions/{id}/update-card` and its `/complete` (ADR 143): the session proves ownership. */
export function updateCardOf(subscriptionId: string, onSaved: () => void): CardUpdateApi {
  const base = `/api/account/subscriptions/${subscriptionId}/update-card`;
  return {
    open: async (signal) => postParsed(base, {}, (await loadCardUpdateSchemas()).cardUpdateCheckoutSchema, signal),
    complete: async (executionId) => {
      const answer = await postParsed(
        `${base}/complete`,
        { execution_id: executionId },
        (await loadCardUpdateSchemas()).cardUpdateCompleteResponseSchema,
      );
      onSaved();
      return answer;
    },
  };
}

/** `POST /api/account/subscriptions/{id}/plan-change` (ADR 196): the switch at the period's end. */
export async function changePlan(id: string, planId: string): Promise<PlanChange> {
  return (await postParsed(`/api/account/subscriptions/${id}/plan-change`, { plan_id: planId }, planChangeResponseSchema)).plan_change;
}

/** `DELETE /api/account/subscriptions/{id}/plan-change`: the owner keeps their plan. */
export async function keepPlan(id: string): Promise<boolean> {
  return (await sendParsed('DELETE', `/api/account/subscriptions/${id}/plan-change`, undefined, planChangeCanceledSchema)).canceled;
}
