import { integer, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

/**
 * One row per server start: which version and product slug ran against this database, and when.
 * Lets an operator see which releases touched a database, and gives readiness a real table to read.
 */
export const serverStarts = pgTable('server_starts', {
  id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
  version: text('version').notNull(),
  productSlug: text('product_slug').notNull(),
  startedAt: timestamp('started_at', { withTimezone: true }).notNull().defaultNow(),
});
