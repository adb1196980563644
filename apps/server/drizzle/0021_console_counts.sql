CREATE TABLE "subscription_count_deltas" (
	"plan_id" text NOT NULL,
	"agreed_terms" jsonb,
	"addon" boolean NOT NULL,
	"status" text NOT NULL,
	"current_period" integer NOT NULL,
	"created_day" date NOT NULL,
	"ended_day" date,
	"canceled_day" date,
	"paid_periods" integer NOT NULL,
	"paid0_month" date,
	"paid1_day" date,
	"channel" text,
	"reason" text,
	"count" integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE "subscription_counts" (
	"plan_id" text NOT NULL,
	"agreed_terms" jsonb,
	"addon" boolean NOT NULL,
	"status" text NOT NULL,
	"current_period" integer NOT NULL,
	"created_day" date NOT NULL,
	"ended_day" date,
	"canceled_day" date,
	"paid_periods" integer NOT NULL,
	"paid0_month" date,
	"paid1_day" date,
	"channel" text,
	"reason" text,
	"count" integer NOT NULL,
	CONSTRAINT "subscription_counts_key_unique" UNIQUE NULLS NOT DISTINCT("plan_id","agreed_terms","addon","status","current_period","created_day","ended_day","canceled_day","paid_periods","paid0_month","paid1_day","channel","reason")
);
--> statement-breakpoint
ALTER TABLE "charge_rollup_state" ADD COLUMN "partial_day" date;--> statement-breakpoint
ALTER TABLE "charge_rollup_state" ADD COLUMN "partial_through" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "funnel_rollup_state" ADD COLUMN "partial_day" date;--> statement-breakpoint
ALTER TABLE "funnel_rollup_state" ADD COLUMN "partial_through" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "funnel_events_visit_idx" ON "funnel_events" USING btree (coalesce("attribution"->>'visit_id', "id"::text),"name","created_at");--> statement-breakpoint
CREATE INDEX "subscriptions_main_plan_created_idx" ON "subscriptions" USING btree ("plan_id","created_at") WHERE "subscriptions"."parent_id" is null;--> statement-breakpoint
-- Hand-written below (ADR 200): the triggers that keep subscription_counts, and its first fill.
-- What one purchase adds to the counts (delta +1) or takes away (delta -1), with its cancellation channel and reason.
CREATE FUNCTION "subscription_counts_add"(s "subscriptions", channel text, reason text, delta integer) RETURNS void
LANGUAGE sql AS $$
  INSERT INTO "subscription_count_deltas" ("plan_id", "agreed_terms", "addon", "status", "current_period", "created_day", "ended_day",
    "canceled_day", "paid_periods", "paid0_month", "paid1_day", "channel", "reason", "count")
  VALUES (s.plan_id, s.agreed_terms, s.parent_id IS NOT NULL, s.status, s.current_period, (s.created_at AT TIME ZONE 'UTC')::date,
    (s.ended_at AT TIME ZONE 'UTC')::date, (s.canceled_at AT TIME ZONE 'UTC')::date, s.paid_periods,
    date_trunc('month', s.period0_paid_at AT TIME ZONE 'UTC')::date, (s.period1_paid_at AT TIME ZONE 'UTC')::date, channel, reason, delta)
$$;
--> statement-breakpoint
-- A purchase made, changed or deleted: what it was leaves the counts, what it is joins them.
CREATE FUNCTION "subscription_counts_on_subscription"() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
  stop_channel text;
  stop_reason text;
BEGIN
  SELECT cc.channel, cc.reason INTO stop_channel, stop_reason FROM "cancellation_channels" cc
    WHERE cc.subscription_id = (CASE WHEN TG_OP = 'DELETE' THEN OLD.id ELSE NEW.id END);
  IF TG_OP <> 'INSERT' THEN PERFORM "subscription_counts_add"(OLD, stop_channel, stop_reason, -1); END IF;
  IF TG_OP <> 'DELETE' THEN PERFORM "subscription_counts_add"(NEW, stop_channel, stop_reason, 1); END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
-- A cancellation channel recorded, changed or removed: the purchase moves from its old channel to its new one.
-- The purchase's row is locked first, so a change of the purchase running beside it is counted before or after, never lost.
CREATE FUNCTION "subscription_counts_on_channel"() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
  purchase "subscriptions";
BEGIN
  SELECT * INTO purchase FROM "subscriptions"
    WHERE id = (CASE WHEN TG_OP = 'DELETE' THEN OLD.subscription_id ELSE NEW.subscription_id END) FOR UPDATE;
  IF NOT FOUND THEN RETURN NULL; END IF;
  IF TG_OP = 'INSERT' THEN PERFORM "subscription_counts_add"(purchase, NULL, NULL, -1);
  ELSE PERFORM "subscription_counts_add"(purchase, OLD.channel, OLD.reason, -1); END IF;
  IF TG_OP = 'DELETE' THEN PERFORM "subscription_counts_add"(purchase, NULL, NULL, 1);
  ELSE PERFORM "subscription_counts_add"(purchase, NEW.channel, NEW.reason, 1); END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER "subscription_counts_insert_delete" AFTER INSERT OR DELETE ON "subscriptions"
  FOR EACH ROW EXECUTE FUNCTION "subscription_counts_on_subscription"();
--> statement-breakpoint
-- Most updates (a lease, the next due time, a reminder) change nothing counted and add nothing.
CREATE TRIGGER "subscription_counts_update" AFTER UPDATE ON "subscriptions"
  FOR EACH ROW WHEN ((OLD.plan_id, OLD.agreed_terms, OLD.parent_id, OLD.status, OLD.current_period, OLD.created_at, OLD.ended_at,
    OLD.canceled_at, OLD.paid_periods, OLD.period0_paid_at, OLD.period1_paid_at)
    IS DISTINCT FROM (NEW.plan_id, NEW.agreed_terms, NEW.parent_id, NEW.status, NEW.current_period, NEW.created_at, NEW.ended_at,
    NEW.canceled_at, NEW.paid_periods, NEW.period0_paid_at, NEW.period1_paid_at))
  EXECUTE FUNCTION "subscription_counts_on_subscription"();
--> statement-breakpoint
CREATE TRIGGER "subscription_counts_channel" AFTER INSERT OR UPDATE OR DELETE ON "cancellation_channels"
  FOR EACH ROW EXECUTE FUNCTION "subscription_counts_on_channel"();
--> statement-breakpoint
-- The counts counted again from the purchases themselves: this migration's fill, and a bulk load's (bench:admin) after it.
CREATE FUNCTION "subscription_counts_rebuild"() RETURNS void
LANGUAGE sql AS $$
  DELETE FROM "subscription_count_deltas";
  DELETE FROM "subscription_counts";
  INSERT INTO "subscription_counts" ("plan_id", "agreed_terms", "addon", "status", "current_period", "created_day", "ended_day",
    "canceled_day", "paid_periods", "paid0_month", "paid1_day", "channel", "reason", "count")
  SELECT s.plan_id, s.agreed_terms, s.parent_id IS NOT NULL, s.status, s.current_period, (s.created_at AT TIME ZONE 'UTC')::date,
    (s.ended_at AT TIME ZONE 'UTC')::date, (s.canceled_at AT TIME ZONE 'UTC')::date, s.paid_periods,
    date_trunc('month', s.period0_paid_at AT TIME ZONE 'UTC')::date, (s.period1_paid_at AT TIME ZONE 'UTC')::date, cc.channel, cc.reason,
    count(*)::int
  FROM "subscriptions" s LEFT JOIN "cancellation_channels" cc ON cc.subscription_id = s.id
  GROUP BY 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13;
$$;
--> statement-breakpoint
SELECT "subscription_counts_rebuild"();
