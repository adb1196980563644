import type { ReportStatus } from '@roots/contracts/reports';
import { and, desc, eq, inArray, isNull, lte, or } from 'drizzle-orm';
import type { Executor } from '../../db/executor';
import { reports } from '../../db/schema';
import { statusesAccepting, transition, type ReportEvent } from './report-state';

export type ReportRow = typeof reports.$inferSelect;
export type NewReport = typeof reports.$inferInsert;

/** SQL of the report service. Status changes are guarded UPDATEs that follow report-state.ts. */
export class ReportsRepository {
  async insert(db: Executor, row: NewReport): Promise<void> {
    await db.insert(reports).values(row);
  }

  async find(db: Executor, id: string): Promise<ReportRow | undefined> {
    const [row] = await db.select().from(reports).where(eq(reports.id, id)).limit(1);
    return row;
  }

  /** Reports of one email, newest first. */
  byEmail(db: Executor, email: string, limit: number): Promise<ReportRow[]> {
    return db.select().from(reports).where(eq(reports.email, email)).orderBy(desc(reports.createdAt), desc(reports.id)).limit(limit);
  }

  /** Newest completed report of one email. */
  async latestCompleted(db: Executor, email: string): Promise<ReportRow | undefined> {
    const [row] = await db
      .select()
      .from(reports)
      .where(and(eq(reports.email, email), eq(reports.status, 'completed')))
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

  /** Links a subscription's reports to a user; reports linked to someone else stay as they are. */
  async linkUser(db: Executor, subscriptionId: string, userId: string, now: Date): Promise<number> {
    const linked = await db
      .update(reports)
      .set({ userId, updatedAt: now })
      .where(and(eq(reports.subscriptionId, subscriptionId), or(isNull(reports.userId), eq(reports.userId, userId))))
      .returning({ id: reports.id });
    return linked.length;
  }

  /** Deletes the reports linked to a user, and the unlinked ones of their verified email. */
  async deleteOwnedBy(db: Executor, userId: string, verifiedEmail: string | null): Promise<void> {
    const unlinkedOfEmail = verifiedEmail ? and(isNull(reports.userId), eq(reports.email, verifiedEmail)) : undefined;
    await db.delete(reports).where(unlinkedOfEmail ? or(eq(reports.userId, userId), unlinkedOfEmail) : eq(reports.userId, userId));
  }
}
