import { and, asc, desc, eq, inArray, lt, ne, sql } from 'drizzle-orm';
import type { Executor } from '../../db/executor';
import { charges, type ChargeKind } from '../../db/schema';

export type ChargeRow = typeof charges.$inferSelect;
export type NewCharge = typeof charges.$inferInsert;
/** A ledger row that belongs to a subscription (every row but the sweep's refund of an unmatched payment). */
export type SubscriptionChargeRow = ChargeRow & { subscriptionId: string };

export function isSubscriptionCharge(row: ChargeRow): row is SubscriptionChargeRow {
  return row.subscriptionId !== null;
}

/**
 * SQL of the charge ledger, and only of it (one table, one repository). Uniqueness lives in the
 * schema: one row per idempotency key, one success per (subscription, period), one refund per charge.
 */
export class ChargesRepository {
  /** Inserts the attempt unless its idempotency key exists; returns the row that holds the key. */
  async open(db: Executor, row: NewCharge): Promise<ChargeRow> {
    await db.insert(charges).values(row).onConflictDoNothing();
    const stored = await this.byKey(db, row.idempotencyKey);
    if (!stored) throw new Error('charge attempt conflicted on another key');
    return stored;
  }

  byKey(db: Executor, idempotencyKey: string): Promise<ChargeRow | undefined> {
    return db.query.charges.findFirst({ where: eq(charges.idempotencyKey, idempotencyKey) });
  }

  byId(db: Executor, id: string): Promise<ChargeRow | undefined> {
    return db.query.charges.findFirst({ where: eq(charges.id, id) });
  }

  /** Attempts (refunds excluded) of one period of a subscription, latest first. */
  attempts(db: Executor, subscriptionId: string, period: number): Promise<ChargeRow[]> {
    return db.query.charges.findMany({
      where: and(eq(charges.subscriptionId, subscriptionId), eq(charges.period, period), ne(charges.kind, 'refund')),
      orderBy: desc(charges.attempt),
    });
  }

  /** Charges (refunds excluded) of several subscriptions in one query, newest first. */
  chargesOfMany(db: Executor, subscriptionIds: readonly string[]): Promise<ChargeRow[]> {
    if (subscriptionIds.length === 0) return Promise.resolve([]);
    return db.query.charges.findMany({
      where: and(inArray(charges.subscriptionId, [...subscriptionIds]), ne(charges.kind, 'refund')),
      orderBy: [desc(charges.createdAt), desc(charges.period), desc(charges.attempt)],
    });
  }

  /** Charges (refunds excluded) of a subscription, newest first. */
  chargesOf(db: Executor, subscriptionId: string): Promise<ChargeRow[]> {
    return db.query.charges.findMany({
      where: and(eq(charges.subscriptionId, subscriptionId), ne(charges.kind, 'refund')),
      orderBy: [desc(charges.createdAt), desc(charges.period), desc(charges.attempt)],
    });
  }

  /**
   * Settles a pending attempt; returns the settled row, or undefined when another process settled
   * it first (the conditional update makes the settle-and-record step run once).
   */
  async settle(
    db: Executor,
    id: string,
    patch: {
      status: 'succeeded' | 'failed';
      executionId: string | null;
      gatewayRefundId?: string | null;
      declineCode: string | null;
      now: Date;
    },
  ): Promise<ChargeRow | undefined> {
    const rows = await db
      .update(charges)
      .set({
        status: patch.status,
        ...(patch.executionId !== null ? { executionId: patch.executionId } : {}),
        ...(patch.gatewayRefundId ? { gatewayRefundId: patch.gatewayRefundId } : {}),
        declineCode: patch.declineCode,
        updatedAt: patch.now,
      })
      .where(and(eq(charges.id, id), eq(charges.status, 'pending')))
      .returning();
    return rows[0];
  }

  /** Adds a settled refund's amount to what was refunded of a charge (runs once per refund, with its settle). */
  async markRefunded(db: Executor, chargeId: string, amountMinor: number, now: Date): Promise<void> {
    await db
      .update(charges)
      .set({ refundedMinor: sql`${charges.refundedMinor} + ${amountMinor}`, updatedAt: now })
      .where(eq(charges.id, chargeId));
  }

  /** Pending attempts of `kinds` written before `olderThan`: their process may have died mid-call. */
  stalePending(db: Executor, kinds: readonly ChargeKind[], olderThan: Date, limit: number): Promise<ChargeRow[]> {
    if (kinds.length === 0) return Promise.resolve([]);
    return db.query.charges.findMany({
      where: and(eq(charges.status, 'pending'), inArray(charges.kind, [...kinds]), lt(charges.createdAt, olderThan)),
      orderBy: asc(charges.createdAt),
      limit,
    });
  }

  /** Succeeded charges of any kind but refunds with this gateway execution (reconciliation). */
  byExecution(db: Executor, executionId: string): Promise<ChargeRow[]> {
    return db.query.charges.findMany({ where: and(eq(charges.executionId, executionId), sql`${charges.kind} <> 'refund'`) });
  }
}
