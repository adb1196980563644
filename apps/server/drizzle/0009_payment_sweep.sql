CREATE TABLE "payment_sweep_state" (
	"id" integer PRIMARY KEY NOT NULL,
	"watermark" timestamp with time zone,
	"lease_token" text,
	"lease_until" timestamp with time zone,
	"last_run_at" timestamp with time zone,
	"updated_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "unmatched_payments" (
	"execution_id" text PRIMARY KEY NOT NULL,
	"amount_minor" integer NOT NULL,
	"currency" text NOT NULL,
	"order_reference" text,
	"paid_at" timestamp with time zone NOT NULL,
	"status" text NOT NULL,
	"refund_charge_id" uuid,
	"first_seen_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "charges" ALTER COLUMN "subscription_id" DROP NOT NULL;--> statement-breakpoint
CREATE INDEX "unmatched_payments_status_idx" ON "unmatched_payments" USING btree ("status","paid_at");