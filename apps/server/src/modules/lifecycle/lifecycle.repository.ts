import type { AccessKind } from '@roots/contracts/subscriptions';
import { randomUUID } from 'node:crypto';
import { and, eq, isNull } from 'drizzle-orm';
import type { Executor } from '../../db/executor';
import { accessGrants, cancellationChannels, planChanges, subscriptions, type PlanChangeStatus } from '../../db/schema';

export type SubscriptionRow = typeof subscriptions.$inferSelect;
export type NewSubscription = typeof subscriptions.$inferInsert;
export type PlanChangeRow = typeof planChanges.$inferSelect;

/** What a lifecycle step writes on the subscription row; nothing else in the server writes these columns. */
export type LifecyclePatch = Pick<
  Partial<NewSubscription>,
  | 'status'
  | 'currentPeriod'
  | 'currentPeriodStart'
  | 'currentPeriodEnd'
  | 'dueAt'
  | 'retryCount'
  | 'canceledAt'
  | 'endedAt'
  | 'instrumentId'
  | 'cardLast4'
  | 'cardNetwork'
  | 'paidPeriods'
  | 'period0PaidAt'
  | 'period1PaidAt'
  // A plan change applied at renewal (ADR 196): the plan, its agreed terms and the consent to them.
  | 'planId'
  | 'agreedTerms'
  | 'termsText'
  | 'termsVersion'
  | 'consentAt'
  | 'consentIp'
  | 'consentUserAgent'
>;

/** The highest period told apart in a subscription's paid periods (later periods share its bit). */
export const MAX_PERIOD_BIT = 30;

/** The paid-period columns of a row whose charge of `charge.period` succeeded (ADR 157). */
export function paidPeriodPatch(
  row: Pick<SubscriptionRow, 'paidPeriods'>,
  charge: { period: number; createdAt: Date },
): Pick<LifecyclePatch, 'paidPeriods' | 'period0PaidAt' | 'period1PaidAt'> {
  const paidPeriods = row.paidPeriods | (1 << Math.min(charge.period, MAX_PERIOD_BIT));
  if (charge.period === 0) return { paidPeriods, period0PaidAt: charge.createdAt };
  if (charge.period === 1) return { paidPeriods, period1PaidAt: charge.createdAt };
  return { paidPeriods };
}

/** The SQL of the subscription lifecycle: the rows' state columns and their access grants. */
export class LifecycleRepository {
  /** Inserts unless a subscription already exists for the same first execution (or id); returns the id that holds. */
  async insert(db: Executor, row: NewSubscription): Promise<{ id: string; created: boolean }> {
    const inserted = await db.insert(subscriptions).values(row).onConflictDoNothing().returning({ id: subscriptions.id });
    if (inserted[0]) return { id: inserted[0].id, created: true };
    const existing = await db.query.subscriptions.findFirst({ where: eq(subscriptions.initialExecutionId, row.initialExecutionId) });
    if (existing) return { id: existing.id, created: false };
    const byId = row.id ? await db.query.subscriptions.findFirst({ where: eq(subscriptions.id, row.id) }) : undefined;
    if (byId) return { id: byId.id, created: false };
    throw new Error('subscription insert conflicted but no row holds');
  }

  /** Locks the row for the rest of the transaction. */
  async lock(db: Executor, id: string): Promise<SubscriptionRow | undefined> {
    const rows = await db.select().from(subscriptions).where(eq(subscriptions.id, id)).for('update');
    return rows[0];
  }

  /** Saves a step; the lease ends with it (the work it claimed is done). */
  async save(db: Executor, id: string, patch: LifecyclePatch, now: Date): Promise<void> {
    await db
      .update(subscriptions)
      .set({ ...patch, leaseUntil: null, updatedAt: now })
      .where(eq(subscriptions.id, id));
  }

  async grant(
    db: Executor,
    input: { subscriptionId: string; email: string; kind: AccessKind; expiresAt: Date | null; now: Date },
  ): Promise<void> {
    await db
      .insert(accessGrants)
      .values({
        id: randomUUID(),
        subscriptionId: input.subscriptionId,
        email: input.email,
        kind: input.kind,
        expiresAt: input.expiresAt,
        createdAt: input.now,
      })
      .onConflictDoUpdate({
        target: [accessGrants.subscriptionId, accessGrants.kind],
        set: { expiresAt: input.expiresAt, revokedAt: null },
      });
  }

  async revokeGrants(db: Executor, subscriptionId: string, now: Date): Promise<void> {
    await db
      .update(accessGrants)
      .set({ revokedAt: now })
      .where(and(eq(accessGrants.subscriptionId, subscriptionId), isNull(accessGrants.revokedAt)));
  }

  /** How the subscription ended when the customer did not cancel it (the first channel recorded holds). */
  async recordChurn(db: Executor, input: { subscriptionId: string; channel: string; reason: string; now: Date }): Promise<void> {
    await db
      .insert(cancellationChannels)
      .values({ subscriptionId: input.subscriptionId, channel: input.channel, reason: input.reason, createdAt: input.now })
      .onConflictDoNothing();
  }

  // ----- plan changes (ADR 196) ---------------------------------------------------------------

  /** The subscription's pending plan change, if any (one at most: a partial unique index). */
  async pendingChange(db: Executor, subscriptionId: string): Promise<PlanChangeRow | undefined> {
    const [row] = await db
      .select()
      .from(planChanges)
      .where(and(eq(planChanges.subscriptionId, subscriptionId), eq(planChanges.status, 'pending')));
    return row;
  }

  async insertChange(db: Executor, row: typeof planChanges.$inferInsert): Promise<PlanChangeRow> {
    const [inserted] = await db.insert(planChanges).values(row).returning();
    if (!inserted) throw new Error('plan change insert returned nothing');
    return inserted;
  }

  /** Settles a pending change (canceled or applied); false when it was not pending any more. */
  async settleChange(db: Executor, id: string, status: Exclude<PlanChangeStatus, 'pending'>, now: Date): Promise<boolean> {
    const rows = await db
      .update(planChanges)
      .set({ status, settledAt: now })
      .where(and(eq(planChanges.id, id), eq(planChanges.status, 'pending')))
      .returning({ id: planChanges.id });
    return rows.length > 0;
  }
}
