import { and, asc, eq, inArray, isNull, lt, lte, or, sql } from 'drizzle-orm';
import type { Executor } from '../../db/executor';
import { paymentSweepState, unmatchedPayments, type UnmatchedPaymentStatus } from '../../db/schema';

export type UnmatchedPaymentRow = typeof unmatchedPayments.$inferSelect;
export type NewUnmatchedPayment = typeof unmatchedPayments.$inferInsert;

/** The sweep's one state row. */
const STATE_ID = 1;

/**
 * SQL of the payment sweep (ADR 127): its shared state row (lease and watermark) and the list of
 * unmatched payments. Every write is a claim or a guarded update, so any number of instances may
 * run it (ADR 117).
 */
export class PaymentSweepRepository {
  /**
   * Takes the sweep for `leaseMs` when nobody holds it and the last sweep anywhere started at least
   * `intervalMs` ago. Returns the watermark to list from, or undefined when another instance sweeps.
   */
  async claim(
    db: Executor,
    input: { token: string; now: Date; leaseMs: number; intervalMs: number },
  ): Promise<{ watermark: Date | null } | undefined> {
    await db.insert(paymentSweepState).values({ id: STATE_ID, updatedAt: input.now }).onConflictDoNothing();
    const rows = await db
      .update(paymentSweepState)
      .set({
        leaseToken: input.token,
        leaseUntil: new Date(input.now.getTime() + input.leaseMs),
        lastRunAt: input.now,
        updatedAt: input.now,
      })
      .where(
        and(
          eq(paymentSweepState.id, STATE_ID),
          or(isNull(paymentSweepState.leaseUntil), lt(paymentSweepState.leaseUntil, input.now)),
          or(isNull(paymentSweepState.lastRunAt), lte(paymentSweepState.lastRunAt, new Date(input.now.getTime() - input.intervalMs))),
        ),
      )
      .returning({ watermark: paymentSweepState.watermark });
    return rows[0];
  }

  /** Moves the watermark forward (never back), only while `token` holds the lease. */
  async advance(db: Executor, token: string, watermark: Date, now: Date): Promise<boolean> {
    const rows = await db
      .update(paymentSweepState)
      .set({
        watermark: sql`greatest(coalesce(${paymentSweepState.watermark}, ${watermark.toISOString()}::timestamptz), ${watermark.toISOString()}::timestamptz)`,
        updatedAt: now,
      })
      .where(and(eq(paymentSweepState.id, STATE_ID), eq(paymentSweepState.leaseToken, token)))
      .returning({ id: paymentSweepState.id });
    return rows.length > 0;
  }

  /** Gives the lease back (the interval still spaces the next sweep). */
  async release(db: Executor, token: string, now: Date): Promise<void> {
    await db
      .update(paymentSweepState)
      .set({ leaseToken: null, leaseUntil: null, updatedAt: now })
      .where(and(eq(paymentSweepState.id, STATE_ID), eq(paymentSweepState.leaseToken, token)));
  }

  async watermark(db: Executor): Promise<Date | null> {
    const row = await db.query.paymentSweepState.findFirst({ where: eq(paymentSweepState.id, STATE_ID) });
    return row?.watermark ?? null;
  }

  /** Records a payment seen for the first time; a payment already listed keeps its row. */
  async record(db: Executor, row: NewUnmatchedPayment): Promise<{ row: UnmatchedPaymentRow; inserted: boolean }> {
    const [inserted] = await db.insert(unmatchedPayments).values(row).onConflictDoNothing().returning();
    if (inserted) return { row: inserted, inserted: true };
    const stored = await this.find(db, row.executionId);
    if (!stored) throw new Error('unmatched payment vanished after insert');
    return { row: stored, inserted: false };
  }

  find(db: Executor, executionId: string): Promise<UnmatchedPaymentRow | undefined> {
    return db.query.unmatchedPayments.findFirst({ where: eq(unmatchedPayments.executionId, executionId) });
  }

  /**
   * Moves a payment from one of `from` to `to`; false when it was elsewhere (another instance or
   * pass moved it first), so each move happens once.
   */
  async move(
    db: Executor,
    executionId: string,
    from: readonly UnmatchedPaymentStatus[],
    to: UnmatchedPaymentStatus,
    now: Date,
    patch: { refundChargeId?: string } = {},
  ): Promise<boolean> {
    const rows = await db
      .update(unmatchedPayments)
      .set({ status: to, updatedAt: now, ...patch })
      .where(and(eq(unmatchedPayments.executionId, executionId), inArray(unmatchedPayments.status, [...from])))
      .returning({ id: unmatchedPayments.executionId });
    return rows.length > 0;
  }

  /** Payments to settle: waiting ones paid before `paidBefore` (past their grace), and refunds in flight. */
  due(db: Executor, paidBefore: Date, limit: number): Promise<UnmatchedPaymentRow[]> {
    return db.query.unmatchedPayments.findMany({
      where: or(
        and(eq(unmatchedPayments.status, 'waiting'), lt(unmatchedPayments.paidAt, paidBefore)),
        eq(unmatchedPayments.status, 'refunding'),
      ),
      orderBy: asc(unmatchedPayments.paidAt),
      limit,
    });
  }
}
