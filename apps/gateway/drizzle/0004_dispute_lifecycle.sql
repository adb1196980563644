ALTER TABLE "disputes" ADD COLUMN "updated_at" timestamp with time zone DEFAULT now() NOT NULL;--> statement-breakpoint
ALTER TABLE "disputes" ADD COLUMN "evidence" jsonb;--> statement-breakpoint
ALTER TABLE "disputes" ADD COLUMN "evidence_submitted_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "disputes" ADD COLUMN "closed_at" timestamp with time zone;--> statement-breakpoint
-- Hand-written backfill (not generated): a dispute recorded before this migration last changed when it opened.
UPDATE "disputes" SET "updated_at" = "created_at";
