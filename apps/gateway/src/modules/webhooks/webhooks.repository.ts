import { and, asc, eq, inArray, lte, sql } from 'drizzle-orm';
import type { Db } from '../../db/database';
import { webhookDeliveries } from '../../db/schema';

export type WebhookDeliveryRow = typeof webhookDeliveries.$inferSelect;

export class WebhooksRepository {
  constructor(private readonly db: Db) {}

  async insert(rows: Array<typeof webhookDeliveries.$inferInsert>): Promise<void> {
    if (rows.length > 0) await this.db.insert(webhookDeliveries).values(rows);
  }

  /**
   * Claims up to `limit` due deliveries by pushing their next attempt past `leaseUntil`, so a
   * concurrent worker (another instance on PostgreSQL) skips them.
   */
  async claimDue(now: Date, leaseUntil: Date, limit: number): Promise<WebhookDeliveryRow[]> {
    const due = this.db
      .select({ id: webhookDeliveries.id })
      .from(webhookDeliveries)
      .where(and(eq(webhookDeliveries.status, 'pending'), lte(webhookDeliveries.nextAttemptAt, now)))
      .orderBy(asc(webhookDeliveries.nextAttemptAt))
      .limit(limit)
      .for('update', { skipLocked: true });
    return this.db.update(webhookDeliveries).set({ nextAttemptAt: leaseUntil }).where(inArray(webhookDeliveries.id, due)).returning();
  }

  async markDelivered(id: string, attempts: number, now: Date): Promise<void> {
    await this.db
      .update(webhookDeliveries)
      .set({ status: 'delivered', attempts, deliveredAt: now, lastError: null })
      .where(eq(webhookDeliveries.id, id));
  }

  async markFailedAttempt(id: string, attempts: number, error: string, nextAttemptAt: Date | null): Promise<void> {
    await this.db
      .update(webhookDeliveries)
      .set(
        nextAttemptAt
          ? { attempts, lastError: error.slice(0, 500), nextAttemptAt }
          : { attempts, lastError: error.slice(0, 500), status: 'failed' },
      )
      .where(eq(webhookDeliveries.id, id));
  }

  async list(): Promise<WebhookDeliveryRow[]> {
    return this.db.select().from(webhookDeliveries).orderBy(asc(webhookDeliveries.createdAt));
  }

  async countPending(): Promise<number> {
    const [row] = await this.db
      .select({ count: sql<number>`count(*)::int` })
      .from(webhookDeliveries)
      .where(eq(webhookDeliveries.status, 'pending'));
    return row?.count ?? 0;
  }
}
