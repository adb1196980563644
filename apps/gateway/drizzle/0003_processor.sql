CREATE TABLE "processor_events" (
	"id" text PRIMARY KEY NOT NULL,
	"processor" text NOT NULL,
	"received_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "executions" ADD COLUMN "processor" jsonb;--> statement-breakpoint
ALTER TABLE "instruments" ADD COLUMN "processor_token" jsonb;--> statement-breakpoint
ALTER TABLE "refunds" ADD COLUMN "processor_reference" text;--> statement-breakpoint
ALTER TABLE "refunds" ADD COLUMN "status" text DEFAULT 'succeeded' NOT NULL;