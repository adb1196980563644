CREATE TABLE "server_starts" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "server_starts_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"version" text NOT NULL,
	"product_slug" text NOT NULL,
	"started_at" timestamp with time zone DEFAULT now() NOT NULL
);
