import { API_MESSAGES, formatMessage, MESSAGES } from '@roots/contracts';
import type { CustomerDispute } from '@roots/contracts/admin';
import { CHARGED_BACK_DISPUTE_STATUSES, OPEN_DISPUTE_STATUSES, type Dispute, type DisputeStatus } from '@roots/contracts/gateway';
import { asc, eq, inArray, or, sql } from 'drizzle-orm';
import type { Executor } from '../../db/executor';
import { disputes } from '../../db/schema';
import { AppError } from '../../errors';
import { GatewayCallError } from '../gateway/gateway-client';
import type { PaymentFailures } from '../payment-failures/payment-failures';
import type { BillingContext } from '../subscriptions/context';

export type DisputeRow = typeof disputes.$inferSelect;

const chargedBack = (status: string) => (CHARGED_BACK_DISPUTE_STATUSES as readonly string[]).includes(status);
const open = (status: string) => (OPEN_DISPUTE_STATUSES as readonly string[]).includes(status);

/** One dispute as the console shows it (ADR 182). */
export function toCustomerDispute(row: DisputeRow, now: Date): CustomerDispute {
  return {
    dispute_id: row.disputeId,
    charge_id: row.chargeId,
    subscription_id: row.subscriptionId,
    execution_id: row.executionId,
    amount_minor: row.amountMinor,
    currency: row.currency,
    reason: row.reason,
    status: row.status as DisputeStatus,
    evidence_due_by: row.evidenceDueBy.toISOString(),
    opened_at: row.openedAt.toISOString(),
    evidence_submitted_at: row.evidenceSubmittedAt?.toISOString() ?? null,
    closed_at: row.closedAt?.toISOString() ?? null,
    answerable: row.status === 'needs_response' && row.evidenceDueBy > now,
    refund_blocked: open(row.status) || chargedBack(row.status),
  };
}

/** A dated fact of the customer's history sent with evidence. */
export type EvidenceEntry = { at: string; kind: string; detail: string };

/**
 * The operator's answers to a dispute (ADR 182) and what a chargeback does to the customer. Each
 * answer is sent to the gateway with a key per dispute and action, and what the gateway answers is
 * recorded by the same rule as its webhooks (a status only moves forward). An answer already given
 * is a replay: the same dispute back, `replay: true`, nothing sent or audited again.
 */
export class DisputeRecords {
  constructor(private readonly deps: { context: BillingContext; failures: PaymentFailures }) {}

  /** The disputes of these purchases or of these executions (a dispute recorded before its purchase), oldest first. */
  async ofPurchases(db: Executor, subscriptionIds: readonly string[], executionIds: readonly string[]): Promise<DisputeRow[]> {
    if (subscriptionIds.length === 0 && executionIds.length === 0) return [];
    return db
      .select()
      .from(disputes)
      .where(
        or(
          subscriptionIds.length > 0 ? inArray(disputes.subscriptionId, [...subscriptionIds]) : sql`false`,
          executionIds.length > 0 ? inArray(disputes.executionId, [...executionIds]) : sql`false`,
        ),
      )
      .orderBy(asc(disputes.openedAt));
  }

  async find(disputeId: string): Promise<DisputeRow> {
    const [row] = await this.deps.context.db.select().from(disputes).where(eq(disputes.disputeId, disputeId));
    if (!row) throw new AppError('NOT_FOUND', API_MESSAGES.disputeNotFound);
    return row;
  }

  /** Sends the operator's evidence (text and history) while the dispute may be answered. */
  async submitEvidence(disputeId: string, text: string, timeline: EvidenceEntry[]): Promise<{ row: DisputeRow; replay: boolean }> {
    const row = await this.find(disputeId);
    if (row.evidenceSubmittedAt) return { row, replay: true };
    this.assertAnswerable(row);
    const { gateway } = this.deps.context;
    return {
      row: await this.send(row, () => gateway.submitDisputeEvidence(disputeId, { text, timeline }, `dispute-evidence:${disputeId}`)),
      replay: false,
    };
  }

  /** Gives the money up: the dispute ends `accepted`. */
  async accept(disputeId: string): Promise<{ row: DisputeRow; replay: boolean }> {
    const row = await this.find(disputeId);
    if (row.status === 'accepted') return { row, replay: true };
    this.assertAnswerable(row);
    const { gateway } = this.deps.context;
    return { row: await this.send(row, () => gateway.acceptDispute(disputeId, `dispute-accept:${disputeId}`)), replay: false };
  }

  /**
   * Records a dispute as the gateway reports it and applies what a chargeback does: the purchase
   * it took the money of ends at once, access included, with no further charge (ADR 182).
   */
  async record(dispute: Dispute): Promise<'recorded' | 'updated' | 'known'> {
    const { context, failures } = this.deps;
    const outcome = await failures.recordDispute(context.db, dispute);
    // Whoever records a chargeback first (the operator's answer or the gateway's webhook), the purchase
    // has ended when either returns: ending is idempotent (an ended purchase stays as it is).
    if (chargedBack(dispute.status)) await this.endPurchase(dispute.id);
    return outcome;
  }

  private async endPurchase(disputeId: string): Promise<void> {
    const { context } = this.deps;
    const row = await this.find(disputeId);
    if (!row.subscriptionId) return;
    const subscriptionId = row.subscriptionId;
    const ended = await context.db.transaction((tx) => context.lifecycle.apply(tx, subscriptionId, { type: 'canceled', effective: 'now' }));
    if (ended) {
      context.emails.kick();
      context.log.info({ subscriptionId, disputeId }, 'chargeback: purchase ended');
    }
  }

  private assertAnswerable(row: DisputeRow): void {
    if (row.status !== 'needs_response') throw new AppError('CONFLICT', API_MESSAGES.disputeClosed);
    if (row.evidenceDueBy <= this.deps.context.clock.now())
      throw new AppError('CONFLICT', formatMessage(API_MESSAGES.disputePastDue, { dueBy: row.evidenceDueBy.toISOString() }));
  }

  /** One answer to the gateway; a refusal is checked against what the gateway has now. */
  private async send(row: DisputeRow, call: () => Promise<Dispute>): Promise<DisputeRow> {
    const { gateway } = this.deps.context;
    try {
      await this.record(await call());
    } catch (error) {
      if (!(error instanceof GatewayCallError) || error.retryable)
        throw new AppError('SERVICE_UNAVAILABLE', MESSAGES.somethingWentWrong, { cause: error });
      // Refused (the dispute moved on meanwhile, or its date passed): record what it is now and say so.
      await this.record(await gateway.getDispute(row.disputeId));
      const now = await this.find(row.disputeId);
      throw new AppError(
        'CONFLICT',
        now.status === 'lost' && !now.evidenceSubmittedAt
          ? formatMessage(API_MESSAGES.disputePastDue, { dueBy: now.evidenceDueBy.toISOString() })
          : API_MESSAGES.disputeClosed,
        { cause: error },
      );
    }
    return this.find(row.disputeId);
  }
}
