import type { PaymentStatusResponse } from '@roots/contracts/subscriptions';
import { postJson } from '../../../lib/api-client';
import { subscriptionServiceUrl } from '../../../lib/subscription-service';

/**
 * Where the payment of a purchase already asked for stands (`POST /subs/payment-status`, issue 24):
 * pending, paid (with the subscription id), failed, expired or refunded. The server answers it
 * whatever the state; only an unknown purchase or an outage is an error.
 */
export function paymentStatus(input: { executionId: string; email: string }): Promise<PaymentStatusResponse> {
  // Typed by the contracts, not parsed: zod stays out of the paywall's bundle.
  return postJson<PaymentStatusResponse>(subscriptionServiceUrl('/subs/payment-status'), {
    execution_id: input.executionId,
    email: input.email,
  });
}
