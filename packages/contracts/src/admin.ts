import { z } from 'zod';
import { DISPUTE_STATUSES } from './gateway-constants';

/**
 * The operator console (issue 13): who may use it, its audit trail, customer care and the
 * dashboards. Every `/api/admin/*` endpoint answers 401 to a visitor and 403 to a signed-in customer.
 */

/** Base path of every operator endpoint. */
export const ADMIN_API_PREFIX = '/api/admin';

// ----- operator accounts (issue 25, ADR 150–151) -------------------------------------------------

/** Operator roles, least to most powerful. */
export const OPERATOR_ROLES = ['viewer', 'support', 'owner'] as const;
export type OperatorRole = (typeof OPERATOR_ROLES)[number];

/** What an operator may do; {@link ROLE_PERMISSIONS} says which role may do what. */
export const OPERATOR_PERMISSIONS = [
  /** Funnel, revenue, reconciliation and quality dashboards. */
  'dashboards.read',
  /** Look a customer up (their record, consents and the audit entries about them). */
  'customers.read',
  /** Refund a charge, cancel a subscription, resend a receipt or cancel link. */
  'customers.care',
  /** Erase a customer's data (data rights). */
  'customers.delete',
  /** Download a table of the console as CSV. */
  'data.export',
  /** Read the whole audit trail. */
  'audit.read',
  /** Add, remove and change the role of operators; see and end every operator's sessions. */
  'operators.manage',
] as const;
export type OperatorPermission = (typeof OPERATOR_PERMISSIONS)[number];

/** The one table of permissions: each role has those of the role before it and more. */
export const ROLE_PERMISSIONS: Record<OperatorRole, readonly OperatorPermission[]> = {
  viewer: ['dashboards.read', 'customers.read'],
  support: ['dashboards.read', 'customers.read', 'customers.care'],
  owner: ['dashboards.read', 'customers.read', 'customers.care', 'customers.delete', 'data.export', 'audit.read', 'operators.manage'],
};

export const hasPermission = (role: OperatorRole, permission: OperatorPermission) => ROLE_PERMISSIONS[role].includes(permission);

/**
 * Why an operator endpoint answered 403 (the `error` of the answer; `code` is FORBIDDEN):
 * not an operator, no second factor enrolled yet, the second factor not passed in this session,
 * or the role does not allow it.
 */
export const OPERATOR_REFUSALS = {
  notOperator: 'Operators only',
  enrollmentRequired: 'operator-second-factor-enrollment-required',
  secondFactorRequired: 'operator-second-factor-required',
  roleForbidden: 'operator-role-forbidden',
} as const;

/** `GET /api/admin/me`: the signed-in operator, their role and where they are with the second factor. */
export const operatorMeSchema = z.object({
  email: z.string(),
  operator: z.literal(true),
  role: z.enum(OPERATOR_ROLES),
  permissions: z.array(z.enum(OPERATOR_PERMISSIONS)),
  /** 'enroll': no authenticator yet; 'verify': enrolled, not passed in this session; 'passed'. */
  second_factor: z.enum(['enroll', 'verify', 'passed']),
});
export type OperatorMe = z.infer<typeof operatorMeSchema>;

/** `POST /api/admin/second-factor/enroll`: a new authenticator secret (replaces one not confirmed yet). */
export const totpEnrollmentSchema = z.object({
  /** Base32, for typing into an authenticator app. */
  secret: z.string(),
  /** `otpauth://totp/...`, what the QR code holds. */
  uri: z.string(),
  /** The QR code as an SVG document. */
  qr_svg: z.string(),
});
export type TotpEnrollment = z.infer<typeof totpEnrollmentSchema>;

/** `POST /api/admin/second-factor/verify`: a six-digit authenticator code (confirms enrollment on first use). */
export const totpVerifyRequestSchema = z.object({ code: z.string().regex(/^\d{6}$/, 'must be six digits') });
export type TotpVerifyRequest = z.infer<typeof totpVerifyRequestSchema>;

export const operatorSessionSchema = z.object({
  id: z.string(),
  operator_email: z.string(),
  created_at: z.iso.datetime(),
  last_seen_at: z.iso.datetime().nullable(),
  expires_at: z.iso.datetime(),
  ip_address: z.string().nullable(),
  user_agent: z.string().nullable(),
  second_factor_passed: z.boolean(),
  current: z.boolean(),
});
export type OperatorSession = z.infer<typeof operatorSessionSchema>;
/** `GET /api/admin/sessions`: one's own sessions; an owner's `?all=true`: every operator's. */
export const operatorSessionsQuerySchema = z.object({ all: z.enum(['true', 'false']).optional() });
export const operatorSessionListSchema = z.object({ sessions: z.array(operatorSessionSchema) });
export type OperatorSessionList = z.infer<typeof operatorSessionListSchema>;
export const revokeSessionRequestSchema = z.object({ id: z.string().min(1).max(200) });

export const operatorSchema = z.object({
  email: z.string(),
  role: z.enum(OPERATOR_ROLES),
  added_by: z.string(),
  created_at: z.iso.datetime(),
  second_factor_enrolled: z.boolean(),
});
export type Operator = z.infer<typeof operatorSchema>;
export const operatorListSchema = z.object({ operators: z.array(operatorSchema) });
export type OperatorList = z.infer<typeof operatorListSchema>;
export const operatorRoleRequestSchema = z.object({ email: z.email().max(320), role: z.enum(OPERATOR_ROLES) });
export type OperatorRoleRequest = z.infer<typeof operatorRoleRequestSchema>;
export const operatorRemoveRequestSchema = z.object({ email: z.email().max(320) });

/** `POST /api/admin/exports`: recorded before the console downloads a table as CSV. */
export const exportRequestSchema = z.object({ name: z.string().trim().min(1).max(200), rows: z.number().int().min(0) });
export type ExportRequest = z.infer<typeof exportRequestSchema>;

/** What an operator (or the operator commands) can do; each one writes an audit record. */
export const ADMIN_ACTIONS = [
  'customer.lookup',
  'customer.refund',
  'customer.cancel_now',
  'customer.cancel_at_period_end',
  'customer.resend_receipt',
  'customer.resend_cancel_link',
  'customer.delete_data',
  'customer.consents_viewed',
  /** An operator answered a card dispute with evidence (ADR 182). */
  'dispute.evidence_submitted',
  /** An operator accepted a card dispute: the money stays with the cardholder (ADR 182). */
  'dispute.accepted',
  'operator.add',
  'operator.remove',
  'operator.role_change',
  'operator.second_factor_enrolled',
  'operator.second_factor_reset',
  'operator.second_factor_failed',
  'operator.second_factor_locked',
  'operator.sign_in',
  'operator.session_revoked',
  'operator.export',
] as const;
export type AdminAction = (typeof ADMIN_ACTIONS)[number];

export const auditEntrySchema = z.object({
  id: z.string(),
  at: z.iso.datetime(),
  operator_email: z.string(),
  action: z.enum(ADMIN_ACTIONS),
  customer_email: z.string().nullable(),
  subscription_id: z.string().nullable(),
  detail: z.record(z.string(), z.union([z.string(), z.number(), z.boolean(), z.null()])),
});
export type AuditEntry = z.infer<typeof auditEntrySchema>;
/** A page of the audit trail, newest first; `next_cursor` asks for the page after it (null: the last). */
export const auditListSchema = z.object({ entries: z.array(auditEntrySchema), next_cursor: z.string().nullable() });
export type AuditList = z.infer<typeof auditListSchema>;

/** A calendar day in UTC, `YYYY-MM-DD`. */
const daySchema = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'must be YYYY-MM-DD');

/** Audit entries on one page, at most. */
export const AUDIT_PAGE_MAX = 200;

/** `GET /api/admin/audit`: a page, filtered by who did it, what, and UTC days (both included). */
export const auditQuerySchema = z.object({
  cursor: z.string().max(200).optional(),
  limit: z.coerce.number().int().min(1).max(AUDIT_PAGE_MAX).default(50),
  operator: z.string().trim().max(320).optional(),
  action: z.enum(ADMIN_ACTIONS).optional(),
  from: daySchema.optional(),
  to: daySchema.optional(),
});
export type AuditQuery = z.infer<typeof auditQuerySchema>;

/** Longest range a dashboard query covers. */
export const MAX_RANGE_DAYS = 366;

/** `?from=YYYY-MM-DD&to=YYYY-MM-DD`: both days included, UTC. */
export const dateRangeQuerySchema = z
  .object({ from: daySchema, to: daySchema })
  .refine((range) => range.from <= range.to, { message: 'from must not be after to' })
  .refine((range) => (Date.parse(range.to) - Date.parse(range.from)) / 86_400_000 < MAX_RANGE_DAYS, {
    message: `at most ${MAX_RANGE_DAYS} days`,
  });
export type DateRangeQuery = z.infer<typeof dateRangeQuerySchema>;

// ----- funnel ----------------------------------------------------------------------------------

/**
 * The funnel's steps in order, each with the funnel event (product-spec §3) that marks it. A step
 * counts visits, not events (docs/metrics.md): the purchase step is a tracked visit reporting its own
 * purchase (`POST /subscriptions/{id}`), plan or pack; the server's own purchase records, made for
 * every buyer whether the visit was tracked or not, are not funnel steps.
 */
export const FUNNEL_STEPS = [
  { step: 'landing', event: 'intro' },
  { step: 'consent', event: 'onboarding' },
  { step: 'camera_tip', event: 'camera tip' },
  { step: 'selfie', event: 'selfie' },
  { step: 'processing', event: 'selfie processing' },
  { step: 'email', event: 'e-mail screen' },
  { step: 'paywall', event: 'subscription offer' },
  { step: 'purchase', event: 'subscription-tracking' },
  { step: 'offers', event: 'offers' },
  { step: 'sign_in', event: 'account' },
] as const;
export type FunnelStep = (typeof FUNNEL_STEPS)[number]['step'];
export const FUNNEL_STEP_NAMES = FUNNEL_STEPS.map((item) => item.step) as [FunnelStep, ...FunnelStep[]];

/** Attribution dimensions the funnel splits by. */
export const FUNNEL_DIMENSIONS = ['campaign', 'media_source', 'country', 'variant'] as const;
export type FunnelDimension = (typeof FUNNEL_DIMENSIONS)[number];

const stepCountsSchema = z.record(z.enum(FUNNEL_STEP_NAMES), z.number().int());

export const funnelReportSchema = z.object({
  steps: z.array(z.enum(FUNNEL_STEP_NAMES)),
  /**
   * Unique visits at each step over the range (a visit counts once per step: reloads and repeats do
   * not count again), with conversion from landing and drop-off from the step before (0..1).
   */
  totals: z.array(z.object({ step: z.enum(FUNNEL_STEP_NAMES), count: z.number().int(), conversion: z.number(), drop_off: z.number() })),
  days: z.array(z.object({ day: daySchema, counts: stepCountsSchema })),
  /** Unique visits per value of each dimension; `variant` is the one the visit started in (walkthrough or quiz). */
  sources: z.array(z.object({ dimension: z.enum(FUNNEL_DIMENSIONS), value: z.string(), counts: stepCountsSchema })),
});
export type FunnelReport = z.infer<typeof funnelReportSchema>;

// ----- revenue ---------------------------------------------------------------------------------

/**
 * Ways a subscription stops renewing: the customer's or an operator's cancel (voluntary), and the
 * ends nobody asked for (issue 23): the last renewal declined (`payment_failed`, involuntary churn)
 * or the whole purchase refunded without a cancel before it (`refund`).
 */
export const CANCEL_CHANNELS = ['email_code', 'one_click_link', 'account', 'by_id', 'operator', 'payment_failed', 'refund'] as const;
export type CancelChannel = (typeof CANCEL_CHANNELS)[number];

/** Counts and amounts of one UTC day of the range; each field is defined in docs/metrics.md. */
export const revenueDaySchema = z.object({
  day: daySchema,
  /** New purchases of a plan whose agreed first period is a trial (shorter than its renewal period). */
  trials_started: z.number().int(),
  /** New recurring purchases without a trial (a paid introductory period, e.g. the 3-month plan, included). */
  direct_purchases: z.number().int(),
  /** New one-time purchases (packs, lifetime, one-month access) made as the main purchase; add-ons apart. */
  one_time_purchases: z.number().int(),
  /** Add-on purchases (packs bought after a main purchase). */
  addon_purchases: z.number().int(),
  /** A trial's first full-price period paid. */
  trial_conversions: z.number().int(),
  /** Later periods paid (trial conversions apart). */
  renewals: z.number().int(),
  /** Renewal attempts declined (each attempt). */
  renewal_failures: z.number().int(),
  /** Renewals paid on a retry after a soft decline (dunning recovered). */
  recovered: z.number().int(),
  /** Refunds to customers (money-back guarantee, an operator's refund, whole or partial). */
  refunds: z.number().int(),
  refunded_minor: z.number().int(),
  /** Automatic refunds of payments no purchase claimed (the payment sweep): never part of gross. */
  auto_refunds: z.number().int(),
  auto_refunded_minor: z.number().int(),
  /** Card disputes opened (by the day the bank opened them), whatever becomes of them (ADR 182). */
  disputes_opened: z.number().int(),
  /** Disputes lost or accepted (by the day they ended): the bank gave the money back to the cardholder. */
  chargebacks: z.number().int(),
  chargeback_minor: z.number().int(),
  /** Recurring subscriptions that stopped renewing (canceled, declined for good, refunded in full). */
  cancellations: z.number().int(),
  addon_minor: z.number().int(),
  /** Every succeeded charge of the day, add-ons included, before refunds. */
  gross_minor: z.number().int(),
});
export type RevenueDay = z.infer<typeof revenueDaySchema>;

/** One voluntary/involuntary split of a churn figure. */
const churnSplitSchema = z.object({ voluntary: z.number().int(), involuntary: z.number().int() });

/** A monthly cohort: subscriptions whose first paid period began in `month`, and the share still paying N periods later. */
export const cohortSchema = z.object({
  month: z.string().regex(/^\d{4}-\d{2}$/),
  size: z.number().int(),
  /** `retained[n]`: share (0..1) of the cohort that paid its n-th period after the first; null when none has reached it yet. */
  retained: z.array(z.number().nullable()),
});
export type Cohort = z.infer<typeof cohortSchema>;

/** Periods after the first paid one that the cohort table shows (0 is the first paid period itself). */
export const COHORT_PERIODS = 6;

/**
 * Card networks' dispute monitoring thresholds (docs/metrics.md, "Dispute rate"). A merchant is
 * flagged when both the count and the ratio are reached in a calendar month.
 * - Visa Dispute Monitoring Program (VDMP): disputes of the month / sales of the same month; early
 *   warning at 75 and 0.65 %, standard at 100 and 0.9 % (Visa replaced it with VAMP on 1 April 2025;
 *   acquirers still apply these as their warning levels). Source: Braintree, "Visa Dispute
 *   Monitoring Program", developer.paypal.com/braintree/articles/risk-and-security/card-brand-monitoring-programs/visa-programs/visa-dispute-monitoring-program.
 * - Mastercard Excessive Chargeback Program: chargebacks of the month / sales of the previous month;
 *   Excessive Chargeback Merchant (ECM) at 100 and 1.5 %, High ECM at 300 and 3 %. Source: Braintree,
 *   "Excessive Chargeback Program", developer.paypal.com/braintree/articles/risk-and-security/card-brand-monitoring-programs/mastercard-programs/excessive-chargeback-program.
 * Our own alert fires at {@link DISPUTE_RATE_ALERT}, below both.
 */
export const CARD_NETWORK_DISPUTE_THRESHOLDS = {
  visaEarlyWarning: { count: 75, ratio: 0.0065 },
  visaStandard: { count: 100, ratio: 0.009 },
  mastercardEcm: { count: 100, ratio: 0.015 },
  mastercardHighEcm: { count: 300, ratio: 0.03 },
} as const;
/** The dispute ratio at which the product's own alert fires: before Visa's early warning (0.65 %). */
export const DISPUTE_RATE_ALERT = 0.005;

/** One calendar month's disputes against its card payments (succeeded first payments, renewals and add-ons). */
export const disputeMonthSchema = z.object({
  month: z.string().regex(/^\d{4}-\d{2}$/),
  disputes: z.number().int(),
  card_payments: z.number().int(),
  previous_month_card_payments: z.number().int(),
  /** disputes / card_payments (Visa's formula; 0 without payments). */
  visa_ratio: z.number(),
  /** disputes / previous_month_card_payments (Mastercard's formula; 0 without payments). */
  mastercard_ratio: z.number(),
  /** A ratio reached our alert level ({@link DISPUTE_RATE_ALERT}). */
  alert: z.boolean(),
});
export type DisputeMonth = z.infer<typeof disputeMonthSchema>;

export const revenueReportSchema = z.object({
  /** Every field of `days` and `totals` covers the range; `now` is the moment of the request. */
  days: z.array(revenueDaySchema),
  totals: revenueDaySchema.omit({ day: true }).extend({
    /** Trials whose trial period ended in the range (canceled and refunded ones included). */
    trials_ended: z.number().int(),
    /** Of those, the ones whose first full-price period was paid. */
    trials_converted: z.number().int(),
    /** trials_converted / trials_ended (0..1). */
    trial_to_paid: z.number(),
    /** Paying subscriptions that ended in the range: voluntary (canceled, refunded) and involuntary (payment failed). */
    churned_subscribers: churnSplitSchema,
    /** The MRR those subscriptions brought when they ended. */
    churned_mrr_minor: churnSplitSchema,
    /** Paying recurring subscriptions at the start of the range (past any trial, not ended). */
    paying_at_start: z.number().int(),
    /** The MRR those subscriptions brought at the start of the range. */
    mrr_at_start_minor: z.number().int(),
    /** Churned subscribers (both kinds) / paying_at_start (0..1; 0 when none was paying). */
    subscriber_churn_rate: z.number(),
    /** Churned MRR (both kinds) / mrr_at_start_minor (0..1; 0 when there was none). */
    mrr_churn_rate: z.number(),
  }),
  now: z.object({
    /** Paid (not trialing) recurring subscriptions until they expire: canceled ones until their period ends, past-due ones included. */
    active_paying: z.number().int(),
    /**
     * Recurring purchases waiting for a payment retry after a decline, as the Past-due queue lists
     * them: paying ones (a renewal) and trials whose conversion is retried (still counted as trials).
     */
    past_due: z.number().int(),
    /** Trials that have neither converted nor expired (canceled ones until their trial ends). */
    active_trials: z.number().int(),
    /** One-time purchases (packs, lifetime, one-month access, add-ons included) that still give access. */
    one_time_with_access: z.number().int(),
    /** The active paying subscriptions' current-period prices as agreed, each normalised to a month. */
    mrr_minor: z.number().int(),
  }),
  /** New purchases in the range and subscriptions now, per plan, by its name. */
  plans: z.array(
    z.object({
      plan_id: z.string(),
      plan_name: z.string(),
      new_purchases: z.number().int(),
      active_paying: z.number().int(),
      active_trials: z.number().int(),
      mrr_minor: z.number().int(),
    }),
  ),
  /** Stops of recurring subscriptions in the range by channel and reason (the churn channels included). */
  cancellations: z.array(z.object({ channel: z.enum(CANCEL_CHANNELS), reason: z.string(), count: z.number().int() })),
  /** Monthly cohorts whose first paid period began in a month the range touches. */
  cohorts: z.array(cohortSchema),
  /** Each calendar month the range touches: disputes against card payments, as the networks count them (ADR 182). */
  dispute_months: z.array(disputeMonthSchema),
});
export type RevenueReport = z.infer<typeof revenueReportSchema>;

/** Our succeeded charges of the range checked one by one against the gateway's executions. */
export const reconciliationSchema = z.object({
  checked: z.number().int(),
  /** More charges than one check covers: the rest was not checked. */
  truncated: z.boolean(),
  mismatches: z.array(
    z.object({
      charge_id: z.string(),
      execution_id: z.string(),
      field: z.enum(['status', 'amount', 'refunded', 'missing']),
      ours: z.string(),
      gateway: z.string(),
    }),
  ),
});
export type Reconciliation = z.infer<typeof reconciliationSchema>;

// ----- quality ---------------------------------------------------------------------------------

export const qualityReportSchema = z.object({
  by_status: z.array(z.object({ status: z.string(), count: z.number().int() })),
  refusals: z.array(z.object({ error_code: z.string(), count: z.number().int() })),
  feedback: z.object({
    answered: z.number().int(),
    looks_correct: z.number().int(),
    /** looks_correct / answered (0 when nobody answered). */
    share_correct: z.number(),
    texts: z.array(z.object({ at: z.iso.datetime(), looks_correct: z.boolean(), text: z.string() })),
  }),
  model_versions: z.array(z.object({ version: z.string(), count: z.number().int() })),
});
export type QualityReport = z.infer<typeof qualityReportSchema>;

// ----- customer care ---------------------------------------------------------------------------

export const customerLookupQuerySchema = z.object({ q: z.string().trim().min(3).max(320) });

const isoOrNull = z.iso.datetime().nullable();

/**
 * One card dispute as the console shows it (ADR 182): `refund_blocked` while it is open or after
 * it was lost or accepted; `answerable` while the operator may still send evidence or accept it.
 */
export const customerDisputeSchema = z.object({
  dispute_id: z.string(),
  charge_id: z.string().nullable(),
  subscription_id: z.string().nullable(),
  execution_id: z.string(),
  amount_minor: z.number().int(),
  currency: z.string(),
  reason: z.string(),
  status: z.enum(DISPUTE_STATUSES),
  evidence_due_by: z.iso.datetime(),
  opened_at: z.iso.datetime(),
  evidence_submitted_at: isoOrNull,
  closed_at: isoOrNull,
  answerable: z.boolean(),
  refund_blocked: z.boolean(),
});
export type CustomerDispute = z.infer<typeof customerDisputeSchema>;

export const customerRecordSchema = z.object({
  query: z.string(),
  emails_found: z.array(z.string()),
  subscriptions: z.array(
    z.object({
      id: z.string(),
      email: z.string(),
      plan_id: z.string(),
      status: z.string(),
      parent_id: z.string().nullable(),
      card_last4: z.string().nullable(),
      current_period_end: isoOrNull,
      canceled_at: isoOrNull,
      created_at: z.iso.datetime(),
      consent: z.object({
        terms_version: z.string(),
        terms_text: z.string(),
        at: z.iso.datetime(),
        ip: z.string(),
        user_agent: z.string(),
      }),
    }),
  ),
  charges: z.array(
    z.object({
      id: z.string(),
      subscription_id: z.string(),
      kind: z.string(),
      period: z.number().int(),
      status: z.string(),
      amount_minor: z.number().int(),
      refunded_minor: z.number().int(),
      currency: z.string(),
      execution_id: z.string().nullable(),
      decline_code: z.string().nullable(),
      created_at: z.iso.datetime(),
    }),
  ),
  refunds: z.array(z.object({ id: z.string(), charge_id: z.string(), amount_minor: z.number().int(), created_at: z.iso.datetime() })),
  /** Card disputes of the customer's payments (ADR 158, 182), oldest first. */
  disputes: z.array(customerDisputeSchema),
  emails: z.array(z.object({ id: z.string(), kind: z.string(), subject: z.string(), status: z.string(), created_at: z.iso.datetime() })),
  /** Status and estimate only: never any image. */
  reports: z.array(
    z.object({
      id: z.string(),
      subscription_id: z.string(),
      status: z.string(),
      error_code: z.string().nullable(),
      estimate: z.array(z.object({ group: z.string(), share: z.number() })),
      created_at: z.iso.datetime(),
    }),
  ),
  audit: z.array(auditEntrySchema),
});
export type CustomerRecord = z.infer<typeof customerRecordSchema>;

/**
 * `POST /api/admin/disputes/evidence`: the operator's text; the server attaches the customer's
 * dated history (consent, receipts, sign-ins, reports) and sends both to the gateway.
 */
export const adminDisputeEvidenceRequestSchema = z.object({
  dispute_id: z.string().min(1).max(64),
  text: z.string().trim().min(1).max(5_000),
});
export type AdminDisputeEvidenceRequest = z.infer<typeof adminDisputeEvidenceRequestSchema>;
/** `POST /api/admin/disputes/accept`: gives the disputed money up (the dispute ends `accepted`). */
export const adminDisputeAcceptRequestSchema = z.object({ dispute_id: z.string().min(1).max(64) });
export type AdminDisputeAcceptRequest = z.infer<typeof adminDisputeAcceptRequestSchema>;
/** The dispute after the operator's answer, and the history entries sent with evidence. */
export const adminDisputeAnswerSchema = z.object({ dispute: customerDisputeSchema, evidence_entries: z.number().int() });
export type AdminDisputeAnswer = z.infer<typeof adminDisputeAnswerSchema>;

/** Operator refunds carry a key the console makes per click (idempotency: a retry replays). */
export const adminRefundRequestSchema = z.object({
  charge_id: z.uuid(),
  /** Minor units; omitted: the whole remaining amount. */
  amount_minor: z.number().int().positive().optional(),
  reason: z.string().trim().min(1).max(200),
});
export type AdminRefundRequest = z.infer<typeof adminRefundRequestSchema>;
export const adminRefundResponseSchema = z.object({ refunded_minor: z.number().int(), gateway_refund_id: z.string() });
export type AdminRefundResponse = z.infer<typeof adminRefundResponseSchema>;

export const adminCancelRequestSchema = z.object({
  subscription_id: z.uuid(),
  when: z.enum(['now', 'period_end']),
  reason: z.string().trim().min(1).max(200),
});
export type AdminCancelRequest = z.infer<typeof adminCancelRequestSchema>;

export const adminResendRequestSchema = z.object({ subscription_id: z.uuid(), what: z.enum(['receipt', 'cancel_link']) });
export type AdminResendRequest = z.infer<typeof adminResendRequestSchema>;

export const adminDeleteCustomerRequestSchema = z.object({ email: z.email().max(320) });
export type AdminDeleteCustomerRequest = z.infer<typeof adminDeleteCustomerRequestSchema>;

export const adminActionDoneSchema = z.object({ ok: z.literal(true) });

// ----- geo policy ------------------------------------------------------------------------------

/** What the funnel offers where face analysis is not offered. */
export const GEO_FALLBACKS = ['insights', 'nothing'] as const;
export type GeoFallback = (typeof GEO_FALLBACKS)[number];

/**
 * EU member states and the other EEA states (Iceland, Liechtenstein, Norway): the default list where
 * face analysis is not offered (EU AI Act art. 5(1)(g), in force since 2025-02-02).
 */
export const EU_EEA_COUNTRIES = [
  'AT', 'BE', 'BG', 'HR', 'CY', 'CZ', 'DK', 'EE', 'FI', 'FR', 'DE', 'GR', 'HU', 'IE', 'IT', 'LV', 'LT', 'LU', 'MT', 'NL', 'PL',
  'PT', 'RO', 'SK', 'SI', 'ES', 'SE', 'IS', 'LI', 'NO',
] as const; // prettier-ignore

/** The error of the face-analysis endpoints where the geo policy does not offer them. */
export const FACE_ANALYSIS_NOT_OFFERED = 'The face analysis is not offered in your country.';

/** `GET /api/geo-policy`: what this visitor's country gets. */
export const geoPolicySchema = z.object({
  country: z.string(),
  face_analysis: z.boolean(),
  /** Where face analysis is not offered: the rest of the product, or nothing. */
  fallback: z.enum(GEO_FALLBACKS),
});
export type GeoPolicy = z.infer<typeof geoPolicySchema>;

// ----- data export (GDPR Art. 15/20) -------------------------------------------------------------

/** `GET /api/account/export`: everything we keep about the signed-in customer, as JSON. */
export const dataExportSchema = z.object({
  exported_at: z.iso.datetime(),
  user: z.object({ id: z.string(), email: z.string(), name: z.string(), created_at: z.iso.datetime() }),
  profile: z.object({ name: z.string().nullable(), birth_date: z.string().nullable(), birth_time: z.string().nullable() }).nullable(),
  subscriptions: customerRecordSchema.shape.subscriptions,
  charges: customerRecordSchema.shape.charges,
  refunds: customerRecordSchema.shape.refunds,
  emails: customerRecordSchema.shape.emails,
  reports: customerRecordSchema.shape.reports,
});
export type DataExport = z.infer<typeof dataExportSchema>;
