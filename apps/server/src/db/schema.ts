import type { OperatorRole } from '@roots/contracts/admin';
import type { AccessKind, SubscriptionStatus } from '@roots/contracts/subscriptions';
import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  date,
  index,
  integer,
  jsonb,
  numeric,
  pgTable,
  primaryKey,
  text,
  timestamp,
  unique,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';

/**
 * One row per server start: which version and product slug ran against this database, and when.
 * Lets an operator see which releases touched a database, and gives readiness a real table to read.
 */
export const serverStarts = pgTable('server_starts', {
  id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
  version: text('version').notNull(),
  productSlug: text('product_slug').notNull(),
  startedAt: timestamp('started_at', { withTimezone: true }).notNull().defaultNow(),
});

// ---------------------------------------------------------------------------------------------
// Subscriptions, billing, emails, events (issue 5; ADR 030–033)
// ---------------------------------------------------------------------------------------------

/**
 * A purchase the checkout announced, recorded before the gateway is asked: if the process dies
 * between the payment check and the subscription insert, the reconciler finishes it from here.
 */
export type PurchaseIntentState = 'open' | 'completed' | 'failed';

export const purchaseIntents = pgTable('purchase_intents', {
  executionId: text('execution_id').primaryKey(),
  planId: text('plan_id').notNull(),
  email: text('email').notNull(),
  userId: text('user_id'),
  attribution: jsonb('attribution').$type<Record<string, string>>().notNull().default({}),
  termsText: text('terms_text').notNull(),
  termsVersion: text('terms_version').notNull(),
  consentIp: text('consent_ip').notNull(),
  consentUserAgent: text('consent_user_agent').notNull(),
  state: text('state').$type<PurchaseIntentState>().notNull().default('open'),
  subscriptionId: uuid('subscription_id'),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull(),
});

/** A period length as billing understands it. */
type AgreedPeriod = { unit: 'day' | 'month'; count: number };

/** The terms of one purchase as agreed when the buyer consented (`subscriptions.agreed_terms`). */
export type AgreedTerms = {
  id: string;
  name: string;
  firstAmountMinor: number;
  renewalAmountMinor: number | null;
  firstPeriod: AgreedPeriod | null;
  renewalPeriod: AgreedPeriod | null;
  hasTrial: boolean;
  recurring: boolean;
  access: AccessKind;
  disclosure: { terms_text: string; terms_version: string };
  currency: string;
};

export const subscriptions = pgTable(
  'subscriptions',
  {
    id: uuid('id').primaryKey(),
    email: text('email').notNull(),
    userId: text('user_id'),
    planId: text('plan_id').notNull(),
    status: text('status').$type<SubscriptionStatus>().notNull(),
    /** Add-ons point at the subscription whose stored instrument paid for them. */
    parentId: uuid('parent_id'),
    /** The execution of the first payment: one subscription per execution (idempotency). */
    initialExecutionId: text('initial_execution_id').notNull(),
    holderReference: text('holder_reference').notNull(),
    instrumentId: text('instrument_id'),
    cardLast4: text('card_last4'),
    cardNetwork: text('card_network'),
    /** 0 for the first (trial or introductory) period; +1 on each renewal. */
    currentPeriod: integer('current_period').notNull().default(0),
    currentPeriodStart: timestamp('current_period_start', { withTimezone: true }).notNull(),
    /** Null for lifetime purchases. */
    currentPeriodEnd: timestamp('current_period_end', { withTimezone: true }),
    /** When the scheduler must next act (renewal, retry, or the end of a period that will not renew); null: never. */
    dueAt: timestamp('due_at', { withTimezone: true }),
    /** Soft-declined attempts in the current dunning run. */
    retryCount: integer('retry_count').notNull().default(0),
    /** A scheduler instance holds the subscription until then (row claim; ADR 031). */
    leaseUntil: timestamp('lease_until', { withTimezone: true }),
    reminderSentAt: timestamp('reminder_sent_at', { withTimezone: true }),
    canceledAt: timestamp('canceled_at', { withTimezone: true }),
    endedAt: timestamp('ended_at', { withTimezone: true }),
    /**
     * The terms agreed at purchase (issue 23): name, prices in minor units, currency, periods,
     * trial, access and the disclosure, as the catalog said when the buyer consented. Renewals,
     * reminders, receipts and the account screens read these, never today's catalog; null only for
     * purchases made before they were recorded (those follow the catalog).
     */
    agreedTerms: jsonb('agreed_terms').$type<AgreedTerms>(),
    /**
     * The periods whose charge succeeded, as bits (period n: bit n; periods past 30 share bit 30),
     * and when the charges of periods 0 and 1 were made: what the console's trial, churn and cohort
     * figures read (docs/metrics.md), kept by the lifecycle as each period is paid (ADR 157).
     */
    paidPeriods: integer('paid_periods').notNull().default(0),
    period0PaidAt: timestamp('period0_paid_at', { withTimezone: true }),
    period1PaidAt: timestamp('period1_paid_at', { withTimezone: true }),
    // Consent and disclosure record: exactly what the buyer saw next to the pay button.
    termsText: text('terms_text').notNull(),
    termsVersion: text('terms_version').notNull(),
    consentAt: timestamp('consent_at', { withTimezone: true }).notNull(),
    consentIp: text('consent_ip').notNull(),
    consentUserAgent: text('consent_user_agent').notNull(),
    attribution: jsonb('attribution').$type<Record<string, string>>().notNull().default({}),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull(),
  },
  (table) => [
    uniqueIndex('subscriptions_initial_execution_unique').on(table.initialExecutionId),
    index('subscriptions_email_idx').on(table.email),
    index('subscriptions_due_idx').on(table.dueAt),
    // The console's search (ADR 190): part of an email (trigrams, pg_trgm), a customer id's
    // lower-case prefix and a card's last four, each answered by an index.
    index('subscriptions_email_trgm_idx').using('gin', table.email.op('gin_trgm_ops')),
    index('subscriptions_user_id_prefix_idx').on(sql`lower(${table.userId}) text_pattern_ops`),
    index('subscriptions_card_last4_idx').on(table.cardLast4),
    // The Past-due queue (ADR 190): its page in order, and its total, from the past-due purchases alone.
    index('subscriptions_past_due_idx')
      .on(table.dueAt, table.id)
      .where(sql`${table.status} = 'past_due' and ${table.parentId} is null`),
    // The revenue view's purchases made after now's time of day on the days whose periods turn today (ADR 200).
    index('subscriptions_main_plan_created_idx')
      .on(table.planId, table.createdAt)
      .where(sql`${table.parentId} is null`),
  ],
);

/**
 * What a ledger entry moves: the first payment of a purchase (made by the shopper at the gateway,
 * recorded here once verified), a renewal of a recurring plan, a one-click add-on on a parent's
 * stored instrument, or a refund of one of those.
 */
export type ChargeKind = 'first' | 'renewal' | 'add-on' | 'refund';
/** `pending`: written before the gateway call, outcome not known yet (a crash leaves it here). */
export type ChargeStatus = 'pending' | 'succeeded' | 'failed';

/**
 * The charge ledger (modules/charges, ADR 105): one row per attempt to move money, written before
 * the gateway is called with the row's idempotency key. Every id a recovery needs is a column; the
 * key is only ever sent to the gateway. At most one charge attempt per (subscription, period) may
 * succeed, and a charge is refunded at most once.
 */
export const charges = pgTable(
  'charges',
  {
    id: uuid('id').primaryKey(),
    kind: text('kind').$type<ChargeKind>().notNull(),
    /**
     * The subscription the money is for (an add-on's id is known before its row exists). Null only
     * for the refund of a payment no subscription was ever made for (the sweep, ADR 127).
     */
    subscriptionId: uuid('subscription_id'),
    /** Add-ons: the subscription whose stored instrument pays. */
    parentSubscriptionId: uuid('parent_subscription_id'),
    planId: text('plan_id').notNull(),
    /** 0 for the first (trial or introductory) period; n for the n-th renewal. */
    period: integer('period').notNull(),
    /** 0 for the first attempt of a period; k for the k-th retry after a decline. */
    attempt: integer('attempt').notNull(),
    /** Refunds: the charge refunded. */
    refundOfChargeId: uuid('refund_of_charge_id'),
    idempotencyKey: text('idempotency_key').notNull(),
    amountMinor: integer('amount_minor').notNull(),
    currency: text('currency').notNull(),
    status: text('status').$type<ChargeStatus>().notNull(),
    /** The gateway execution that moved the money (refunds: the execution refunded). */
    executionId: text('execution_id'),
    /** Refunds: the gateway's refund id. */
    gatewayRefundId: text('gateway_refund_id'),
    declineCode: text('decline_code'),
    /** Charges: how much of it was refunded. */
    refundedMinor: integer('refunded_minor').notNull().default(0),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull(),
  },
  (table) => [
    uniqueIndex('charges_idempotency_key_unique').on(table.idempotencyKey),
    uniqueIndex('charges_attempt_unique')
      .on(table.subscriptionId, table.period, table.attempt)
      .where(sql`${table.kind} <> 'refund'`),
    uniqueIndex('charges_one_success_per_period')
      .on(table.subscriptionId, table.period)
      .where(sql`${table.status} = 'succeeded' and ${table.kind} <> 'refund'`),
    // A charge is refunded at most twice, each by its own key: once by whoever asks first (`refund:`),
    // and what an operator's partial refund left once by the money-back guarantee (`refund-rest:`).
    index('charges_refund_of_charge_idx').on(table.refundOfChargeId),
    index('charges_pending_idx').on(table.status, table.createdAt),
    index('charges_created_idx').on(table.createdAt),
    // The console's search by a gateway execution id (ADR 190).
    index('charges_execution_idx').on(table.executionId),
    // A customer's refunds and timeline (ADR 190): the attempt index above leaves refund rows out.
    index('charges_subscription_idx').on(table.subscriptionId),
  ],
);

/**
 * What the sweep (ADR 127) did with a paid shopper execution it found at the gateway with no
 * subscription: `waiting` (within the grace period: the purchase request may still come),
 * `completed` (an open intent proved what it was for; the subscription was made), `subscribed`
 * (the purchase came by itself), `refunding` (the refund is in the charge ledger, outcome not known
 * yet), `refunded`, `refund_failed` (the gateway refused the refund for good: an operator's case),
 * `closed` (no longer a payment to act on: not paid, or refunded by someone else).
 */
export type UnmatchedPaymentStatus = 'waiting' | 'completed' | 'subscribed' | 'refunding' | 'refunded' | 'refund_failed' | 'closed';

/**
 * Payments the gateway took that the product did not tie to a subscription when the sweep first
 * saw them: the operator's list of what was completed late or given back. Nothing personal: the
 * gateway's ids and amounts only.
 */
export const unmatchedPayments = pgTable(
  'unmatched_payments',
  {
    executionId: text('execution_id').primaryKey(),
    amountMinor: integer('amount_minor').notNull(),
    currency: text('currency').notNull(),
    /** The session's order reference (our plan id), when the gateway has one. */
    orderReference: text('order_reference'),
    /** The execution's last change at the gateway when seen paid: the grace period runs from here. */
    paidAt: timestamp('paid_at', { withTimezone: true }).notNull(),
    status: text('status').$type<UnmatchedPaymentStatus>().notNull(),
    /** The refund's ledger row (`charges`, kind `refund`). */
    refundChargeId: uuid('refund_charge_id'),
    firstSeenAt: timestamp('first_seen_at', { withTimezone: true }).notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull(),
  },
  (table) => [index('unmatched_payments_status_idx').on(table.status, table.paidAt)],
);

/**
 * The sweep's place in the gateway's execution listing, shared by every instance (one row, id 1):
 * the instance holding `leaseUntil` sweeps; `watermark` is the last change time it finished.
 */
export const paymentSweepState = pgTable('payment_sweep_state', {
  id: integer('id').primaryKey(),
  watermark: timestamp('watermark', { withTimezone: true }),
  leaseToken: text('lease_token'),
  leaseUntil: timestamp('lease_until', { withTimezone: true }),
  lastRunAt: timestamp('last_run_at', { withTimezone: true }),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull(),
});

/** What a purchase unlocks (product-spec §6), until `expiresAt` (null: for good). */
export const accessGrants = pgTable(
  'access_grants',
  {
    id: uuid('id').primaryKey(),
    subscriptionId: uuid('subscription_id').notNull(),
    email: text('email').notNull(),
    kind: text('kind').$type<AccessKind>().notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
  },
  (table) => [
    uniqueIndex('access_grants_subscription_kind_unique').on(table.subscriptionId, table.kind),
    index('access_grants_email_idx').on(table.email),
  ],
);

/** Outbox and dev mailbox: every email is a row first (deduplicated by key), then delivered. */
export const emails = pgTable(
  'emails',
  {
    id: uuid('id').primaryKey(),
    dedupeKey: text('dedupe_key').notNull(),
    kind: text('kind').notNull(),
    to: text('to_address').notNull(),
    /** Subject, text and html as kept at rest: every secret (code, link) redacted (issue 22). */
    subject: text('subject').notNull(),
    text: text('text').notNull(),
    html: text('html').notNull(),
    /**
     * The email as it is sent, sealed with a key of APP_SECRET (AES-256-GCM), while it waits for
     * delivery; null once delivered or failed, and for emails with no secret in them.
     */
    sealed: text('sealed'),
    /** pending | sent | stored (dev mailbox) | failed */
    status: text('status').notNull(),
    attempts: integer('attempts').notNull().default(0),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    /** A delivering instance holds the row until then. */
    claimedUntil: timestamp('claimed_until', { withTimezone: true }),
    sentAt: timestamp('sent_at', { withTimezone: true }),
  },
  (table) => [uniqueIndex('emails_dedupe_unique').on(table.dedupeKey), index('emails_status_idx').on(table.status)],
);

/**
 * The development mailbox: what the dev mailer delivered, in full, as a recipient's inbox would
 * hold it (`/dev/mailbox`). Never written in production (SMTP is required there).
 */
export const devMailbox = pgTable('dev_mailbox', {
  /** The outbox email's id. */
  id: uuid('id').primaryKey(),
  to: text('to_address').notNull(),
  subject: text('subject').notNull(),
  text: text('text').notNull(),
  html: text('html').notNull(),
  deliveredAt: timestamp('delivered_at', { withTimezone: true }).notNull(),
});

/** One-time codes of the cancel-by-email flow; only a hash of the code is stored. */
export const cancelCodes = pgTable(
  'cancel_codes',
  {
    id: uuid('id').primaryKey(),
    email: text('email').notNull(),
    codeHash: text('code_hash').notNull(),
    attempts: integer('attempts').notNull().default(0),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
  },
  (table) => [index('cancel_codes_email_idx').on(table.email)],
);

/** Funnel events (product-spec §3, §7) for the funnel report. */
export const funnelEvents = pgTable(
  'funnel_events',
  {
    id: uuid('id').primaryKey(),
    name: text('name').notNull(),
    /** Deduplicates server-side purchase events (e.g. `Purchase:{subscription id}`); null for client events. */
    dedupeKey: text('dedupe_key'),
    subscriptionId: uuid('subscription_id'),
    value: numeric('value', { precision: 12, scale: 2, mode: 'number' }),
    attribution: jsonb('attribution').$type<Record<string, string>>().notNull().default({}),
    ip: text('ip'),
    country: text('country'),
    userAgent: text('user_agent'),
    payload: text('payload'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
  },
  (table) => [
    uniqueIndex('funnel_events_dedupe_unique').on(table.dedupeKey),
    index('funnel_events_name_idx').on(table.name, table.createdAt),
    // A visit's earlier events at a step: the console's funnel asks, for each event since its
    // watermark, whether the visit reached the step before (ADR 198). The expression is the visit key.
    index('funnel_events_visit_idx').on(sql`coalesce(${table.attribution}->>'visit_id', ${table.id}::text)`, table.name, table.createdAt),
  ],
);

// ---------------------------------------------------------------------------------------------
// Sign-in and the signed-in area (issue 8; ADR 070). better-auth's four models, written by hand
// (its CLI needs Node 22): the JS keys are better-auth's field names, the columns snake_case.
// ---------------------------------------------------------------------------------------------

export const authUsers = pgTable(
  'auth_users',
  {
    id: text('id').primaryKey(),
    name: text('name').notNull(),
    email: text('email').notNull().unique(),
    emailVerified: boolean('email_verified').notNull().default(false),
    image: text('image'),
    /** A disabled user is signed out on the next request (product-spec §4 'user-disabled'). */
    disabled: boolean('disabled').notNull().default(false),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull(),
  },
  // The console's search by a customer id's prefix, in any case (ADR 190).
  (table) => [index('auth_users_id_prefix_idx').on(sql`lower(${table.id}) text_pattern_ops`)],
);

export const authSessions = pgTable(
  'auth_sessions',
  {
    id: text('id').primaryKey(),
    token: text('token').notNull().unique(),
    userId: text('user_id')
      .notNull()
      .references(() => authUsers.id, { onDelete: 'cascade' }),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    ipAddress: text('ip_address'),
    userAgent: text('user_agent'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull(),
  },
  (table) => [index('auth_sessions_user_idx').on(table.userId)],
);

/** One row per way a user signs in: provider 'google' / 'apple' (subject in accountId) or 'email'. */
export const authAccounts = pgTable(
  'auth_accounts',
  {
    id: text('id').primaryKey(),
    accountId: text('account_id').notNull(),
    providerId: text('provider_id').notNull(),
    userId: text('user_id')
      .notNull()
      .references(() => authUsers.id, { onDelete: 'cascade' }),
    accessToken: text('access_token'),
    refreshToken: text('refresh_token'),
    idToken: text('id_token'),
    accessTokenExpiresAt: timestamp('access_token_expires_at', { withTimezone: true }),
    refreshTokenExpiresAt: timestamp('refresh_token_expires_at', { withTimezone: true }),
    scope: text('scope'),
    password: text('password'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull(),
  },
  (table) => [index('auth_accounts_user_idx').on(table.userId)],
);

/** Email codes and OAuth state; better-auth stores only what it needs and expires it. */
export const authVerifications = pgTable(
  'auth_verifications',
  {
    id: text('id').primaryKey(),
    identifier: text('identifier').notNull(),
    value: text('value').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull(),
  },
  (table) => [index('auth_verifications_identifier_idx').on(table.identifier)],
);

/** Profile of the signed-in area (product-spec §3): one row per user, deleted with the user. */
export const profiles = pgTable('profiles', {
  userId: text('user_id')
    .primaryKey()
    .references(() => authUsers.id, { onDelete: 'cascade' }),
  name: text('name'),
  birthDate: text('birth_date'),
  birthTime: text('birth_time'),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull(),
});

// ---------------------------------------------------------------------------------------------
// Reports (issue 6; ADR 060): derived results only, never the photo
// ---------------------------------------------------------------------------------------------

/**
 * A heritage report (product-spec §3). The photo is analysed in memory and dropped: no column
 * holds it or anything that rebuilds the face (traits and attributions carry region ids only).
 */
export const reports = pgTable(
  'reports',
  {
    id: uuid('id').primaryKey(),
    subscriptionId: uuid('subscription_id').notNull(),
    /** Normalised email of the purchase that created it. */
    email: text('email').notNull(),
    /** Signed-in user the report is linked to (report/update). */
    userId: text('user_id'),
    /** extended | population (contracts REPORT_KINDS). */
    kind: text('kind').notNull(),
    /** pending | processing | completed | failed | expired (contracts REPORT_STATUSES). */
    status: text('status').notNull(),
    /** The report content (contracts reportResultSchema) once completed. */
    result: jsonb('result'),
    errorCode: text('error_code'),
    errorMessage: text('error_message'),
    /** A report still pending or processing at this time expires (the sweep). */
    deadlineAt: timestamp('deadline_at', { withTimezone: true }).notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull(),
  },
  (table) => [
    index('reports_email_idx').on(table.email, table.createdAt),
    index('reports_subscription_idx').on(table.subscriptionId),
    index('reports_open_deadline_idx').on(table.status, table.deadlineAt),
  ],
);

/**
 * Fixed-window request counters shared by every instance (ADR 116): the per-IP limit (keys
 * `ip:{route}:{address}`) and the per-email limit (`email:{sha256 of the address}`). One row per
 * key and window; rows whose window ended are reused in place or swept.
 */
export const rateLimitHits = pgTable(
  'rate_limit_hits',
  {
    key: text('key').primaryKey(),
    hits: integer('hits').notNull(),
    windowEndsAt: timestamp('window_ends_at', { withTimezone: true }).notNull(),
  },
  (table) => [index('rate_limit_hits_window_idx').on(table.windowEndsAt)],
);

// ---------------------------------------------------------------------------------------------
// Operator console (issue 13; ADR 120–124): operators, their append-only audit trail, and the
// channel each cancellation came through
// ---------------------------------------------------------------------------------------------

/**
 * Operators of the business, apart from customers: an email listed here may open `/{slug}/admin`
 * after the ordinary email-code sign-in. Added by `npm run operator:add -- <email>`.
 */
export const operators = pgTable('operators', {
  email: text('email').primaryKey(),
  addedBy: text('added_by').notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
  /** viewer, support or owner (ADR 150); operators added before roles existed are owners. */
  role: text('role').$type<OperatorRole>().notNull().default('support'),
  /** The authenticator (TOTP) secret, sealed (ADR 151): never readable at rest. Null: none yet. */
  totpSealed: text('totp_sealed'),
  /** When the operator confirmed the secret with a first code; null while it is not confirmed. */
  totpEnrolledAt: timestamp('totp_enrolled_at', { withTimezone: true }),
  /** The last TOTP time step accepted: a code is never accepted twice. */
  totpLastStep: bigint('totp_last_step', { mode: 'number' }),
});

/**
 * Operator sessions that passed the second factor (ADR 151): one row per better-auth session, gone
 * with the session. The console refuses an operator session without a row, idle past
 * OPERATOR_IDLE_MS or older than OPERATOR_SESSION_MAX_MS.
 */
export const operatorSessionFactors = pgTable('operator_session_factors', {
  sessionId: text('session_id')
    .primaryKey()
    .references(() => authSessions.id, { onDelete: 'cascade' }),
  operatorEmail: text('operator_email').notNull(),
  verifiedAt: timestamp('verified_at', { withTimezone: true }).notNull(),
  lastSeenAt: timestamp('last_seen_at', { withTimezone: true }).notNull(),
});

/**
 * One row per operator action (who, when, what, on which customer). Append-only: the repository
 * only inserts and reads, and a trigger (migration 'admin_audit_append_only') refuses UPDATE and DELETE.
 */
export const adminAudit = pgTable(
  'admin_audit',
  {
    id: uuid('id').primaryKey(),
    operatorEmail: text('operator_email').notNull(),
    action: text('action').notNull(),
    customerEmail: text('customer_email'),
    subscriptionId: uuid('subscription_id'),
    detail: jsonb('detail').$type<Record<string, string | number | boolean | null>>().notNull().default({}),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
  },
  (table) => [index('admin_audit_created_idx').on(table.createdAt), index('admin_audit_customer_idx').on(table.customerEmail)],
);

/** How a subscription was canceled (email code, one-click link, account, by id, operator) and why. */
export const cancellationChannels = pgTable(
  'cancellation_channels',
  {
    subscriptionId: uuid('subscription_id').primaryKey(),
    channel: text('channel').notNull(),
    reason: text('reason').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
  },
  (table) => [index('cancellation_channels_created_idx').on(table.createdAt)],
);

/**
 * Funnel step counts per finished UTC day, step event and attribution value (dimension `day`,
 * `campaign`, `media_source`, `country`, `variant`), rolled up from `funnel_events` by the
 * operator console so its funnel reads a few thousand rows instead of every event (ADR 122).
 */
export const funnelDailyCounts = pgTable(
  'funnel_daily_counts',
  {
    day: date('day', { mode: 'string' }).notNull(),
    name: text('name').notNull(),
    dimension: text('dimension').notNull(),
    value: text('value').notNull(),
    count: integer('count').notNull(),
  },
  (table) => [primaryKey({ columns: [table.day, table.dimension, table.value, table.name] })],
);

/**
 * The quality view's report counts (issue 36; ADR 199), kept by the database: a trigger on
 * `reports` (migration 0021) adds a +1 row for each report made and a −1/+1 pair each time a
 * report's status, error code or model version changes or the report is deleted, keyed by the UTC
 * day the report was made. Rows are only ever inserted (no writer waits on another); the reader
 * sums them, and `compact_report_quality_counts()` folds each key's rows into one now and then.
 */
export const reportStatusCounts = pgTable(
  'report_status_counts',
  {
    day: date('day', { mode: 'string' }).notNull(),
    status: text('status').notNull(),
    errorCode: text('error_code'),
    /** The result's `modelVersion` (null until the report has a result). */
    modelVersion: text('model_version'),
    count: integer('count').notNull(),
  },
  (table) => [index('report_status_counts_day_idx').on(table.day)],
);

/**
 * The same for the feedback on reports (the `report-feedback` funnel events): answers per UTC day
 * of the answer and whether it said the report looks correct, kept by a trigger on `funnel_events`.
 */
export const reportFeedbackCounts = pgTable(
  'report_feedback_counts',
  {
    day: date('day', { mode: 'string' }).notNull(),
    looksCorrect: boolean('looks_correct').notNull(),
    count: integer('count').notNull(),
  },
  (table) => [index('report_feedback_counts_day_idx').on(table.day)],
);

/**
 * The last UTC day rolled up into `funnel_daily_counts` (one row, id 1), and how far today is: the
 * first arrivals of today's events before `partial_through` are already added to today's counts
 * (ADR 198); the finished day's roll-up replaces them.
 */
export const funnelRollupState = pgTable('funnel_rollup_state', {
  id: integer('id').primaryKey(),
  rolledThrough: date('rolled_through', { mode: 'string' }),
  partialDay: date('partial_day', { mode: 'string' }),
  partialThrough: timestamp('partial_through', { withTimezone: true }),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull(),
});

/**
 * The charge ledger of finished days grouped as the revenue view reads it (ADR 157): per UTC day of
 * the attempt, kind, the purchase's plan and agreed terms, add-on or main purchase, automatic refund
 * (no purchase), period, status and retry. A day is rolled once none of its attempts is pending
 * (settled attempts never change: refunds are rows of their own); re-rolling replaces its groups.
 */
export const chargeDailyGroups = pgTable(
  'charge_daily_groups',
  {
    day: date('day', { mode: 'string' }).notNull(),
    kind: text('kind').$type<ChargeKind>().notNull(),
    planId: text('plan_id').notNull(),
    agreedTerms: jsonb('agreed_terms').$type<AgreedTerms>(),
    addon: boolean('addon').notNull(),
    automatic: boolean('automatic').notNull(),
    period: integer('period').notNull(),
    status: text('status').$type<ChargeStatus>().notNull(),
    retry: boolean('retry').notNull(),
    count: integer('count').notNull(),
    amountMinor: bigint('amount_minor', { mode: 'number' }).notNull(),
  },
  (table) => [index('charge_daily_groups_day_idx').on(table.day)],
);

/** The last UTC day rolled up into `charge_daily_groups` whole, and how far the day after it is (one row, id 1). */
export const chargeRollupState = pgTable('charge_rollup_state', {
  id: integer('id').primaryKey(),
  rolledThrough: date('rolled_through', { mode: 'string' }),
  /** The day after `rolled_through`, rolled from its start up to `partial_through` (ADR 200). */
  partialDay: date('partial_day', { mode: 'string' }),
  partialThrough: timestamp('partial_through', { withTimezone: true }),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull(),
});

/** The columns `subscription_counts` and `subscription_count_deltas` count purchases by (ADR 200). */
function subscriptionCountColumns() {
  return {
    planId: text('plan_id').notNull(),
    agreedTerms: jsonb('agreed_terms').$type<AgreedTerms>(),
    addon: boolean('addon').notNull(),
    status: text('status').$type<SubscriptionStatus>().notNull(),
    currentPeriod: integer('current_period').notNull(),
    createdDay: date('created_day', { mode: 'string' }).notNull(),
    endedDay: date('ended_day', { mode: 'string' }),
    canceledDay: date('canceled_day', { mode: 'string' }),
    paidPeriods: integer('paid_periods').notNull(),
    /** The first day of the month period 0 was paid in. */
    paid0Month: date('paid0_month', { mode: 'string' }),
    paid1Day: date('paid1_day', { mode: 'string' }),
    channel: text('channel'),
    reason: text('reason'),
    count: integer('count').notNull(),
  };
}

/**
 * How many purchases share each combination of what the revenue and Plans views read (ADR 200): plan
 * and agreed terms, add-on or main, status, period, the UTC days it was made, canceled and ended, the
 * periods paid and when periods 0 and 1 were, and its cancellation channel and reason. Kept by the
 * database: triggers on `subscriptions` and `cancellation_channels` append a -1 row for what a
 * purchase was and a +1 row for what it is to `subscription_count_deltas`, and the console folds those
 * into this table (`foldPurchaseCounts`, every billing tick and before each read). A figure is the sum of both.
 */
export const subscriptionCounts = pgTable('subscription_counts', subscriptionCountColumns(), (table) => [
  unique('subscription_counts_key_unique')
    .on(
      table.planId,
      table.agreedTerms,
      table.addon,
      table.status,
      table.currentPeriod,
      table.createdDay,
      table.endedDay,
      table.canceledDay,
      table.paidPeriods,
      table.paid0Month,
      table.paid1Day,
      table.channel,
      table.reason,
    )
    .nullsNotDistinct(),
]);

/** What changed in `subscription_counts` since it was last folded (written by triggers only; ADR 200). */
export const subscriptionCountDeltas = pgTable('subscription_count_deltas', subscriptionCountColumns());

/** Where the product learned of a declined first payment: the gateway's webhook or the sweep's listing. */
export type PaymentFailureSource = 'webhook' | 'sweep';

/**
 * The checkout sessions the product opened (issue 25): which plan, and the shopper's email masked
 * (`lib/mask`'s maskEmail: first letter, domain and a short hash) when the page named one. A declined
 * first payment never reaches a purchase request, so this is how its record says whose it was.
 */
export const checkoutSessions = pgTable(
  'checkout_sessions',
  {
    executionId: text('execution_id').primaryKey(),
    planId: text('plan_id').notNull(),
    maskedEmail: text('masked_email'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
  },
  (table) => [index('checkout_sessions_created_idx').on(table.createdAt)],
);

/**
 * Declined first payments at the checkout (issue 25), one row per gateway execution however often
 * the product hears of it. Card data: the network and last four only.
 */
export const failedFirstPayments = pgTable(
  'failed_first_payments',
  {
    executionId: text('execution_id').primaryKey(),
    planId: text('plan_id'),
    maskedEmail: text('masked_email'),
    amountMinor: integer('amount_minor').notNull(),
    currency: text('currency').notNull(),
    declineCode: text('decline_code').notNull(),
    /** The gateway's own words for the decline (what the shopper saw). */
    declineReason: text('decline_reason').notNull(),
    cardNetwork: text('card_network'),
    cardLast4: text('card_last4'),
    /** The execution's last change at the gateway: when it was declined. */
    failedAt: timestamp('failed_at', { withTimezone: true }).notNull(),
    source: text('source').$type<PaymentFailureSource>().notNull(),
    recordedAt: timestamp('recorded_at', { withTimezone: true }).notNull(),
  },
  (table) => [index('failed_first_payments_failed_idx').on(table.failedAt), index('failed_first_payments_email_idx').on(table.maskedEmail)],
);

/**
 * Gateway webhooks received with a valid signature (issue 25), one row per event id: a redelivery
 * counts up `deliveries` and keeps the latest outcome.
 */
export const gatewayWebhookEvents = pgTable(
  'gateway_webhook_events',
  {
    eventId: text('event_id').primaryKey(),
    type: text('type').notNull(),
    executionId: text('execution_id'),
    outcome: text('outcome').notNull(),
    deliveries: integer('deliveries').notNull().default(1),
    firstReceivedAt: timestamp('first_received_at', { withTimezone: true }).notNull(),
    lastReceivedAt: timestamp('last_received_at', { withTimezone: true }).notNull(),
  },
  (table) => [index('gateway_webhook_events_received_idx').on(table.lastReceivedAt)],
);

/**
 * Disputes (chargebacks) the gateway announced (`execution.disputeOpened`, ADR 158), one row per
 * gateway dispute id however often the webhook arrives; `execution.disputeUpdated` moves its status
 * forward only (ADR 181). The subscription and charge are those whose
 * succeeded charge moved the disputed money; null when no charge of ours has that execution.
 */
export const disputes = pgTable(
  'disputes',
  {
    disputeId: text('dispute_id').primaryKey(),
    executionId: text('execution_id').notNull(),
    subscriptionId: uuid('subscription_id'),
    chargeId: uuid('charge_id'),
    amountMinor: integer('amount_minor').notNull(),
    currency: text('currency').notNull(),
    reason: text('reason').notNull(),
    status: text('status').notNull(),
    evidenceDueBy: timestamp('evidence_due_by', { withTimezone: true }).notNull(),
    /** When the gateway opened it (its clock). */
    openedAt: timestamp('opened_at', { withTimezone: true }).notNull(),
    recordedAt: timestamp('recorded_at', { withTimezone: true }).notNull(),
    /** When our evidence reached the bank (the gateway's clock), once it did (ADR 181). */
    evidenceSubmittedAt: timestamp('evidence_submitted_at', { withTimezone: true }),
    /** When the dispute ended, won, lost or accepted (the gateway's clock): a lost or accepted one is a chargeback then. */
    closedAt: timestamp('closed_at', { withTimezone: true }),
  },
  (table) => [
    index('disputes_opened_idx').on(table.openedAt),
    index('disputes_subscription_idx').on(table.subscriptionId),
    index('disputes_execution_idx').on(table.executionId),
  ],
);

/**
 * Plan changes asked for in the account (issue 35, ADR 196): the subscription switches to
 * `toPlanId` at the end of its paid period, at the new plan's own renewal price, no proration. One
 * `pending` change per subscription at most; a change is `canceled` by its owner or `applied` by the
 * renewal that starts the new plan. The rows stay: they are the history of what the customer asked.
 */
export type PlanChangeStatus = 'pending' | 'canceled' | 'applied';

export const planChanges = pgTable(
  'plan_changes',
  {
    id: uuid('id').primaryKey(),
    subscriptionId: uuid('subscription_id').notNull(),
    fromPlanId: text('from_plan_id').notNull(),
    toPlanId: text('to_plan_id').notNull(),
    /** The new plan's terms as the catalog said when the customer asked (what the switch charges). */
    terms: jsonb('terms').$type<AgreedTerms>().notNull(),
    status: text('status').$type<PlanChangeStatus>().notNull(),
    /** When the switch takes effect: the end of the paid period when it was asked for. */
    effectiveAt: timestamp('effective_at', { withTimezone: true }).notNull(),
    requestedAt: timestamp('requested_at', { withTimezone: true }).notNull(),
    consentIp: text('consent_ip').notNull(),
    consentUserAgent: text('consent_user_agent').notNull(),
    settledAt: timestamp('settled_at', { withTimezone: true }),
  },
  (table) => [
    uniqueIndex('plan_changes_one_pending')
      .on(table.subscriptionId)
      .where(sql`status = 'pending'`),
    index('plan_changes_subscription_idx').on(table.subscriptionId),
  ],
);
