import type { SubscriptionIdResponse } from '@roots/contracts/subscriptions';
import type { ApplePayDetails } from '@roots/checkout';
import type { Attribution } from '@roots/contracts/events';
import { MESSAGES } from '@roots/contracts/messages';
import type {
  Consent,
  CreateNoUserApplePayRequest,
  CreateNoUserRequest,
  CreateSignedInApplePayRequest,
  CreateSignedInRequest,
} from '@roots/contracts/subscriptions';
import { postJson } from '../../../lib/api-client';
import { subscriptionServiceUrl } from '../../../lib/subscription-service';

/** A purchase the checkout paid for: the execution, and what the buyer and the wallet add. */
export type PurchaseInput = {
  planId: string;
  email: string;
  executionId: string;
  consent: Consent;
  attribution: Attribution;
  /** An Apple-type payment: its token and billing contact mapped to the address (product-spec §3). */
  wallet?: ApplePayDetails | undefined;
  /** The page's `vault` query parameter, passed on Apple Pay creation (product-spec §2). */
  vault?: string | undefined;
  /** The signed-in buyer (product-spec §6): the session's user id, sent as `firebase_id`. */
  signedInUserId?: string | undefined;
};

export type PurchaseCall =
  | { path: '/subs/create-no-user'; body: CreateNoUserRequest }
  | { path: '/subs/create-no-user-applepay'; body: CreateNoUserApplePayRequest }
  | { path: '/subs/create'; body: CreateSignedInRequest }
  | { path: '/subs/create-applepay'; body: CreateSignedInApplePayRequest };

/**
 * The subscription call of product-spec §7 for a purchase: a visitor uses `/subs/create-no-user`
 * (card) or `/subs/create-no-user-applepay` (with `vault`); a signed-in buyer `/subs/create` or
 * `/subs/create-applepay` with their identity attached.
 */
export function purchaseCall(input: PurchaseInput): PurchaseCall {
  const common = { plan_id: input.planId, email: input.email, consent: input.consent, attribution: input.attribution };
  const { wallet, signedInUserId } = input;
  if (wallet) {
    const applePay = { ...common, execution_id: input.executionId, token: wallet.token, address: wallet.address };
    if (signedInUserId) return { path: '/subs/create-applepay', body: { ...applePay, firebase_id: signedInUserId } };
    return {
      path: '/subs/create-no-user-applepay',
      body: { ...applePay, display_name: wallet.displayName, ...(input.vault !== undefined ? { vault: input.vault } : {}) },
    };
  }
  if (signedInUserId)
    return { path: '/subs/create', body: { ...common, firebase_id: signedInUserId, card: { execution_id: input.executionId } } };
  return { path: '/subs/create-no-user', body: { ...common, card: { execution_id: input.executionId } } };
}

/**
 * Creates the subscription the checkout's execution paid for; the server verifies the execution
 * with the gateway before creating anything, and a repeat returns the same subscription. Only an
 * answer naming the subscription counts (product-spec §3: id or error).
 */
export async function createSubscription(input: PurchaseInput): Promise<SubscriptionIdResponse> {
  const { path, body } = purchaseCall(input);
  // Typed by the contracts, checked by hand: zod stays out of the paywall's bundle.
  const answer = await postJson<Partial<SubscriptionIdResponse>>(subscriptionServiceUrl(path), body);
  if (!answer.id) throw new Error(MESSAGES.cantCreateSubscription);
  return { id: answer.id };
}
