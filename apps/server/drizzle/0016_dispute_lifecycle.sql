ALTER TABLE "disputes" ADD COLUMN "evidence_submitted_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "disputes" ADD COLUMN "closed_at" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "disputes_execution_idx" ON "disputes" USING btree ("execution_id");