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
CREATE INDEX "report_feedback_counts_day_idx" ON "report_feedback_counts" USING btree ("day");--> statement-breakpoint
CREATE INDEX "report_status_counts_day_idx" ON "report_status_counts" USING btree ("day");--> statement-breakpoint
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
