import { boolean, index, integer, jsonb, pgTable, primaryKey, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';

/**
 * The gateway's own storage. Card numbers, CVVs and expiry dates never appear in a column in
 * clear: `encrypted_card` is AES-256-GCM ciphertext (vault/card-cipher.ts); CVVs are never stored.
 */

/** A client session made by the merchant; its bearer token names it in `sub`. */
export const sessions = pgTable('sessions', {
  id: text('id').primaryKey(),
  holderReference: text('holder_reference').notNull(),
  orderReference: text('order_reference'),
  amountValue: integer('amount_value').notNull(),
  currency: text('currency').notNull(),
  countryCode: text('country_code').notNull(),
  paymentMethods: jsonb('payment_methods').$type<string[]>().notNull(),
  executionId: text('execution_id').notNull(),
  expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

/** Card data tokenised by the vault, waiting to become an instrument (valid 15 minutes, used once). */
export const vaultTokens = pgTable('vault_tokens', {
  id: text('id').primaryKey(),
  sessionId: text('session_id').notNull(),
  encryptedCard: text('encrypted_card').notNull(),
  network: text('network').notNull(),
  bin: text('bin').notNull(),
  last4: text('last4').notNull(),
  usedAt: timestamp('used_at', { withTimezone: true }),
  expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

export const instruments = pgTable(
  'instruments',
  {
    id: text('id').primaryKey(),
    holderReference: text('holder_reference').notNull(),
    status: text('status').notNull(),
    futureUsage: text('future_usage').notNull(),
    encryptedCard: text('encrypted_card').notNull(),
    network: text('network'),
    bin: text('bin').notNull(),
    last4: text('last4').notNull(),
    issuerCountry: text('issuer_country').notNull(),
    /** The processor's own reference of the stored card (e.g. Adyen's storedPaymentMethodId); never card data. */
    processorToken: jsonb('processor_token').$type<ProcessorToken>(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index('instruments_holder_idx').on(table.holderReference)],
);

/** A stored card's reference at a real processor: what a merchant-initiated charge sends instead of the card. */
export type ProcessorToken = { processor: string; storedPaymentMethodId: string; shopperReference: string };

/**
 * 3-D Secure challenge state of an execution: the sandbox's one-time code (nonce, attempts), or a
 * real processor's redirect (the issuer's page the gateway's challenge page forwards the shopper to).
 */
export type ChallengeState = {
  nonce: string;
  attemptsLeft: number;
  redirect?: { url: string; method: 'GET' | 'POST'; data?: Record<string, string> };
};

/**
 * Where an execution stands at a real processor (never card data): its reference, the attempt
 * number its idempotency keys derive from, and `unknown` while no answer was had (timeouts, 5xx):
 * such an execution is settled later by reading it.
 */
export type ProcessorState = {
  processor: string;
  attempt: number;
  pspReference?: string;
  unknown?: boolean;
  /** The merchant's idempotency key of a merchant-initiated charge (hashed): its retry finds this execution. */
  chargeKey?: string;
  /** The shopper asked to store the card at the processor. */
  storeInstrument?: boolean;
  /** Why a merchant-initiated charge was made (renewal or one-click add-on). */
  reason?: 'recurring' | 'unscheduled';
};

/**
 * What a `confirmRequested` execution waits for: the PayPal order (and billing agreement token)
 * or Google payment data. `approval` is set when the buyer approves on the PayPal sandbox page.
 */
export type ConfirmAction = {
  type: string;
  parameters: Record<string, string>;
  approval?: { payerId: string; approvedAt: string };
};

/** Outcome decided at authorize and applied when the pending step completes; pix expiry. */
export type PlannedOutcome = { declineCode?: string; expiresAt?: string };

/** A merchant's answer to a dispute: its text and the dated facts of the customer's history it attached. */
export type DisputeEvidence = { text: string; timeline: { at: string; kind: string; detail: string }[] };

export const executions = pgTable(
  'executions',
  {
    id: text('id').primaryKey(),
    sessionId: text('session_id'),
    holderReference: text('holder_reference').notNull(),
    orderReference: text('order_reference'),
    amountValue: integer('amount_value').notNull(),
    currency: text('currency').notNull(),
    status: text('status').notNull(),
    paymentMethodCode: text('payment_method_code'),
    integrationType: text('integration_type'),
    instrumentId: text('instrument_id'),
    merchantInitiated: boolean('merchant_initiated').notNull().default(false),
    /** Outcome decided at authorize, applied when the pending step completes (slow auth, 3DS, confirm). */
    plannedOutcome: jsonb('planned_outcome').$type<PlannedOutcome>(),
    pollsRemaining: integer('polls_remaining').notNull().default(0),
    returnInfo: jsonb('return_info').$type<Record<string, string>>(),
    finalState: jsonb('final_state').$type<{ code: string; errors: unknown[] }>(),
    confirmAction: jsonb('confirm_action').$type<ConfirmAction>(),
    challenge: jsonb('challenge').$type<ChallengeState>(),
    amountRefunded: integer('amount_refunded').notNull().default(0),
    /** State at a real processor (null with the sandbox). */
    processor: jsonb('processor').$type<ProcessorState>(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index('executions_session_idx').on(table.sessionId)],
);

export const refunds = pgTable('refunds', {
  id: text('id').primaryKey(),
  executionId: text('execution_id').notNull(),
  amountValue: integer('amount_value').notNull(),
  currency: text('currency').notNull(),
  reason: text('reason'),
  /** The processor's reference of the refund (Adyen's pspReference); null with the sandbox. */
  processorReference: text('processor_reference'),
  /** `succeeded`, or `failed` when the processor reports afterwards that it could not refund. */
  status: text('status').notNull().default('succeeded'),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

/** Processor notifications already processed (Adyen's eventCode, pspReference, success): each is applied once. */
export const processorEvents = pgTable('processor_events', {
  id: text('id').primaryKey(),
  processor: text('processor').notNull(),
  receivedAt: timestamp('received_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * Disputes (chargebacks) opened on successful executions, at most one per execution, for the whole
 * amount. The sandbox opens one right after a payment with the dispute test card succeeds; its
 * status moves only through the disputes module's state machine (ADR 181).
 */
export const disputes = pgTable(
  'disputes',
  {
    id: text('id').primaryKey(),
    executionId: text('execution_id').notNull(),
    amountValue: integer('amount_value').notNull(),
    currency: text('currency').notNull(),
    reason: text('reason').notNull(),
    status: text('status').notNull(),
    evidenceDueBy: timestamp('evidence_due_by', { withTimezone: true }).notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    /** The merchant's answer: its text and the customer's dated history it attached. */
    evidence: jsonb('evidence').$type<DisputeEvidence>(),
    evidenceSubmittedAt: timestamp('evidence_submitted_at', { withTimezone: true }),
    closedAt: timestamp('closed_at', { withTimezone: true }),
  },
  (table) => [uniqueIndex('disputes_execution_idx').on(table.executionId)],
);

/** First answer per (credential scope, idempotency key); replayed for a repeated key. */
export const idempotencyRecords = pgTable(
  'idempotency_records',
  {
    scope: text('scope').notNull(),
    key: text('key').notNull(),
    requestHash: text('request_hash').notNull(),
    /** null while the first request runs. */
    statusCode: integer('status_code'),
    responseBody: text('response_body'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [primaryKey({ columns: [table.scope, table.key] })],
);

/** Webhook outbox: one row per (event, URL); a worker delivers with exponential back-off. */
export const webhookDeliveries = pgTable(
  'webhook_deliveries',
  {
    id: text('id').primaryKey(),
    eventId: text('event_id').notNull(),
    eventType: text('event_type').notNull(),
    url: text('url').notNull(),
    payload: text('payload').notNull(),
    status: text('status').notNull(),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }).notNull().defaultNow(),
    lastError: text('last_error'),
    deliveredAt: timestamp('delivered_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index('webhook_deliveries_due_idx').on(table.status, table.nextAttemptAt)],
);

/** One field of a vault record: its token, the value encrypted, and a keyed hash for upsert lookups. */
export type VaultRecordField = { token: string; sealed: string; hash: string };

/**
 * Values of the non-card collect elements (`POST /vault/v1/records`), per shopper: never in clear
 * (AES-256-GCM, like cards), each field with its own token.
 */
export const vaultRecords = pgTable(
  'vault_records',
  {
    id: text('id').primaryKey(),
    holderReference: text('holder_reference').notNull(),
    sessionId: text('session_id').notNull(),
    tableName: text('table_name').notNull(),
    fields: jsonb('fields').$type<Record<string, VaultRecordField>>().notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index('vault_records_holder_table_idx').on(table.holderReference, table.tableName)],
);
