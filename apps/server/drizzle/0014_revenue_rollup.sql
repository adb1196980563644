CREATE TABLE "charge_daily_groups" (
	"day" date NOT NULL,
	"kind" text NOT NULL,
	"plan_id" text NOT NULL,
	"agreed_terms" jsonb,
	"addon" boolean NOT NULL,
	"automatic" boolean NOT NULL,
	"period" integer NOT NULL,
	"status" text NOT NULL,
	"retry" boolean NOT NULL,
	"count" integer NOT NULL,
	"amount_minor" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "charge_rollup_state" (
	"id" integer PRIMARY KEY NOT NULL,
	"rolled_through" date,
	"updated_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "subscriptions" ADD COLUMN "paid_periods" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "subscriptions" ADD COLUMN "period0_paid_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "subscriptions" ADD COLUMN "period1_paid_at" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "charge_daily_groups_day_idx" ON "charge_daily_groups" USING btree ("day");--> statement-breakpoint
CREATE INDEX "charges_created_idx" ON "charges" USING btree ("created_at");--> statement-breakpoint
-- Purchases made before this migration: their paid periods from the charge ledger (ADR 157).
UPDATE "subscriptions" s SET "paid_periods" = paid."periods", "period0_paid_at" = paid."at0", "period1_paid_at" = paid."at1"
FROM (
	SELECT "subscription_id", bit_or(1 << least("period", 30)) AS "periods",
	       min("created_at") FILTER (WHERE "period" = 0) AS "at0", min("created_at") FILTER (WHERE "period" = 1) AS "at1"
	FROM "charges"
	WHERE "kind" <> 'refund' AND "status" = 'succeeded' AND "subscription_id" IS NOT NULL
	GROUP BY "subscription_id"
) paid
WHERE paid."subscription_id" = s."id";
