CREATE TABLE "operator_session_factors" (
	"session_id" text PRIMARY KEY NOT NULL,
	"operator_email" text NOT NULL,
	"verified_at" timestamp with time zone NOT NULL,
	"last_seen_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "operators" ADD COLUMN "role" text DEFAULT 'support' NOT NULL;--> statement-breakpoint
-- Operators added before roles existed could do everything: they are owners (ADR 150).
UPDATE "operators" SET "role" = 'owner';--> statement-breakpoint
ALTER TABLE "operators" ADD COLUMN "totp_sealed" text;--> statement-breakpoint
ALTER TABLE "operators" ADD COLUMN "totp_enrolled_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "operators" ADD COLUMN "totp_last_step" bigint;--> statement-breakpoint
ALTER TABLE "operator_session_factors" ADD CONSTRAINT "operator_session_factors_session_id_auth_sessions_id_fk" FOREIGN KEY ("session_id") REFERENCES "public"."auth_sessions"("id") ON DELETE cascade ON UPDATE no action;