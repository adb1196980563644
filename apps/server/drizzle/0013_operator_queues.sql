CREATE TABLE "checkout_sessions" (
	"execution_id" text PRIMARY KEY NOT NULL,
	"plan_id" text NOT NULL,
	"masked_email" text,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "failed_first_payments" (
	"execution_id" text PRIMARY KEY NOT NULL,
	"plan_id" text,
	"masked_email" text,
	"amount_minor" integer NOT NULL,
	"currency" text NOT NULL,
	"decline_code" text NOT NULL,
	"decline_reason" text NOT NULL,
	"card_network" text,
	"card_last4" text,
	"failed_at" timestamp with time zone NOT NULL,
	"source" text NOT NULL,
	"recorded_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "gateway_webhook_events" (
	"event_id" text PRIMARY KEY NOT NULL,
	"type" text NOT NULL,
	"execution_id" text,
	"outcome" text NOT NULL,
	"deliveries" integer DEFAULT 1 NOT NULL,
	"first_received_at" timestamp with time zone NOT NULL,
	"last_received_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE INDEX "checkout_sessions_created_idx" ON "checkout_sessions" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "failed_first_payments_failed_idx" ON "failed_first_payments" USING btree ("failed_at");--> statement-breakpoint
CREATE INDEX "failed_first_payments_email_idx" ON "failed_first_payments" USING btree ("masked_email");--> statement-breakpoint
CREATE INDEX "gateway_webhook_events_received_idx" ON "gateway_webhook_events" USING btree ("last_received_at");