import { z } from 'zod';
import { ACCESS_KINDS } from './access';
import { buildDisclosure } from './disclosure';
import { attributionSchema } from './events';
import { merchantValidationResponseSchema, sdkInitPayloadSchema } from './gateway';
import { MESSAGES } from './messages';
import type { Plan } from './plans';
import { EMAIL_CODE_LENGTH } from './product-defaults';

/**
 * Wire formats of the subscription service (product-spec §7): payment session, subscription
 * creation, finalize, recovery and cancellation. Card data never reaches this service: the
 * checkout pays through the gateway and sends a reference to the execution.
 */

// ---------------------------------------------------------------------------------------------
// Subscription states (product-spec §6, issue 5)
// ---------------------------------------------------------------------------------------------

/** Subscription states; one transition function moves between them (apps/server subscription-state.ts). */
export const SUBSCRIPTION_STATUSES = ['trialing', 'active', 'past_due', 'canceled', 'expired'] as const;
export const subscriptionStatusSchema = z.enum(SUBSCRIPTION_STATUSES);
export type SubscriptionStatus = z.infer<typeof subscriptionStatusSchema>;

/**
 * The status sets, written once (issue 23) and read by the server's TypeScript, its SQL and the web
 * app. A subscription in a status with access still holds what it bought; in a renewing status it
 * will be charged again, so a cancel applies to it.
 */
export const ACCESS_STATUSES = ['trialing', 'active', 'past_due', 'canceled'] as const satisfies readonly SubscriptionStatus[];
export const RENEWING_STATUSES = ['trialing', 'active', 'past_due'] as const satisfies readonly SubscriptionStatus[];
/** Renewing on schedule: the next charge is due, no retry of a declined one (`past_due` is dunning's). */
export const ON_SCHEDULE_STATUSES = ['trialing', 'active'] as const satisfies readonly (typeof RENEWING_STATUSES)[number][];

/** Statuses in which the customer still has the subscription's access (and the scheduler has work: a renewal, a retry or the period's end). */
export function hasAccess(status: SubscriptionStatus): boolean {
  return (ACCESS_STATUSES as readonly SubscriptionStatus[]).includes(status);
}

/** Statuses that renew: a cancel request applies to them. */
export function isCancelable(status: SubscriptionStatus): boolean {
  return (RENEWING_STATUSES as readonly SubscriptionStatus[]).includes(status);
}

// What a purchase unlocks and what it gives: zod-free in ./access (the paywall reads it, ADR 081).
export {
  ACCESS_GIVES,
  ACCESS_INCLUDES,
  ACCESS_KINDS,
  FACE_ANALYSIS_ACCESS_KINDS,
  accessKindForPlan,
  coveredAccess,
  includesFaceAnalysis,
  planGives,
  type AccessKind,
} from './access';
export const accessKindSchema = z.enum(ACCESS_KINDS);

/**
 * `GET /api/entitlements`: what the caller owns now, as the purchase cookie of this browser and the
 * signed-in account prove it (issue 23): live plan ids, and every access kind they grant with what
 * those include. The paywall and the offers page read it; nothing is sold twice.
 */
export const entitlementsResponseSchema = z.object({ plans: z.array(z.string()), access: z.array(accessKindSchema) });
export type EntitlementsResponse = z.infer<typeof entitlementsResponseSchema>;

// ---------------------------------------------------------------------------------------------
// Disclosure next to the pay button
// ---------------------------------------------------------------------------------------------

/**
 * The disclosure shown next to the pay button for a plan, as the consent record stores it. The web
 * shows the same parts from {@link buildDisclosure}, so copy and record can never differ.
 */
export function consentTermsOf(plan: Plan): { terms_text: string; terms_version: string } {
  const disclosure = buildDisclosure(plan);
  return { terms_text: disclosure.text, terms_version: disclosure.version };
}

// ---------------------------------------------------------------------------------------------
// Payment session
// ---------------------------------------------------------------------------------------------

const planIdSchema = z.string().min(1).max(100);
const emailSchema = z.email().max(254);

/** `GET /init/session?plan_id=` or `POST /init/session` with this body. */
export const initSessionRequestSchema = z.object({
  plan_id: planIdSchema.optional(),
  /** Payment methods to enable, in display order; default: the gateway's. */
  payment_methods: z.array(z.string().min(1).max(64)).min(1).max(10).optional(),
});
export type InitSessionRequest = z.infer<typeof initSessionRequestSchema>;

/**
 * Answer of `/init/session`: the gateway's SDK init payload as is (what the checkout's client init
 * takes), plus the plan it was made for and the disclosure to show next to the pay button.
 */
export const initSessionResponseSchema = sdkInitPayloadSchema.extend({
  plan_id: z.string(),
  /** Amount in USD the first charge takes (trial price when the plan has one). */
  plan_amount: z.number(),
  /** Disclosure text and version to show next to the pay button; send them back as `consent`. */
  disclosure: z.object({ terms_text: z.string(), terms_version: z.string() }),
});
export type InitSessionResponse = z.infer<typeof initSessionResponseSchema>;

/**
 * `POST /init/session/token`: the checkout's getBearerToken callback trades the session's last
 * bearer token (expired or not) for a fresh one of the same payment session.
 */
export const sessionTokenRequestSchema = z.object({ bearer_token: z.string().min(1).max(4_096) });
export type SessionTokenRequest = z.infer<typeof sessionTokenRequestSchema>;
export const sessionTokenResponseSchema = z.object({ bearerToken: z.string(), expiresAt: z.iso.datetime() });
export type SessionTokenResponse = z.infer<typeof sessionTokenResponseSchema>;

// ---------------------------------------------------------------------------------------------
// Subscription creation
// ---------------------------------------------------------------------------------------------

/**
 * Reference to a payment the checkout completed at the gateway. `card` and `instrument` both use
 * it: the server fetches the execution server-to-server and trusts nothing else. Raw card fields
 * are rejected (the schema is strict).
 */
export const paymentReferenceSchema = z
  .object({
    /** Gateway execution id (`executionId` of the init session). */
    execution_id: z.string().min(1).max(64),
    /** Stored instrument id the execution used (informative; the execution is authoritative). */
    instrument_id: z.string().min(1).max(64).optional(),
  })
  .strict();
export type PaymentReference = z.infer<typeof paymentReferenceSchema>;

/** The disclosure the buyer saw next to the pay button (exact text and version). */
export const consentSchema = z.object({
  terms_text: z.string().min(1).max(4000),
  terms_version: z.string().min(1).max(64),
});
export type Consent = z.infer<typeof consentSchema>;

/** Apple billing contact mapped to an address (product-spec §3). */
export const addressSchema = z
  .object({
    first_name: z.string().max(100),
    last_name: z.string().max(100),
    country: z.string().max(100),
    state: z.string().max(100),
    zip: z.string().max(32),
    city: z.string().max(100),
    address: z.string().max(200),
    address2: z.string().max(200),
    phone: z.string().max(40),
  })
  .partial();

const attributionField = attributionSchema.optional();

/** `POST /subs/create-no-user` paying with a card or a stored (vault) instrument. */
export const createNoUserPurchaseSchema = z
  .object({
    plan_id: planIdSchema,
    email: emailSchema,
    attribution: attributionField,
    address: addressSchema.optional(),
    card: paymentReferenceSchema.optional(),
    instrument: paymentReferenceSchema.optional(),
    consent: consentSchema,
  })
  .refine((body) => Boolean(body.card) !== Boolean(body.instrument), { message: 'exactly one of card or instrument is required' });

/** `POST /subs/create-no-user` for a one-click add-on offer on an existing subscription. */
export const createNoUserAddOnSchema = z.object({
  plan_id: planIdSchema,
  email: emailSchema,
  subscription_id: z.uuid(),
  attribution: attributionField,
});

/** Body of `POST /subs/create-no-user`: an add-on when `subscription_id` is present. */
export const createNoUserRequestSchema = z.union([createNoUserAddOnSchema.strict(), createNoUserPurchaseSchema]);
export type CreateNoUserRequest = z.infer<typeof createNoUserRequestSchema>;

/** `POST /subs/create-no-user-applepay`: the wallet token is opaque; the execution is verified. */
export const createNoUserApplePayRequestSchema = z.object({
  plan_id: planIdSchema,
  email: emailSchema,
  execution_id: z.string().min(1).max(64),
  token: z.unknown().optional(),
  attribution: attributionField,
  address: addressSchema.optional(),
  display_name: z.string().max(200).optional(),
  vault: z.union([z.string().max(200), z.boolean()]).optional(),
  consent: consentSchema,
});
export type CreateNoUserApplePayRequest = z.infer<typeof createNoUserApplePayRequestSchema>;

/** Identity of a signed-in buyer (product-spec §6): an identity token id or an Apple token. */
const identityFields = {
  firebase_id: z.string().min(1).max(128).optional(),
  apple_token: z.string().min(1).max(4096).optional(),
};

/** `POST /subs/create` (signed in). */
export const createSignedInRequestSchema = z.object({
  plan_id: planIdSchema,
  email: emailSchema,
  ...identityFields,
  card: paymentReferenceSchema,
  attribution: attributionField,
  consent: consentSchema,
});
export type CreateSignedInRequest = z.infer<typeof createSignedInRequestSchema>;

/** `POST /subs/create-applepay` (signed in). */
export const createSignedInApplePayRequestSchema = z.object({
  plan_id: planIdSchema,
  email: emailSchema,
  firebase_id: identityFields.firebase_id,
  execution_id: z.string().min(1).max(64),
  token: z.unknown().optional(),
  attribution: attributionField,
  address: addressSchema.optional(),
  consent: consentSchema,
});
export type CreateSignedInApplePayRequest = z.infer<typeof createSignedInApplePayRequestSchema>;

/** `POST /subs/finalize`: links a subscription to the signed-in user. */
export const finalizeRequestSchema = z.object({
  subscription_id: z.uuid(),
  email: emailSchema,
  ...identityFields,
  attribution: attributionField,
});
export type FinalizeRequest = z.infer<typeof finalizeRequestSchema>;

/** Subscription create / finalize answer (product-spec §3): the id. Errors answer `{ error, code }`. */
export const subscriptionIdResponseSchema = z.object({ id: z.uuid() });
export type SubscriptionIdResponse = z.infer<typeof subscriptionIdResponseSchema>;

/**
 * `/subs/finalize` answer: the id and, when the purchase claimed was a second live plan of its now
 * proven owner (ADR 196), that it was refunded, naming the plan they keep.
 */
export const finalizeResponseSchema = subscriptionIdResponseSchema.extend({
  refunded_duplicate: z.object({ plan_name: z.string(), message: z.string() }).optional(),
});
export type FinalizeResponse = z.infer<typeof finalizeResponseSchema>;

/**
 * Where a shopper's payment stands for its purchase (the pending page's "check again", issue 24):
 * `pending` (the bank has not answered), `paid` (the subscription exists: `id`), `failed` (declined,
 * nothing charged), `expired` (the bank's check was never finished; nothing charged), `refunded`
 * (it went through but bought nothing, because the plan was paid another way; it is refunded).
 */
export const PAYMENT_STATES = ['pending', 'paid', 'failed', 'expired', 'refunded'] as const;
export type PaymentState = (typeof PAYMENT_STATES)[number];

/** `POST /subs/payment-status`: the execution a purchase was started with, and the buyer's email it was started for. */
export const paymentStatusRequestSchema = z.object({ execution_id: z.string().min(1).max(64), email: emailSchema });
export type PaymentStatusRequest = z.infer<typeof paymentStatusRequestSchema>;

/** Its answer, always 200 for a known purchase: the state, and the subscription id once `paid`. */
export const paymentStatusResponseSchema = z.object({ status: z.enum(PAYMENT_STATES), id: z.uuid().optional() });
export type PaymentStatusResponse = z.infer<typeof paymentStatusResponseSchema>;

/** A period length as agreed at purchase. */
export const agreedPeriodSchema = z.object({ unit: z.enum(['day', 'month']), count: z.number().int().positive() });

/**
 * What the buyer agreed to at purchase (issue 35), in USD: the account shows these, never the
 * catalog's current price. `trial` is a trial that ends sooner than a period (the weekly plan's
 * 3 days), not a first period at an introductory price (the 3-month plan's).
 */
export const agreedSummarySchema = z.object({
  name: z.string(),
  first_amount: z.number(),
  /** What each renewal costs; null for a purchase that never renews. */
  renewal_amount: z.number().nullable(),
  first_period: agreedPeriodSchema.nullable(),
  renewal_period: agreedPeriodSchema.nullable(),
  trial: z.boolean(),
});
export type AgreedSummary = z.infer<typeof agreedSummarySchema>;

/**
 * A plan change waiting for the end of the paid period (issue 35, ADR 196): from `effective_at` the
 * subscription renews as `name`, `amount` (USD) every `period`; no proration.
 */
export const planChangeSchema = z.object({
  plan_id: z.string(),
  name: z.string(),
  amount: z.number(),
  period: agreedPeriodSchema,
  effective_at: z.iso.datetime(),
});
export type PlanChange = z.infer<typeof planChangeSchema>;

/** A subscription as the owner may see it (no email, no payment details beyond last 4). */
export const subscriptionSummarySchema = z.object({
  id: z.uuid(),
  plan_id: z.string(),
  status: subscriptionStatusSchema,
  /** End of the paid period (ISO), null for lifetime purchases. */
  current_period_end: z.iso.datetime().nullable(),
  /** Next charge date (ISO), null when nothing more will be charged. */
  next_charge_at: z.iso.datetime().nullable(),
  next_charge_amount: z.number().nullable(),
  card_last4: z.string().nullable(),
  access: z.array(accessKindSchema),
  /** True for a plan that renews (it can be canceled); false for a one-time pack (issue 23: nothing to cancel). */
  renews: z.boolean(),
  /**
   * The money-back guarantee while it lasts (issue 23): the latest payment, in USD, that a refund
   * returns whole, and the last moment (ISO) it can be asked for; null when it covers nothing now.
   */
  refund: z.object({ amount: z.number(), until: z.iso.datetime() }).nullable(),
  /** The terms agreed at purchase; null only for an id no record or catalog knows. */
  agreed: agreedSummarySchema.nullable(),
  /** The owner's plan change waiting for the period's end (the account's list only; ADR 196). */
  plan_change: planChangeSchema.nullable().optional(),
});
export type SubscriptionSummary = z.infer<typeof subscriptionSummarySchema>;

/** `POST /rec/subscriptions/{email-or-id}` answer. */
/** `POST /rec/subscriptions/{id}` from the buyer's browser or the signed-in owner (ADR 085). */
export const recoverSubscriptionsResponseSchema = z.object({ subscriptions: z.array(subscriptionSummarySchema) });
/**
 * `POST /rec/subscriptions/{email}`: the same answer whether or not the email bought anything; the
 * purchases, with their one-click cancel links, go to that address (ADR 085).
 */
export const recoverByEmailResponseSchema = z.object({ message: z.string() });

// ---------------------------------------------------------------------------------------------
// Cancellation (product-spec §4, §7)
// ---------------------------------------------------------------------------------------------

/** `POST /api/cancel-request`: without `code` sends a code by email; with it, cancels. */
export const cancelRequestSchema = z.object({
  email: emailSchema,
  code: z
    .string()
    .regex(new RegExp(`^\\d{${EMAIL_CODE_LENGTH}}$`), `must be ${EMAIL_CODE_LENGTH} digits`)
    .optional(),
  host: z.string().max(255).optional(),
  emailing: z.boolean().optional(),
  inAppUnsubscribe: z.boolean().optional(),
});
export type CancelRequest = z.infer<typeof cancelRequestSchema>;

/** `POST /api/cancel`: cancel one subscription by id (signed-in area). */
export const cancelByIdRequestSchema = z.object({ id: z.uuid(), refund: z.boolean().optional() });

/** Outcome messages of the cancel flow (product-spec §4). */
export const cancelOutcomeSchema = z.object({
  message: z.enum([MESSAGES.checkYourEmail, MESSAGES.subscriptionCanceled]),
  /** Amount refunded in USD under the money-back guarantee, when a refund was asked and granted. */
  refunded: z.number().optional(),
});
export type CancelOutcome = z.infer<typeof cancelOutcomeSchema>;

/** `GET /api/cancel-subscription/{link}/details`: what an emailed cancel link names, for its confirmation page. */
export const cancelLinkDetailsSchema = z.object({ plan_name: z.string(), subscription: subscriptionSummarySchema });
export type CancelLinkDetails = z.infer<typeof cancelLinkDetailsSchema>;

/** `POST /api/apple-pay/validate-merchant` (product-spec §7): Apple's validation URL and the page's domain. */
export const applePayValidateMerchantRequestSchema = z.object({
  validationURL: z.url().max(2000),
  domain: z.string().min(1).max(255),
});
/** Answer: the merchant session object under `data` (the SDK reads `response.data`). */
export const applePayValidateMerchantResponseSchema = merchantValidationResponseSchema;

/** Generic acknowledgement. */
export const okResponseSchema = z.object({ ok: z.literal(true) });
