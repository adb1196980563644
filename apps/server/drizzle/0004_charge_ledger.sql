DROP INDEX "charges_attempt_unique";--> statement-breakpoint
DROP INDEX "charges_one_success_per_period";--> statement-breakpoint
ALTER TABLE "charges" ADD COLUMN "parent_subscription_id" uuid;--> statement-breakpoint
ALTER TABLE "charges" ADD COLUMN "plan_id" text;--> statement-breakpoint
ALTER TABLE "charges" ADD COLUMN "refund_of_charge_id" uuid;--> statement-breakpoint
ALTER TABLE "charges" ADD COLUMN "gateway_refund_id" text;--> statement-breakpoint
-- Carry the old rows over (ADR 105). Kinds get their ledger names.
UPDATE "charges" SET "kind" = 'first' WHERE "kind" = 'initial';--> statement-breakpoint
UPDATE "charges" SET "kind" = 'add-on' WHERE "kind" = 'addon';--> statement-breakpoint
UPDATE "charges" AS c SET "plan_id" = s."plan_id", "parent_subscription_id" = s."parent_id"
  FROM "subscriptions" AS s WHERE s."id" = c."subscription_id";--> statement-breakpoint
-- An add-on whose subscription was never written (its process died after the charge) named its
-- parent and plan only in its key `addon:{parent}:{plan}`: read once here, never again by code.
UPDATE "charges" SET "parent_subscription_id" = split_part("idempotency_key", ':', 2)::uuid, "plan_id" = split_part("idempotency_key", ':', 3)
  WHERE "kind" = 'add-on' AND "plan_id" IS NULL AND "idempotency_key" ~ '^addon:[0-9a-f-]{36}:[^:]+';--> statement-breakpoint
UPDATE "charges" SET "plan_id" = '' WHERE "plan_id" IS NULL;--> statement-breakpoint
ALTER TABLE "charges" ALTER COLUMN "plan_id" SET NOT NULL;--> statement-breakpoint
-- Refunds become ledger rows of kind 'refund' (key as the refund was sent: `refund:{charge id}`).
INSERT INTO "charges" ("id", "kind", "subscription_id", "plan_id", "period", "attempt", "refund_of_charge_id", "idempotency_key",
    "amount_minor", "currency", "status", "execution_id", "gateway_refund_id", "refunded_minor", "created_at", "updated_at")
  SELECT r."id", 'refund', r."subscription_id", c."plan_id", c."period", 0, r."charge_id", 'refund:' || r."charge_id",
    r."amount_minor", c."currency", 'succeeded', c."execution_id", r."gateway_refund_id", 0, r."created_at", r."created_at"
  FROM "refunds" AS r JOIN "charges" AS c ON c."id" = r."charge_id"
  ON CONFLICT DO NOTHING;--> statement-breakpoint
DROP TABLE "refunds" CASCADE;--> statement-breakpoint
CREATE UNIQUE INDEX "charges_one_refund_per_charge" ON "charges" USING btree ("refund_of_charge_id");--> statement-breakpoint
CREATE INDEX "charges_pending_idx" ON "charges" USING btree ("status","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "charges_attempt_unique" ON "charges" USING btree ("subscription_id","period","attempt") WHERE "charges"."kind" <> 'refund';--> statement-breakpoint
CREATE UNIQUE INDEX "charges_one_success_per_period" ON "charges" USING btree ("subscription_id","period") WHERE "charges"."status" = 'succeeded' and "charges"."kind" <> 'refund';
