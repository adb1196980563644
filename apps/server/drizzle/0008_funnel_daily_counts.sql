CREATE TABLE "funnel_daily_counts" (
	"day" date NOT NULL,
	"name" text NOT NULL,
	"dimension" text NOT NULL,
	"value" text NOT NULL,
	"count" integer NOT NULL,
	CONSTRAINT "funnel_daily_counts_day_dimension_value_name_pk" PRIMARY KEY("day","dimension","value","name")
);
--> statement-breakpoint
CREATE TABLE "funnel_rollup_state" (
	"id" integer PRIMARY KEY NOT NULL,
	"rolled_through" date,
	"updated_at" timestamp with time zone NOT NULL
);
