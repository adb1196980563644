CREATE TABLE "report_feedback_counts" (
	"day" date NOT NULL,
	"looks_correct" boolean NOT NULL,
	"count" integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE "report_status_counts" (
	"day" date NOT NULL,
	"status" text NOT NULL,
	"error_code" text,
	"model_version" text,
	"count" integer NOT NULL
);
--> statement-breakpoint
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
CREATE INDEX "report_feedback_counts_day_idx" ON "report_feedback_counts" USING btree ("day");--> statement-breakpoint
CREATE INDEX "report_status_counts_day_idx" ON "report_status_counts" USING btree ("day");--> statement-breakpoint
CREATE INDEX "funnel_events_visit_idx" ON "funnel_events" USING btree (coalesce("attribution"->>'visit_id', "id"::text),"name","created_at");--> statement-breakpoint
CREATE INDEX "subscriptions_main_plan_created_idx" ON "subscriptions" USING btree ("plan_id","created_at") WHERE "subscriptions"."parent_id" is null;--> statement-breakpoint
-- Hand-written (issue 36; ADR 199): the triggers that keep report_status_counts and
-- report_feedback_counts, the compaction and rebuild functions, and the backfill of the rows
-- already there. Each change writes new +1/−1 rows and never updates one, so concurrent writers
-- never wait on a shared counter row.
--
-- Whether a feedback payload says the report looks correct, as the quality view always read it
-- (`payload::jsonb ->> 'looks_correct'` is 'true'); a payload that is not JSON (or none) says no.
CREATE FUNCTION report_feedback_looks_correct(payload text) RETURNS boolean LANGUAGE plpgsql IMMUTABLE AS $$
BEGIN
  IF payload IS NULL THEN
    RETURN false;
  END IF;
  RETURN coalesce((payload::jsonb ->> 'looks_correct') = 'true', false);
EXCEPTION WHEN data_exception THEN
  RETURN false;
END $$;--> statement-breakpoint
CREATE FUNCTION report_status_counts_track() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP <> 'INSERT' THEN
    INSERT INTO report_status_counts (day, status, error_code, model_version, count)
    VALUES ((OLD.created_at AT TIME ZONE 'UTC')::date, OLD.status, OLD.error_code, OLD.result ->> 'modelVersion', -1);
  END IF;
  IF TG_OP <> 'DELETE' THEN
    INSERT INTO report_status_counts (day, status, error_code, model_version, count)
    VALUES ((NEW.created_at AT TIME ZONE 'UTC')::date, NEW.status, NEW.error_code, NEW.result ->> 'modelVersion', 1);
  END IF;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE FUNCTION report_feedback_counts_track() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP <> 'INSERT' AND OLD.name = 'report-feedback' THEN
    INSERT INTO report_feedback_counts (day, looks_correct, count)
    VALUES ((OLD.created_at AT TIME ZONE 'UTC')::date, report_feedback_looks_correct(OLD.payload), -1);
  END IF;
  IF TG_OP <> 'DELETE' AND NEW.name = 'report-feedback' THEN
    INSERT INTO report_feedback_counts (day, looks_correct, count)
    VALUES ((NEW.created_at AT TIME ZONE 'UTC')::date, report_feedback_looks_correct(NEW.payload), 1);
  END IF;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE FUNCTION report_quality_counts_clear() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_TABLE_NAME = 'reports' THEN
    DELETE FROM report_status_counts;
  ELSE
    DELETE FROM report_feedback_counts;
  END IF;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER report_status_counts_on_insert AFTER INSERT ON reports
  FOR EACH ROW EXECUTE FUNCTION report_status_counts_track();--> statement-breakpoint
CREATE TRIGGER report_status_counts_on_update AFTER UPDATE ON reports
  FOR EACH ROW WHEN (
    OLD.status IS DISTINCT FROM NEW.status
    OR OLD.error_code IS DISTINCT FROM NEW.error_code
    OR (OLD.result ->> 'modelVersion') IS DISTINCT FROM (NEW.result ->> 'modelVersion')
    OR (OLD.created_at AT TIME ZONE 'UTC')::date IS DISTINCT FROM (NEW.created_at AT TIME ZONE 'UTC')::date
  ) EXECUTE FUNCTION report_status_counts_track();--> statement-breakpoint
CREATE TRIGGER report_status_counts_on_delete AFTER DELETE ON reports
  FOR EACH ROW EXECUTE FUNCTION report_status_counts_track();--> statement-breakpoint
CREATE TRIGGER report_status_counts_on_truncate AFTER TRUNCATE ON reports
  FOR EACH STATEMENT EXECUTE FUNCTION report_quality_counts_clear();--> statement-breakpoint
CREATE TRIGGER report_feedback_counts_on_insert AFTER INSERT ON funnel_events
  FOR EACH ROW WHEN (NEW.name = 'report-feedback') EXECUTE FUNCTION report_feedback_counts_track();--> statement-breakpoint
CREATE TRIGGER report_feedback_counts_on_update AFTER UPDATE ON funnel_events
  FOR EACH ROW WHEN (
    (OLD.name = 'report-feedback' OR NEW.name = 'report-feedback') AND (
      OLD.name IS DISTINCT FROM NEW.name
      OR OLD.payload IS DISTINCT FROM NEW.payload
      OR (OLD.created_at AT TIME ZONE 'UTC')::date IS DISTINCT FROM (NEW.created_at AT TIME ZONE 'UTC')::date
    )
  ) EXECUTE FUNCTION report_feedback_counts_track();--> statement-breakpoint
CREATE TRIGGER report_feedback_counts_on_delete AFTER DELETE ON funnel_events
  FOR EACH ROW WHEN (OLD.name = 'report-feedback') EXECUTE FUNCTION report_feedback_counts_track();--> statement-breakpoint
CREATE TRIGGER report_feedback_counts_on_truncate AFTER TRUNCATE ON funnel_events
  FOR EACH STATEMENT EXECUTE FUNCTION report_quality_counts_clear();--> statement-breakpoint
-- Folds each day's rows into one per key (dropping keys that sum to zero) in one statement: rows
-- written meanwhile are outside its snapshot and stay as they are. One compaction at a time.
CREATE FUNCTION compact_report_quality_counts() RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  IF NOT pg_try_advisory_xact_lock(hashtext('compact_report_quality_counts')) THEN
    RETURN;
  END IF;
  WITH folded AS (
    DELETE FROM report_status_counts
    WHERE day IN (SELECT day FROM report_status_counts GROUP BY day, status, error_code, model_version
                  HAVING count(*) > 1 OR sum(count) = 0)
    RETURNING *
  )
  INSERT INTO report_status_counts (day, status, error_code, model_version, count)
  SELECT day, status, error_code, model_version, sum(count) FROM folded
  GROUP BY day, status, error_code, model_version HAVING sum(count) <> 0;
  WITH folded AS (
    DELETE FROM report_feedback_counts
    WHERE day IN (SELECT day FROM report_feedback_counts GROUP BY day, looks_correct HAVING count(*) > 1 OR sum(count) = 0)
    RETURNING *
  )
  INSERT INTO report_feedback_counts (day, looks_correct, count)
  SELECT day, looks_correct, sum(count) FROM folded GROUP BY day, looks_correct HAVING sum(count) <> 0;
END $$;--> statement-breakpoint
-- Counts every report and every feedback answer again from scratch (this migration's backfill;
-- bench/admin/seed.ts after its bulk insert with the triggers off). Writers wait until it commits.
CREATE FUNCTION rebuild_report_quality_counts() RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  LOCK TABLE reports, funnel_events IN SHARE MODE;
  DELETE FROM report_status_counts;
  INSERT INTO report_status_counts (day, status, error_code, model_version, count)
  SELECT (created_at AT TIME ZONE 'UTC')::date, status, error_code, result ->> 'modelVersion', count(*)
  FROM reports GROUP BY 1, 2, 3, 4;
  DELETE FROM report_feedback_counts;
  INSERT INTO report_feedback_counts (day, looks_correct, count)
  SELECT (created_at AT TIME ZONE 'UTC')::date, report_feedback_looks_correct(payload), count(*)
  FROM funnel_events WHERE name = 'report-feedback' GROUP BY 1, 2;
END $$;--> statement-breakpoint
SELECT rebuild_report_quality_counts();
--> statement-breakpoint
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
CREATE FUNCTION "rebuild_subscription_counts"() RETURNS void
LANGUAGE sql AS $$
  -- No purchase or channel is written while they are counted (a write between the two deletes and the count would count twice).
  LOCK TABLE "subscriptions", "cancellation_channels" IN SHARE MODE;
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
SELECT "rebuild_subscription_counts"();
