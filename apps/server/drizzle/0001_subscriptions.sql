CREATE TABLE "access_grants" (
	"id" uuid PRIMARY KEY NOT NULL,
	"subscription_id" uuid NOT NULL,
	"email" text NOT NULL,
	"kind" text NOT NULL,
	"expires_at" timestamp with time zone,
	"revoked_at" timestamp with time zone,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "cancel_codes" (
	"id" uuid PRIMARY KEY NOT NULL,
	"email" text NOT NULL,
	"code_hash" text NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "charges" (
	"id" uuid PRIMARY KEY NOT NULL,
	"subscription_id" uuid NOT NULL,
	"period" integer NOT NULL,
	"attempt" integer NOT NULL,
	"idempotency_key" text NOT NULL,
	"amount_minor" integer NOT NULL,
	"currency" text NOT NULL,
	"status" text NOT NULL,
	"kind" text NOT NULL,
	"execution_id" text,
	"decline_code" text,
	"refunded_minor" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "emails" (
	"id" uuid PRIMARY KEY NOT NULL,
	"dedupe_key" text NOT NULL,
	"kind" text NOT NULL,
	"to_address" text NOT NULL,
	"subject" text NOT NULL,
	"text" text NOT NULL,
	"html" text NOT NULL,
	"status" text NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"claimed_until" timestamp with time zone,
	"sent_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "funnel_events" (
	"id" uuid PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"dedupe_key" text,
	"subscription_id" uuid,
	"value" numeric(12, 2),
	"attribution" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"ip" text,
	"country" text,
	"user_agent" text,
	"payload" text,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "purchase_intents" (
	"execution_id" text PRIMARY KEY NOT NULL,
	"plan_id" text NOT NULL,
	"email" text NOT NULL,
	"user_id" text,
	"attribution" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"terms_text" text NOT NULL,
	"terms_version" text NOT NULL,
	"consent_ip" text NOT NULL,
	"consent_user_agent" text NOT NULL,
	"state" text DEFAULT 'open' NOT NULL,
	"subscription_id" uuid,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "refunds" (
	"id" uuid PRIMARY KEY NOT NULL,
	"charge_id" uuid NOT NULL,
	"subscription_id" uuid NOT NULL,
	"amount_minor" integer NOT NULL,
	"gateway_refund_id" text,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "subscriptions" (
	"id" uuid PRIMARY KEY NOT NULL,
	"email" text NOT NULL,
	"user_id" text,
	"plan_id" text NOT NULL,
	"status" text NOT NULL,
	"parent_id" uuid,
	"initial_execution_id" text NOT NULL,
	"holder_reference" text NOT NULL,
	"instrument_id" text,
	"card_last4" text,
	"card_network" text,
	"current_period" integer DEFAULT 0 NOT NULL,
	"current_period_start" timestamp with time zone NOT NULL,
	"current_period_end" timestamp with time zone,
	"due_at" timestamp with time zone,
	"retry_count" integer DEFAULT 0 NOT NULL,
	"lease_until" timestamp with time zone,
	"reminder_sent_at" timestamp with time zone,
	"canceled_at" timestamp with time zone,
	"ended_at" timestamp with time zone,
	"terms_text" text NOT NULL,
	"terms_version" text NOT NULL,
	"consent_at" timestamp with time zone NOT NULL,
	"consent_ip" text NOT NULL,
	"consent_user_agent" text NOT NULL,
	"attribution" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX "access_grants_subscription_kind_unique" ON "access_grants" USING btree ("subscription_id","kind");--> statement-breakpoint
CREATE INDEX "access_grants_email_idx" ON "access_grants" USING btree ("email");--> statement-breakpoint
CREATE INDEX "cancel_codes_email_idx" ON "cancel_codes" USING btree ("email");--> statement-breakpoint
CREATE UNIQUE INDEX "charges_idempotency_key_unique" ON "charges" USING btree ("idempotency_key");--> statement-breakpoint
CREATE UNIQUE INDEX "charges_attempt_unique" ON "charges" USING btree ("subscription_id","period","attempt");--> statement-breakpoint
CREATE UNIQUE INDEX "charges_one_success_per_period" ON "charges" USING btree ("subscription_id","period") WHERE "charges"."status" = 'succeeded';--> statement-breakpoint
CREATE UNIQUE INDEX "emails_dedupe_unique" ON "emails" USING btree ("dedupe_key");--> statement-breakpoint
CREATE INDEX "emails_status_idx" ON "emails" USING btree ("status");--> statement-breakpoint
CREATE UNIQUE INDEX "funnel_events_dedupe_unique" ON "funnel_events" USING btree ("dedupe_key");--> statement-breakpoint
CREATE INDEX "funnel_events_name_idx" ON "funnel_events" USING btree ("name","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "refunds_charge_unique" ON "refunds" USING btree ("charge_id");--> statement-breakpoint
CREATE UNIQUE INDEX "subscriptions_initial_execution_unique" ON "subscriptions" USING btree ("initial_execution_id");--> statement-breakpoint
CREATE INDEX "subscriptions_email_idx" ON "subscriptions" USING btree ("email");--> statement-breakpoint
CREATE INDEX "subscriptions_due_idx" ON "subscriptions" USING btree ("due_at");