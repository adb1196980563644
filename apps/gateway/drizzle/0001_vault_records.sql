CREATE TABLE "vault_records" (
	"id" text PRIMARY KEY NOT NULL,
	"holder_reference" text NOT NULL,
	"session_id" text NOT NULL,
	"table_name" text NOT NULL,
	"fields" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX "vault_records_holder_table_idx" ON "vault_records" USING btree ("holder_reference","table_name");