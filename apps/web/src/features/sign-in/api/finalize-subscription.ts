import { finalizeResponseSchema, type FinalizeRequest, type FinalizeResponse } from '@roots/contracts/subscriptions';
import { postParsed } from '../../../lib/api-client';

/**
 * `POST /subs/finalize` (product-spec §4, §7): links the purchase to the signed-in account; only an
 * answer naming it counts. `refunded_duplicate`: the purchase was a second plan beside the one the
 * now proven owner has, refunded (ADR 196).
 */
export function finalizeSubscription(body: FinalizeRequest): Promise<FinalizeResponse> {
  return postParsed('/subs/finalize', body, finalizeResponseSchema);
}
