import { ACCESS_STATUSES } from '@roots/contracts/subscriptions';
import { randomUUID } from 'node:crypto';
import { and, desc, eq, inArray, isNull, or, sql } from 'drizzle-orm';
import type { Executor } from '../../db/executor';
import { type PurchaseIntentState, checkoutSessions, funnelEvents, purchaseIntents, subscriptions } from '../../db/schema';
import { rowsOf } from '../emails/emails.repository';

import type { SubscriptionRow } from '../lifecycle/lifecycle.repository';

export type { NewSubscription, SubscriptionRow } from '../lifecycle/lifecycle.repository';
export type IntentRow = typeof purchaseIntents.$inferSelect;

/**
 * Reads of subscriptions and their grants, purchase intents and purchase events; the scheduler's
 * claims. The state columns and grants are written by the lifecycle only (lifecycle.repository.ts).
 */
export class SubscriptionsRepository {
  /** The checkout session opened for a plan (one row per gateway execution; issue 25). */
  async rememberCheckout(db: Executor, session: typeof checkoutSessions.$inferInsert): Promise<void> {
    await db.insert(checkoutSessions).values(session).onConflictDoNothing({ target: checkoutSessions.executionId });
  }

  /** True when this product opened the checkout session of `executionId` (ADR 160). */
  async openedCheckout(db: Executor, executionId: string): Promise<boolean> {
    const [row] = await db
      .select({ executionId: checkoutSessions.executionId })
      .from(checkoutSessions)
      .where(eq(checkoutSessions.executionId, executionId))
      .limit(1);
    return row !== undefined;
  }

  // ----- purchase intents -------------------------------------------------------------------

  /** Records the intent unless one exists for the execution; returns the stored row either way. */
  async upsertIntent(db: Executor, intent: typeof purchaseIntents.$inferInsert): Promise<IntentRow> {
    await db.insert(purchaseIntents).values(intent).onConflictDoNothing({ target: purchaseIntents.executionId });
    const row = await db.query.purchaseIntents.findFirst({ where: eq(purchaseIntents.executionId, intent.executionId) });
    if (!row) throw new Error('purchase intent vanished after insert');
    return row;
  }

  /**
   * Claims a paid execution for no purchase: a failed intent naming `email` (who is told, or '' for
   * nobody), so no purchase request can complete it any more. Returns the intent that holds (an
   * earlier one wins).
   */
  claimUnpurchased(db: Executor, input: { executionId: string; planId: string; email: string; now: Date }): Promise<IntentRow> {
    return this.upsertIntent(db, {
      executionId: input.executionId,
      planId: input.planId,
      email: input.email,
      userId: null,
      attribution: {},
      termsText: '',
      termsVersion: '',
      consentIp: '',
      consentUserAgent: '',
      state: 'failed',
      createdAt: input.now,
      updatedAt: input.now,
    });
  }

  async setIntentState(
    db: Executor,
    executionId: string,
    state: Exclude<PurchaseIntentState, 'open'>,
    subscriptionId: string | null,
    now: Date,
  ): Promise<void> {
    await db.update(purchaseIntents).set({ state, subscriptionId, updatedAt: now }).where(eq(purchaseIntents.executionId, executionId));
  }

  findIntent(db: Executor, executionId: string): Promise<IntentRow | undefined> {
    return db.query.purchaseIntents.findFirst({ where: eq(purchaseIntents.executionId, executionId) });
  }

  /** The subscription a shopper's payment made, if any (one per execution). */
  byInitialExecution(db: Executor, executionId: string): Promise<SubscriptionRow | undefined> {
    return db.query.subscriptions.findFirst({ where: eq(subscriptions.initialExecutionId, executionId) });
  }

  /** Open intents older than `olderThan` (the reconciler's work list). */
  openIntents(db: Executor, olderThan: Date, limit: number): Promise<IntentRow[]> {
    return db.query.purchaseIntents.findMany({
      where: (table, { and: all, eq: equals, lt }) => all(equals(table.state, 'open'), lt(table.createdAt, olderThan)),
      limit,
    });
  }

  // ----- subscriptions ----------------------------------------------------------------------

  find(db: Executor, id: string): Promise<SubscriptionRow | undefined> {
    return db.query.subscriptions.findFirst({ where: eq(subscriptions.id, id) });
  }

  /** A purchase and its one-click add-ons (rows whose parent it is), or, for an add-on, its parent's family. */
  async family(db: Executor, id: string): Promise<SubscriptionRow[]> {
    const row = await this.find(db, id);
    if (!row) return [];
    const root = row.parentId ?? row.id;
    return db
      .select()
      .from(subscriptions)
      .where(or(eq(subscriptions.id, root), eq(subscriptions.parentId, root)));
  }

  byEmail(db: Executor, email: string): Promise<SubscriptionRow[]> {
    return db.query.subscriptions.findMany({ where: eq(subscriptions.email, email), orderBy: desc(subscriptions.createdAt) });
  }

  /** Hands a claimed subscription back for the next pass (its lease is the only column this writes). */
  async releaseLease(db: Executor, id: string): Promise<void> {
    await db.update(subscriptions).set({ leaseUntil: null }).where(eq(subscriptions.id, id));
  }

  /** Links the subscription to `userId` unless it is linked already (one conditional UPDATE, no read first). */
  async linkUnlinked(db: Executor, id: string, userId: string, now: Date): Promise<void> {
    await db
      .update(subscriptions)
      .set({ userId, updatedAt: now })
      .where(and(eq(subscriptions.id, id), isNull(subscriptions.userId)));
  }

  /**
   * Claims subscriptions whose `due_at` has passed for `leaseMs`: one statement, `for update skip
   * locked`, so concurrent instances never claim the same row and a crashed one's lease expires.
   */
  async claimDue(db: Executor, now: Date, leaseMs: number, limit: number): Promise<SubscriptionRow[]> {
    const until = new Date(now.getTime() + leaseMs).toISOString();
    const result = await db.execute(sql`
      update subscriptions set lease_until = ${until}
      where id in (
        select id from subscriptions
        where due_at is not null and due_at <= ${now.toISOString()}
          and status in ${[...ACCESS_STATUSES]}
          and (lease_until is null or lease_until < ${now.toISOString()})
        order by due_at limit ${limit} for update skip locked
      )
      returning id`);
    const ids = rowsOf<{ id: string }>(result).map((row) => row.id);
    if (ids.length === 0) return [];
    return db.query.subscriptions.findMany({ where: inArray(subscriptions.id, ids) });
  }

  /** Marks trials converting before `horizon` as reminded; returns those this call marked. */
  async claimTrialReminders(db: Executor, now: Date, horizon: Date, limit: number): Promise<SubscriptionRow[]> {
    const result = await db.execute(sql`
      update subscriptions set reminder_sent_at = ${now.toISOString()}
      where id in (
        select id from subscriptions
        where status = 'trialing' and reminder_sent_at is null and current_period_end <= ${horizon.toISOString()}
        limit ${limit} for update skip locked
      )
      returning id`);
    const ids = rowsOf<{ id: string }>(result).map((row) => row.id);
    if (ids.length === 0) return [];
    return db.query.subscriptions.findMany({ where: inArray(subscriptions.id, ids) });
  }

  // ----- access grants ----------------------------------------------------------------------

  // ----- purchase events ----------------------------------------------------------------------

  async recordPurchaseEvent(
    db: Executor,
    input: {
      name: string;
      subscriptionId: string;
      value: number;
      attribution: Record<string, string>;
      ip: string | null;
      userAgent: string | null;
      now: Date;
    },
  ): Promise<void> {
    await db
      .insert(funnelEvents)
      .values({
        id: randomUUID(),
        name: input.name,
        dedupeKey: `${input.name}:${input.subscriptionId}`,
        subscriptionId: input.subscriptionId,
        value: input.value,
        attribution: input.attribution,
        ip: input.ip,
        userAgent: input.userAgent,
        createdAt: input.now,
      })
      .onConflictDoNothing();
  }
}
