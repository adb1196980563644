ALTER TABLE "funnel_rollup_state" ADD COLUMN "partial_day" date;--> statement-breakpoint
ALTER TABLE "funnel_rollup_state" ADD COLUMN "partial_through" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "funnel_events_visit_idx" ON "funnel_events" USING btree (coalesce("attribution"->>'visit_id', "id"::text),"name","created_at");