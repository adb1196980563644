import { z } from 'zod';
import { emailFormSchema } from './forms';
import { MESSAGES } from './messages';
import { cancelOutcomeSchema, planChangeSchema, subscriptionSummarySchema } from './subscriptions';

/** The signed-in area's own endpoints under `/api/account` (product-spec §2, §3). */

/** Profile (product-spec §3): name, birth date (YYYY-MM-DD), birth time (HH:MM, 24 h). */
export const profileSchema = z.object({
  name: z.string().trim().min(1, { error: MESSAGES.fieldRequired }).max(80, { error: MESSAGES.maxLength }),
  birth_date: z.iso.date({ error: MESSAGES.fieldRequired }),
  birth_time: z.iso.time({ precision: -1, error: MESSAGES.fieldRequired }),
});
export type Profile = z.infer<typeof profileSchema>;

/** `GET /api/account/profile`: null fields until the first update. */
export const profileResponseSchema = z.object({
  name: z.string().nullable(),
  birth_date: z.string().nullable(),
  birth_time: z.string().nullable(),
});
export type ProfileResponse = z.infer<typeof profileResponseSchema>;

/** `GET /api/account/subscriptions`: the signed-in user's own subscriptions. */
export const mySubscriptionsResponseSchema = z.object({ subscriptions: z.array(subscriptionSummarySchema) });
export type MySubscriptionsResponse = z.infer<typeof mySubscriptionsResponseSchema>;

/** `POST /api/account/subscriptions/{id}/cancel` answer. */
export const cancelMineResponseSchema = cancelOutcomeSchema;

/**
 * `POST /api/account/subscriptions/{id}/cancel` body: `refund` asks for the money-back guarantee's
 * refund with the cancel (for a one-time pack, the refund alone ends it).
 */
export const cancelMineRequestSchema = z.object({ refund: z.boolean().optional() }).nullish();

/** `DELETE /api/account` answer: everything of the user is gone and the session ended. */
export const deleteAccountResponseSchema = z.object({ deleted: z.literal(true) });

/**
 * `POST /api/account/access-recovery` (product-spec §2 access recovery): a customer who cannot get
 * in gives the email they paid with (ADR 072).
 */
export const accessRecoveryRequestSchema = emailFormSchema;
export type AccessRecoveryRequest = z.infer<typeof accessRecoveryRequestSchema>;

/**
 * One answer for every email (issue 22: the answer and its timing told whether an address had a
 * purchase). What happens is told by email only: a sign-in code when signing in with that email
 * reaches a purchase; which way to sign in when the purchase is in an account that signs in another
 * way; nothing when nothing was bought with it.
 */
export const accessRecoveryResponseSchema = z.object({ outcome: z.literal('sent') });
export type AccessRecoveryResponse = z.infer<typeof accessRecoveryResponseSchema>;

/** `POST /api/account/subscriptions/{id}/plan-change`: the recurring plan to switch to at period end (ADR 196). */
export const planChangeRequestSchema = z.object({ plan_id: z.string().min(1).max(100) });
export const planChangeResponseSchema = z.object({ plan_change: planChangeSchema });
/** `DELETE /api/account/subscriptions/{id}/plan-change`: the owner keeps their plan. */
export const planChangeCanceledSchema = z.object({ canceled: z.boolean() });
