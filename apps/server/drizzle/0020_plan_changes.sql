CREATE TABLE "plan_changes" (
	"id" uuid PRIMARY KEY NOT NULL,
	"subscription_id" uuid NOT NULL,
	"from_plan_id" text NOT NULL,
	"to_plan_id" text NOT NULL,
	"terms" jsonb NOT NULL,
	"status" text NOT NULL,
	"effective_at" timestamp with time zone NOT NULL,
	"requested_at" timestamp with time zone NOT NULL,
	"consent_ip" text NOT NULL,
	"consent_user_agent" text NOT NULL,
	"settled_at" timestamp with time zone
);
--> statement-breakpoint
CREATE UNIQUE INDEX "plan_changes_one_pending" ON "plan_changes" USING btree ("subscription_id") WHERE status = 'pending';--> statement-breakpoint
CREATE INDEX "plan_changes_subscription_idx" ON "plan_changes" USING btree ("subscription_id");