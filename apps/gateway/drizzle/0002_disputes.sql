CREATE TABLE "disputes" (
	"id" text PRIMARY KEY NOT NULL,
	"execution_id" text NOT NULL,
	"amount_value" integer NOT NULL,
	"currency" text NOT NULL,
	"reason" text NOT NULL,
	"status" text NOT NULL,
	"evidence_due_by" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX "disputes_execution_idx" ON "disputes" USING btree ("execution_id");