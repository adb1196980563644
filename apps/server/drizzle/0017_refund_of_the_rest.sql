DROP INDEX "charges_one_refund_per_charge";--> statement-breakpoint
CREATE INDEX "charges_refund_of_charge_idx" ON "charges" USING btree ("refund_of_charge_id");