import { and, eq, lte } from 'drizzle-orm';
import type { Db } from '../../db/database';
import { disputes } from '../../db/schema';
import type { DisputeRow } from '../executions/executions.repository';

export type DisputePatch = Partial<Pick<typeof disputes.$inferInsert, 'status' | 'evidence' | 'evidenceSubmittedAt' | 'closedAt'>>;

export class DisputesRepository {
  constructor(private readonly db: Db) {}

  async find(id: string): Promise<DisputeRow | undefined> {
    const [row] = await this.db.select().from(disputes).where(eq(disputes.id, id));
    return row;
  }

  /** Moves a dispute on from `from` only (a concurrent move makes this answer undefined). */
  async move(id: string, from: string, patch: DisputePatch, now: Date): Promise<DisputeRow | undefined> {
    const [row] = await this.db
      .update(disputes)
      .set({ ...patch, updatedAt: now })
      .where(and(eq(disputes.id, id), eq(disputes.status, from)))
      .returning();
    return row;
  }

  /** Disputes still waiting for the merchant's answer whose due date has passed. */
  async unansweredPastDue(now: Date): Promise<DisputeRow[]> {
    return this.db
      .select()
      .from(disputes)
      .where(and(eq(disputes.status, 'needs_response'), lte(disputes.evidenceDueBy, now)));
  }
}
