import { z } from 'zod';
import { sdkInitPayloadSchema } from './gateway';
import { subscriptionStatusSchema } from './subscriptions';

/**
 * A new card for a subscription (issue 23, ADR 143): the customer opens a card-verification checkout
 * (a zero-amount gateway session for the subscription's card holder), enters the card in the
 * checkout's own secure card form, and the server, told the execution id, reads the execution back
 * from the gateway and puts its stored instrument on the subscription. The server never sees the
 * card: only the instrument id, its last four digits and its network.
 *
 * Proof of ownership: the signed-in owner (`/api/account/subscriptions/{id}/update-card…`) or the
 * signed link of the payment-failed email (`/api/update-card/{content}…`).
 */

/** The subscription a card update is for, as its page describes it; amounts are the buyer's agreed terms. */
export const cardUpdateSubjectSchema = z.object({
  subscription_id: z.uuid(),
  plan_id: z.string(),
  plan_name: z.string(),
  status: subscriptionStatusSchema,
  /** The card renewals charge (null when none is stored). */
  card_last4: z.string().nullable(),
  card_network: z.string().nullable(),
  /** The next payment, in USD, that the card on file makes. */
  next_payment_amount: z.number(),
  currency: z.string(),
  /** When that payment is due (ISO); for a past-due subscription whose card was just updated, now. */
  next_payment_at: z.iso.datetime().nullable(),
  /** True when the subscription is past due: a card update makes the next billing pass try the payment again at once. */
  retry_now: z.boolean(),
});
export type CardUpdateSubject = z.infer<typeof cardUpdateSubjectSchema>;

/** `POST …/update-card`: the card-verification checkout to mount the card form with, and what it is for. */
export const cardUpdateCheckoutSchema = z.object({
  /** The gateway's SDK init payload of a zero-amount, card-only session for the subscription's card holder. */
  checkout: sdkInitPayloadSchema,
  subscription: cardUpdateSubjectSchema,
});
export type CardUpdateCheckout = z.infer<typeof cardUpdateCheckoutSchema>;

/** `POST …/update-card/complete`: the execution the card form reported as successful. */
export const cardUpdateCompleteRequestSchema = z.object({ execution_id: z.string().min(1).max(64) });
export type CardUpdateCompleteRequest = z.infer<typeof cardUpdateCompleteRequestSchema>;

/** The subscription with its new card; completing the same execution again answers the same. */
export const cardUpdateCompleteResponseSchema = z.object({ subscription: cardUpdateSubjectSchema });
export type CardUpdateCompleteResponse = z.infer<typeof cardUpdateCompleteResponseSchema>;

/** The signed update-card link of the payment-failed email, as the path segment after `update-card/`. */
export const updateCardLinkParamsSchema = z.object({ content: z.string().min(10).max(512) });
