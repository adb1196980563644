import { and, asc, eq, gte, or, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/database';
import { disputes, executions, processorEvents, refunds } from '../../db/schema';

export type ExecutionRow = typeof executions.$inferSelect;
export type RefundRow = typeof refunds.$inferSelect;
export type DisputeRow = typeof disputes.$inferSelect;
export type ExecutionPatch = Partial<Omit<typeof executions.$inferInsert, 'id' | 'createdAt'>>;

export class ExecutionsRepository {
  constructor(private readonly db: Db) {}

  async insert(row: typeof executions.$inferInsert): Promise<ExecutionRow> {
    const [inserted] = await this.db.insert(executions).values(row).returning();
    if (!inserted) throw new Error('execution insert returned nothing');
    return inserted;
  }

  async find(id: string): Promise<ExecutionRow | undefined> {
    const [row] = await this.db.select().from(executions).where(eq(executions.id, id));
    return row;
  }

  async update(id: string, patch: ExecutionPatch): Promise<ExecutionRow> {
    const [row] = await this.db
      .update(executions)
      .set({ ...patch, updatedAt: new Date() })
      .where(eq(executions.id, id))
      .returning();
    if (!row) throw new Error('execution vanished during update');
    return row;
  }

  /**
   * Executions changed at or after `since`, ordered by (last change, id) and after `after` in that
   * order (keyset pagination). Times compare at millisecond precision, the precision of the cursor.
   */
  async listChanged(input: {
    since: Date | undefined;
    after: { at: Date; id: string } | undefined;
    limit: number;
  }): Promise<ExecutionRow[]> {
    const changedAt = sql`date_trunc('milliseconds', ${executions.updatedAt})`;
    const conditions: SQL[] = [];
    if (input.since) conditions.push(gte(changedAt, input.since));
    if (input.after)
      conditions.push(sql`(${changedAt}, ${executions.id}) > (${input.after.at.toISOString()}::timestamptz, ${input.after.id})`);
    return this.db
      .select()
      .from(executions)
      .where(conditions.length ? and(...conditions) : undefined)
      .orderBy(asc(changedAt), asc(executions.id))
      .limit(input.limit);
  }

  /** Pending executions whose planned deadline (`plannedOutcome.expiresAt`, ISO UTC) is at or before `now`. */
  async pendingExpiredBy(now: Date): Promise<Array<{ id: string }>> {
    return this.db
      .select({ id: executions.id })
      .from(executions)
      .where(
        and(
          eq(executions.status, 'authorizePending'),
          sql`(${executions.plannedOutcome}->>'expiresAt')::timestamptz <= ${now.toISOString()}::timestamptz`,
        ),
      );
  }

  /** The merchant-initiated charge made with this (hashed) merchant idempotency key, if any. */
  async findByChargeKey(chargeKey: string): Promise<ExecutionRow | undefined> {
    const [row] = await this.db
      .select()
      .from(executions)
      .where(sql`${executions.processor}->>'chargeKey' = ${chargeKey}`);
    return row;
  }

  /** Executions still requested whose processor gave no answer (timeouts, 5xx): read again later. */
  async unknownAtProcessor(limit = 100): Promise<Array<{ id: string }>> {
    return this.db
      .select({ id: executions.id })
      .from(executions)
      .where(and(eq(executions.status, 'authorizeRequested'), sql`(${executions.processor}->>'unknown')::boolean is true`))
      .limit(limit);
  }

  /** The execution a processor knows by this reference (Adyen's pspReference). */
  async findByPspReference(pspReference: string): Promise<ExecutionRow | undefined> {
    const [row] = await this.db
      .select()
      .from(executions)
      .where(sql`${executions.processor}->>'pspReference' = ${pspReference}`);
    return row;
  }

  /** The execution waiting on a PayPal approval for this order id or billing agreement token. */
  async findByConfirmToken(token: string): Promise<ExecutionRow | undefined> {
    const [row] = await this.db
      .select()
      .from(executions)
      .where(
        and(
          eq(executions.status, 'confirmRequested'),
          or(
            sql`${executions.confirmAction}->'parameters'->>'orderId' = ${token}`,
            sql`${executions.confirmAction}->'parameters'->>'tokenId' = ${token}`,
          ),
        ),
      );
    return row;
  }

  async insertRefund(row: typeof refunds.$inferInsert): Promise<RefundRow> {
    const [inserted] = await this.db.insert(refunds).values(row).returning();
    if (!inserted) throw new Error('refund insert returned nothing');
    return inserted;
  }

  /** The execution's refunds, except those the processor reported failed afterwards. */
  async refundsOf(executionId: string): Promise<RefundRow[]> {
    return this.db
      .select()
      .from(refunds)
      .where(and(eq(refunds.executionId, executionId), eq(refunds.status, 'succeeded')))
      .orderBy(asc(refunds.createdAt));
  }

  async findRefundByProcessorReference(reference: string): Promise<RefundRow | undefined> {
    const [row] = await this.db.select().from(refunds).where(eq(refunds.processorReference, reference));
    return row;
  }

  /** Marks a refund failed (the processor said so afterwards); false when it already was. */
  async markRefundFailed(id: string): Promise<boolean> {
    const rows = await this.db
      .update(refunds)
      .set({ status: 'failed' })
      .where(and(eq(refunds.id, id), eq(refunds.status, 'succeeded')))
      .returning({ id: refunds.id });
    return rows.length > 0;
  }

  /** Records a processor event as applied; false when it was already (a redelivery). */
  async recordProcessorEvent(id: string, processor: string): Promise<boolean> {
    const rows = await this.db
      .insert(processorEvents)
      .values({ id, processor })
      .onConflictDoNothing()
      .returning({ id: processorEvents.id });
    return rows.length > 0;
  }

  /** Forgets an event whose processing failed, so the processor's redelivery is applied. */
  async forgetProcessorEvent(id: string): Promise<void> {
    await this.db.delete(processorEvents).where(eq(processorEvents.id, id));
  }

  /** Opens the execution's dispute; an execution has at most one, so a second open returns the first. */
  async insertDispute(row: typeof disputes.$inferInsert): Promise<DisputeRow> {
    const [inserted] = await this.db.insert(disputes).values(row).onConflictDoNothing({ target: disputes.executionId }).returning();
    if (inserted) return inserted;
    const existing = await this.disputeOf(row.executionId);
    if (!existing) throw new Error('dispute insert returned nothing');
    return existing;
  }

  async disputeOf(executionId: string): Promise<DisputeRow | undefined> {
    const [row] = await this.db.select().from(disputes).where(eq(disputes.executionId, executionId));
    return row;
  }
}
