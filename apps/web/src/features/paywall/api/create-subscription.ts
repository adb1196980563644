import type { Attribution } from '@roots/contracts/events';
import type { Consent } from '@roots/contracts/subscriptions';
import { postJson } from '../../../lib/api-client';
import { subscriptionServiceUrl } from '../../../lib/subscription-service';

/**
 * POST /subs/create-no-user with the execution the checkout completed; the server verifies it
 * with the gateway before creating anything, and a repeat returns the same subscription.
 */
export function createSubscription(body: {
  planId: string;
  email: string;
  executionId: string;
  consent: Consent;
  attribution: Attribution;
}) {
  return postJson<{ id: string }>(subscriptionServiceUrl('/subs/create-no-user'), {
    plan_id: body.planId,
    email: body.email,
    card: { execution_id: body.executionId },
    consent: body.consent,
    attribution: body.attribution,
  });
}
