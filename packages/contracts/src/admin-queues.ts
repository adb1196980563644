import { z } from 'zod';
import { dateRangeQuerySchema } from './admin';

/**
 * The operator's work queues (issue 25): upcoming renewals, past due with the retry schedule,
 * declined first payments, unclaimed payments, disputes, received webhooks; the search, a customer's
 * timeline and the per-plan table. Every endpoint is behind the operator guard of `/api/admin/*`.
 */

/** Longest page a queue or the search answers. */
export const ADMIN_PAGE_SIZE_MAX = 200;
/** Furthest ahead the upcoming-renewals queue looks, in days. */
export const UPCOMING_RENEWALS_MAX_DAYS = 90;
/** Shortest search text: fewer characters match too much to be useful. */
export const ADMIN_SEARCH_MIN_CHARS = 3;

const pageQuery = {
  page: z.coerce.number().int().min(1).default(1),
  page_size: z.coerce.number().int().min(1).max(ADMIN_PAGE_SIZE_MAX).default(50),
};
export const pageQuerySchema = z.object(pageQuery);
export type PageQuery = z.infer<typeof pageQuerySchema>;

const pageInfo = { page: z.number().int(), page_size: z.number().int(), total: z.number().int() };
const iso = z.iso.datetime();

/** `GET /api/admin/queues/renewals?days=7`: live subscriptions whose next charge falls within `days`. */
export const upcomingRenewalsQuerySchema = z.object({
  days: z.coerce.number().int().min(1).max(UPCOMING_RENEWALS_MAX_DAYS).default(7),
  ...pageQuery,
});
export type UpcomingRenewalsQuery = z.infer<typeof upcomingRenewalsQuerySchema>;

export const upcomingRenewalSchema = z.object({
  subscription_id: z.string(),
  email: z.string(),
  plan_id: z.string(),
  plan_name: z.string(),
  status: z.string(),
  /** The renewal price the customer agreed to at purchase (the catalog's for older purchases). */
  amount_minor: z.number().int().nullable(),
  currency: z.string(),
  due_at: iso,
});
export const upcomingRenewalsSchema = z.object({ items: z.array(upcomingRenewalSchema), ...pageInfo });
export type UpcomingRenewals = z.infer<typeof upcomingRenewalsSchema>;

/** `GET /api/admin/queues/past-due`: soft-declined renewals in dunning, with the retries still to come. */
export const pastDueSchema = z.object({
  subscription_id: z.string(),
  email: z.string(),
  plan_id: z.string(),
  plan_name: z.string(),
  amount_minor: z.number().int().nullable(),
  currency: z.string(),
  /** Retries already made (declined) in this dunning run, out of `retries_total`. */
  retries_done: z.number().int(),
  retries_total: z.number().int(),
  /** When the next retry is due, then each later one should that decline too (billing's schedule). */
  retry_schedule: z.array(iso),
  last_decline_code: z.string().nullable(),
  last_declined_at: iso.nullable(),
});
export const pastDueListSchema = z.object({ items: z.array(pastDueSchema), ...pageInfo });
export type PastDueList = z.infer<typeof pastDueListSchema>;

/** `GET /api/admin/queues/failed-payments`: declined first payments at the checkout, newest first. */
export const failedFirstPaymentSchema = z.object({
  execution_id: z.string(),
  plan_id: z.string().nullable(),
  plan_name: z.string().nullable(),
  /** The email the checkout named, masked (`j***@example.com#1f2e3d4c`); null when it named none. */
  masked_email: z.string().nullable(),
  amount_minor: z.number().int(),
  currency: z.string(),
  decline_code: z.string(),
  decline_reason: z.string(),
  card_network: z.string().nullable(),
  card_last4: z.string().nullable(),
  failed_at: iso,
  source: z.enum(['webhook', 'sweep']),
});
export const failedFirstPaymentsSchema = z.object({ items: z.array(failedFirstPaymentSchema), ...pageInfo });
export type FailedFirstPayments = z.infer<typeof failedFirstPaymentsSchema>;

/** What the payment sweep did with a payment no purchase claimed (ADR 127). */
export const UNCLAIMED_PAYMENT_STATUSES = [
  'waiting',
  'completed',
  'subscribed',
  'refunding',
  'refunded',
  'refund_failed',
  'closed',
] as const;

/** `GET /api/admin/queues/unclaimed`: payments the sweep found without a purchase, and what it did. */
export const unclaimedPaymentSchema = z.object({
  execution_id: z.string(),
  plan_id: z.string().nullable(),
  plan_name: z.string().nullable(),
  amount_minor: z.number().int(),
  currency: z.string(),
  paid_at: iso,
  status: z.enum(UNCLAIMED_PAYMENT_STATUSES),
  first_seen_at: iso,
  updated_at: iso,
});
export const unclaimedPaymentsSchema = z.object({ items: z.array(unclaimedPaymentSchema), ...pageInfo });
export type UnclaimedPayments = z.infer<typeof unclaimedPaymentsSchema>;

/** `GET /api/admin/queues/disputes`: disputes (chargebacks) the gateway announced, newest first (ADR 158). */
export const disputeQueueItemSchema = z.object({
  dispute_id: z.string(),
  execution_id: z.string(),
  /** The purchase whose charge is disputed; null (and no email or plan) when no charge of ours has the execution. */
  subscription_id: z.string().nullable(),
  email: z.string().nullable(),
  plan_id: z.string().nullable(),
  plan_name: z.string().nullable(),
  amount_minor: z.number().int(),
  currency: z.string(),
  /** The gateway's words: `fraudulent`, … */
  reason: z.string(),
  /** `needs_response` until evidence is sent, then `under_review`, `won` or `lost`. */
  status: z.string(),
  /** The last moment to answer with evidence. */
  evidence_due_by: iso,
  opened_at: iso,
});
export const disputeQueueSchema = z.object({ items: z.array(disputeQueueItemSchema), ...pageInfo });
export type DisputeQueue = z.infer<typeof disputeQueueSchema>;

/** `GET /api/admin/queues/webhooks`: gateway webhooks received (signature valid), newest first. */
export const webhookEventSchema = z.object({
  event_id: z.string(),
  type: z.string(),
  execution_id: z.string().nullable(),
  /** What the product did with it: the purchase's outcome, `declined-first-payment`, or `dispute-recorded` / `dispute-known`. */
  outcome: z.string(),
  deliveries: z.number().int(),
  first_received_at: iso,
  last_received_at: iso,
});
export const webhookEventsSchema = z.object({ items: z.array(webhookEventSchema), ...pageInfo });
export type WebhookEvents = z.infer<typeof webhookEventsSchema>;

// ----- search ----------------------------------------------------------------------------------

/** `GET /api/admin/search?q=`: part of an email, an id prefix, a gateway execution id or a card's last four. */
export const adminSearchQuerySchema = z.object({ q: z.string().trim().min(ADMIN_SEARCH_MIN_CHARS).max(320), ...pageQuery });
export type AdminSearchQuery = z.infer<typeof adminSearchQuerySchema>;

export const SEARCH_MATCHES = ['email', 'subscription_id', 'customer_id', 'execution_id', 'card_last4'] as const;

export const adminSearchHitSchema = z.object({
  subscription_id: z.string(),
  email: z.string(),
  plan_id: z.string(),
  plan_name: z.string(),
  status: z.string(),
  card_last4: z.string().nullable(),
  created_at: iso,
  /** Why it matched. */
  matched: z.enum(SEARCH_MATCHES),
});
export const adminSearchResultSchema = z.object({ items: z.array(adminSearchHitSchema), ...pageInfo });
export type AdminSearchResult = z.infer<typeof adminSearchResultSchema>;

// ----- customer timeline -----------------------------------------------------------------------

export const customerTimelineQuerySchema = z.object({ email: z.email().max(320) });

export const TIMELINE_KINDS = [
  'purchase',
  'charge',
  'charge_failed',
  'refund',
  'email',
  'cancel',
  'sign_in',
  'declined_first_payment',
  'dispute_opened',
] as const;
export type TimelineKind = (typeof TIMELINE_KINDS)[number];

export const timelineEventSchema = z.object({
  at: iso,
  kind: z.enum(TIMELINE_KINDS),
  subscription_id: z.string().nullable(),
  plan_name: z.string().nullable(),
  amount_minor: z.number().int().nullable(),
  currency: z.string().nullable(),
  /** The charge's kind, the email's kind, the decline code, the cancel channel, the dispute's reason and evidence deadline. */
  detail: z.string(),
});
export const customerTimelineSchema = z.object({ email: z.string(), events: z.array(timelineEventSchema) });
export type CustomerTimeline = z.infer<typeof customerTimelineSchema>;
export type TimelineEvent = z.infer<typeof timelineEventSchema>;

// ----- plans -----------------------------------------------------------------------------------

/** `GET /api/admin/plans?from&to`: every plan of the catalog, and any other plan someone still holds. */
export const planBreakdownQuerySchema = dateRangeQuerySchema;
export const planBreakdownSchema = z.object({
  plans: z.array(
    z.object({
      plan_id: z.string(),
      plan_name: z.string(),
      /** The price its buyers agreed to ('$1.00 trial, then $24.99 every 7 days'): one row per plan and price. */
      price: z.string(),
      /**
       * Now, by the Revenue tab's rules (docs/metrics.md, "Plans"): recurring purchases paying (a paid
       * introductory period, past due, canceled until the paid period ends) and in their trial.
       */
      active: z.number().int(),
      trialing: z.number().int(),
      /** Now: one-time purchases and add-ons that still give access (not subscriptions). */
      one_time_with_access: z.number().int(),
      /** Over the range: succeeded charges (refunds not counted) and refunds made, minor units. */
      revenue_minor: z.number().int(),
      refunded_minor: z.number().int(),
    }),
  ),
});
export type PlanBreakdown = z.infer<typeof planBreakdownSchema>;
