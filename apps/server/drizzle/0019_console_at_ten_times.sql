CREATE INDEX "auth_users_id_prefix_idx" ON "auth_users" USING btree (lower("id") text_pattern_ops);--> statement-breakpoint
CREATE INDEX "charges_execution_idx" ON "charges" USING btree ("execution_id");--> statement-breakpoint
CREATE INDEX "charges_subscription_idx" ON "charges" USING btree ("subscription_id");--> statement-breakpoint
CREATE INDEX "subscriptions_email_trgm_idx" ON "subscriptions" USING gin ("email" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "subscriptions_user_id_prefix_idx" ON "subscriptions" USING btree (lower("user_id") text_pattern_ops);--> statement-breakpoint
CREATE INDEX "subscriptions_card_last4_idx" ON "subscriptions" USING btree ("card_last4");--> statement-breakpoint
CREATE INDEX "subscriptions_past_due_idx" ON "subscriptions" USING btree ("due_at","id") WHERE "subscriptions"."status" = 'past_due' and "subscriptions"."parent_id" is null;