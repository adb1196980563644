import { sql } from 'drizzle-orm';
import {
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
  /** open | completed | failed */
  state: text('state').notNull().default('open'),
  subscriptionId: uuid('subscription_id'),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull(),
});

export const subscriptions = pgTable(
  'subscriptions',
  {
    id: uuid('id').primaryKey(),
    email: text('email').notNull(),
    userId: text('user_id'),
    planId: text('plan_id').notNull(),
    /** trialing | active | past_due | canceled | expired (contracts SUBSCRIPTION_STATUSES). */
    status: text('status').notNull(),
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
  ],
);

/**
 * One row per charge attempt. The first attempt of period n carries the idempotency key
 * `sub:{id}:period:{n}`; a retry after a soft decline `sub:{id}:period:{n}:retry:{k}`. At most one
 * attempt per (subscription, period) may succeed (partial unique index).
 */
export const charges = pgTable(
  'charges',
  {
    id: uuid('id').primaryKey(),
    subscriptionId: uuid('subscription_id').notNull(),
    period: integer('period').notNull(),
    attempt: integer('attempt').notNull(),
    idempotencyKey: text('idempotency_key').notNull(),
    amountMinor: integer('amount_minor').notNull(),
    currency: text('currency').notNull(),
    /** pending | succeeded | failed */
    status: text('status').notNull(),
    kind: text('kind').notNull(),
    executionId: text('execution_id'),
    declineCode: text('decline_code'),
    refundedMinor: integer('refunded_minor').notNull().default(0),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull(),
  },
  (table) => [
    uniqueIndex('charges_idempotency_key_unique').on(table.idempotencyKey),
    uniqueIndex('charges_attempt_unique').on(table.subscriptionId, table.period, table.attempt),
    uniqueIndex('charges_one_success_per_period')
      .on(table.subscriptionId, table.period)
      .where(sql`${table.status} = 'succeeded'`),
  ],
);

export const refunds = pgTable(
  'refunds',
  {
    id: uuid('id').primaryKey(),
    chargeId: uuid('charge_id').notNull(),
    subscriptionId: uuid('subscription_id').notNull(),
    amountMinor: integer('amount_minor').notNull(),
    gatewayRefundId: text('gateway_refund_id'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
  },
  (table) => [uniqueIndex('refunds_charge_unique').on(table.chargeId)],
);

/** What a purchase unlocks (product-spec §6), until `expiresAt` (null: for good). */
export const accessGrants = pgTable(
  'access_grants',
  {
    id: uuid('id').primaryKey(),
    subscriptionId: uuid('subscription_id').notNull(),
    email: text('email').notNull(),
    kind: text('kind').notNull(),
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
    subject: text('subject').notNull(),
    text: text('text').notNull(),
    html: text('html').notNull(),
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
  ],
);

// ---------------------------------------------------------------------------------------------
// Sign-in and the signed-in area (issue 8; ADR 070). better-auth's four models, written by hand
// (its CLI needs Node 22): the JS keys are better-auth's field names, the columns snake_case.
// ---------------------------------------------------------------------------------------------

export const authUsers = pgTable('auth_users', {
  id: text('id').primaryKey(),
  name: text('name').notNull(),
  email: text('email').notNull().unique(),
  emailVerified: boolean('email_verified').notNull().default(false),
  image: text('image'),
  /** A disabled user is signed out on the next request (product-spec §4 'user-disabled'). */
  disabled: boolean('disabled').notNull().default(false),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull(),
});

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

/** The last UTC day rolled up into `funnel_daily_counts` (one row, id 1). */
export const funnelRollupState = pgTable('funnel_rollup_state', {
  id: integer('id').primaryKey(),
  rolledThrough: date('rolled_through', { mode: 'string' }),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull(),
});
