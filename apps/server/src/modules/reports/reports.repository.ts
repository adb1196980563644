import { randomUUID } from 'node:crypto';
import type { ReportFeedback, ReportStatus } from '@roots/contracts/reports';
import { and, desc, eq, inArray, isNull, lte, or, sql, type SQL } from 'drizzle-orm';
import type { Executor } from '../../db/executor';
import { funnelEvents, reports, subscriptions } from '../../db/schema';
import { statusesAccepting, transition, type ReportEvent } from './report-state';

export type ReportRow = typeof reports.$inferSelect;
export type NewReport = typeof reports.$inferInsert;

/** Name of the funnel-events row that holds a user's feedback on a report (one per report). */
export const REPORT_FEEDBACK_EVENT = 'report-feedback';
const feedbackKey = (reportId: string) => `${REPORT_FEEDBACK_EVENT}:${reportId}`;

/**
 * The reports a signed-in user owns, in SQL (`canUserReadReport` in report-access.ts is the same
 * rule): linked to the user; or unlinked and of their verified email, or of a subscription linked
 * to them.
 */
function ownedByUser(userId: string, verifiedEmail: string | null): SQL {
  const ofLinkedSubscription = sql`${reports.subscriptionId} in (select ${subscriptions.id} from ${subscriptions} where ${subscriptions.userId} = ${userId})`;
  const unlinkedOwned = verifiedEmail ? or(eq(reports.email, verifiedEmail), ofLinkedSubscription)! : ofLinkedSubscription;
  return or(eq(reports.userId, userId), and(isNull(reports.userId), unlinkedOwned))!;
}

/** SQL of the report service. Status changes are guarded UPDATEs that follow report-state.ts. */
export class ReportsRepository {
  async insert(db: Executor, row: NewReport): Promise<void> {
    await db.insert(reports).values(row);
  }

  async find(db: Executor, id: string): Promise<ReportRow | undefined> {
    const [row] = await db.select().from(reports).where(eq(reports.id, id)).limit(1);
    return row;
  }

  /** Reports made under one subscription, newest first. */
  bySubscription(db: Executor, subscriptionId: string, limit: number): Promise<ReportRow[]> {
    return db
      .select()
      .from(reports)
      .where(eq(reports.subscriptionId, subscriptionId))
      .orderBy(desc(reports.createdAt), desc(reports.id))
      .limit(limit);
  }

  /** Reports a signed-in user owns (see `ownedByUser`), newest first; of one subscription when given. */
  ownedBy(
    db: Executor,
    owner: { userId: string; verifiedEmail: string | null; subscriptionId?: string },
    limit: number,
  ): Promise<ReportRow[]> {
    const owned = ownedByUser(owner.userId, owner.verifiedEmail);
    return db
      .select()
      .from(reports)
      .where(owner.subscriptionId ? and(owned, eq(reports.subscriptionId, owner.subscriptionId)) : owned)
      .orderBy(desc(reports.createdAt), desc(reports.id))
      .limit(limit);
  }

  /** Newest completed report made under one subscription. */
  async latestCompleted(db: Executor, subscriptionId: string): Promise<ReportRow | undefined> {
    const [row] = await db
      .select()
      .from(reports)
      .where(and(eq(reports.subscriptionId, subscriptionId), eq(reports.status, 'completed')))
      .orderBy(desc(reports.createdAt))
      .limit(1);
    return row;
  }

  /**
   * Applies one lifecycle event to one report, only from a status that accepts it (a concurrent
   * expiry or a second worker makes this a no-op). Returns whether the report moved.
   */
  async apply(
    db: Executor,
    id: string,
    from: ReportStatus,
    event: ReportEvent,
    patch: Partial<Pick<NewReport, 'result' | 'errorCode' | 'errorMessage'>>,
    now: Date,
  ): Promise<boolean> {
    const to = transition(from, event);
    const moved = await db
      .update(reports)
      .set({ ...patch, status: to, updatedAt: now })
      .where(and(eq(reports.id, id), eq(reports.status, from)))
      .returning({ id: reports.id });
    return moved.length === 1;
  }

  /** Expires every report still open at its deadline; returns their ids. */
  async expireOverdue(db: Executor, now: Date): Promise<string[]> {
    const expired = await db
      .update(reports)
      .set({ status: transition('processing', 'timed_out'), updatedAt: now })
      .where(and(inArray(reports.status, statusesAccepting('timed_out')), lte(reports.deadlineAt, now)))
      .returning({ id: reports.id });
    return expired.map((row) => row.id);
  }

  /**
   * Folds the quality view's count rows (ADR 199: +1/−1 rows the database writes on each report
   * and feedback change) into one per day and key; a no-op while another compaction runs.
   */
  async compactQualityCounts(db: Executor): Promise<void> {
    await db.execute(sql`select compact_report_quality_counts()`);
  }

  /** Links a subscription's reports to a user; reports linked to someone else stay as they are. */
  async linkUser(db: Executor, subscriptionId: string, userId: string, now: Date): Promise<number> {
    const linked = await db
      .update(reports)
      .set({ userId, updatedAt: now })
      .where(and(eq(reports.subscriptionId, subscriptionId), or(isNull(reports.userId), eq(reports.userId, userId))))
      .returning({ id: reports.id });
    return linked.length;
  }

  /**
   * Records a user's feedback on a report as one funnel-events row keyed by the report: a later
   * answer replaces the earlier one. The row goes with the report on 'Delete my data'.
   */
  async saveFeedback(db: Executor, report: Pick<ReportRow, 'id' | 'subscriptionId'>, feedback: ReportFeedback, now: Date): Promise<void> {
    const payload = JSON.stringify({ report_id: report.id, looks_correct: feedback.looks_correct, text: feedback.text ?? '' });
    await db
      .insert(funnelEvents)
      .values({
        id: randomUUID(),
        name: REPORT_FEEDBACK_EVENT,
        dedupeKey: feedbackKey(report.id),
        subscriptionId: report.subscriptionId,
        payload,
        createdAt: now,
      })
      .onConflictDoUpdate({ target: funnelEvents.dedupeKey, set: { payload, createdAt: now } });
  }

  /** The stored feedback on a report, if any (tests, support). */
  async feedbackOf(db: Executor, reportId: string): Promise<{ report_id: string; looks_correct: boolean; text: string } | undefined> {
    const [row] = await db
      .select()
      .from(funnelEvents)
      .where(eq(funnelEvents.dedupeKey, feedbackKey(reportId)))
      .limit(1);
    return row?.payload ? (JSON.parse(row.payload) as { report_id: string; looks_correct: boolean; text: string }) : undefined;
  }

  /** Deletes the reports a user owns (see `ownedByUser`) and the feedback on them. */
  async deleteOwnedBy(db: Executor, userId: string, verifiedEmail: string | null): Promise<void> {
    const deleted = await db.delete(reports).where(ownedByUser(userId, verifiedEmail)).returning({ id: reports.id });
    if (deleted.length === 0) return;
    await db.delete(funnelEvents).where(
      inArray(
        funnelEvents.dedupeKey,
        deleted.map((row) => feedbackKey(row.id)),
      ),
    );
  }
}
