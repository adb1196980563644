CREATE TABLE "dev_mailbox" (
	"id" uuid PRIMARY KEY NOT NULL,
	"to_address" text NOT NULL,
	"subject" text NOT NULL,
	"text" text NOT NULL,
	"html" text NOT NULL,
	"delivered_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "emails" ADD COLUMN "sealed" text;--> statement-breakpoint
-- Emails written before this migration kept sign-in and cancel codes and one-click links in clear (issue 22): redact them.
UPDATE "emails" SET
	"subject" = regexp_replace("subject", '\m[0-9]{6}\M', '[redacted]', 'g'),
	"text" = regexp_replace(regexp_replace("text", '\m[0-9]{6}\M', '[redacted]', 'g'), 'https?://[^[:space:]<"]+', '[redacted link]', 'g'),
	"html" = regexp_replace(regexp_replace("html", '\m[0-9]{6}\M', '[redacted]', 'g'), 'https?://[^[:space:]<"]+', '[redacted link]', 'g')
WHERE "kind" IN ('sign_in_code', 'cancel_code', 'receipt', 'renewal_receipt', 'trial_reminder', 'purchases_summary', 'activation', 'cancel_link');
