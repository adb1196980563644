CREATE TABLE "reports" (
	"id" uuid PRIMARY KEY NOT NULL,
	"subscription_id" uuid NOT NULL,
	"email" text NOT NULL,
	"user_id" text,
	"kind" text NOT NULL,
	"status" text NOT NULL,
	"result" jsonb,
	"error_code" text,
	"error_message" text,
	"deadline_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE INDEX "reports_email_idx" ON "reports" USING btree ("email","created_at");--> statement-breakpoint
CREATE INDEX "reports_subscription_idx" ON "reports" USING btree ("subscription_id");--> statement-breakpoint
CREATE INDEX "reports_open_deadline_idx" ON "reports" USING btree ("status","deadline_at");