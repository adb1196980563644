CREATE TABLE "admin_audit" (
	"id" uuid PRIMARY KEY NOT NULL,
	"operator_email" text NOT NULL,
	"action" text NOT NULL,
	"customer_email" text,
	"subscription_id" uuid,
	"detail" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "cancellation_channels" (
	"subscription_id" uuid PRIMARY KEY NOT NULL,
	"channel" text NOT NULL,
	"reason" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "operators" (
	"email" text PRIMARY KEY NOT NULL,
	"added_by" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE INDEX "admin_audit_created_idx" ON "admin_audit" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "admin_audit_customer_idx" ON "admin_audit" USING btree ("customer_email");--> statement-breakpoint
CREATE INDEX "cancellation_channels_created_idx" ON "cancellation_channels" USING btree ("created_at");