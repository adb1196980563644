CREATE TABLE "disputes" (
	"dispute_id" text PRIMARY KEY NOT NULL,
	"execution_id" text NOT NULL,
	"subscription_id" uuid,
	"charge_id" uuid,
	"amount_minor" integer NOT NULL,
	"currency" text NOT NULL,
	"reason" text NOT NULL,
	"status" text NOT NULL,
	"evidence_due_by" timestamp with time zone NOT NULL,
	"opened_at" timestamp with time zone NOT NULL,
	"recorded_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE INDEX "disputes_opened_idx" ON "disputes" USING btree ("opened_at");--> statement-breakpoint
CREATE INDEX "disputes_subscription_idx" ON "disputes" USING btree ("subscription_id");