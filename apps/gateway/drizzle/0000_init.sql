CREATE TABLE "executions" (
	"id" text PRIMARY KEY NOT NULL,
	"session_id" text,
	"holder_reference" text NOT NULL,
	"order_reference" text,
	"amount_value" integer NOT NULL,
	"currency" text NOT NULL,
	"status" text NOT NULL,
	"payment_method_code" text,
	"integration_type" text,
	"instrument_id" text,
	"merchant_initiated" boolean DEFAULT false NOT NULL,
	"planned_outcome" jsonb,
	"polls_remaining" integer DEFAULT 0 NOT NULL,
	"return_info" jsonb,
	"final_state" jsonb,
	"confirm_action" jsonb,
	"challenge" jsonb,
	"amount_refunded" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "idempotency_records" (
	"scope" text NOT NULL,
	"key" text NOT NULL,
	"request_hash" text NOT NULL,
	"status_code" integer,
	"response_body" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "idempotency_records_scope_key_pk" PRIMARY KEY("scope","key")
);
--> statement-breakpoint
CREATE TABLE "instruments" (
	"id" text PRIMARY KEY NOT NULL,
	"holder_reference" text NOT NULL,
	"status" text NOT NULL,
	"future_usage" text NOT NULL,
	"encrypted_card" text NOT NULL,
	"network" text,
	"bin" text NOT NULL,
	"last4" text NOT NULL,
	"issuer_country" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "refunds" (
	"id" text PRIMARY KEY NOT NULL,
	"execution_id" text NOT NULL,
	"amount_value" integer NOT NULL,
	"currency" text NOT NULL,
	"reason" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sessions" (
	"id" text PRIMARY KEY NOT NULL,
	"holder_reference" text NOT NULL,
	"order_reference" text,
	"amount_value" integer NOT NULL,
	"currency" text NOT NULL,
	"country_code" text NOT NULL,
	"payment_methods" jsonb NOT NULL,
	"execution_id" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "vault_tokens" (
	"id" text PRIMARY KEY NOT NULL,
	"session_id" text NOT NULL,
	"encrypted_card" text NOT NULL,
	"network" text NOT NULL,
	"bin" text NOT NULL,
	"last4" text NOT NULL,
	"used_at" timestamp with time zone,
	"expires_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "webhook_deliveries" (
	"id" text PRIMARY KEY NOT NULL,
	"event_id" text NOT NULL,
	"event_type" text NOT NULL,
	"url" text NOT NULL,
	"payload" text NOT NULL,
	"status" text NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"next_attempt_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_error" text,
	"delivered_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX "executions_session_idx" ON "executions" USING btree ("session_id");--> statement-breakpoint
CREATE INDEX "instruments_holder_idx" ON "instruments" USING btree ("holder_reference");--> statement-breakpoint
CREATE INDEX "webhook_deliveries_due_idx" ON "webhook_deliveries" USING btree ("status","next_attempt_at");