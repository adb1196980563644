import { DISPUTE_STATUSES, type Dispute, type Execution, type ExecutionListItem } from '@roots/contracts/gateway';
import { and, eq, ne, sql, type SQL } from 'drizzle-orm';
import type { Executor } from '../../db/executor';
import { charges, checkoutSessions, disputes, failedFirstPayments, gatewayWebhookEvents, type PaymentFailureSource } from '../../db/schema';
import type { Clock } from '../../lib/clock';
import { maskEmail } from '../../lib/mask';
import type { PlanCatalog } from '@roots/contracts/plans';
import { planTerms } from '../terms/plan-terms';

/** Dispute statuses in the order a dispute moves (`disputeStatusRank`), as an SQL array. */
const STATUS_ORDER = sql`ARRAY[${sql.join(
  DISPUTE_STATUSES.map((status) => sql`${status}`),
  sql`, `,
)}]::text[]`;

export type FailedFirstPaymentRow = typeof failedFirstPayments.$inferSelect;
export type WebhookEventRow = typeof gatewayWebhookEvents.$inferSelect;

/** A declined payment a shopper made at our checkout (not a renewal or add-on we charged ourselves). */
export function isDeclinedFirstPayment(execution: Pick<ExecutionListItem, 'status' | 'merchantInitiated'>): boolean {
  return execution.status === 'authorizeFailed' && !execution.merchantInitiated;
}

export type PaymentFailuresOptions = { clock: Clock; catalog: PlanCatalog };

/**
 * The records the operator's queues read that nothing else keeps (issue 25): declined first
 * payments and the gateway webhooks received. Both are written once per gateway id (execution,
 * event) however often the product hears of them, from any instance.
 */
export class PaymentFailures {
  constructor(private readonly options: PaymentFailuresOptions) {}

  /** True when the execution's decline is recorded already (the sweep then reads nothing back). */
  async known(db: Executor, executionId: string): Promise<boolean> {
    const [row] = await db
      .select({ id: failedFirstPayments.executionId })
      .from(failedFirstPayments)
      .where(eq(failedFirstPayments.executionId, executionId))
      .limit(1);
    return row !== undefined;
  }

  /**
   * Records a declined first payment from the execution as the gateway reported it: `recorded`,
   * `known` when it was recorded before, `not-ours` when it is no declined first payment of ours. The plan and the masked email come from the checkout
   * session the product opened for it; card data stops at the network and the last four.
   */
  async recordDeclined(db: Executor, execution: Execution, source: PaymentFailureSource): Promise<'recorded' | 'known' | 'not-ours'> {
    if (!isDeclinedFirstPayment(execution)) return 'not-ours';
    const [session] = await db.select().from(checkoutSessions).where(eq(checkoutSessions.executionId, execution.id)).limit(1);
    const fromReference =
      execution.orderReference && planTerms(this.options.catalog, execution.orderReference) ? execution.orderReference : null;
    // Another merchant's or another product's payment on the same gateway is none of ours.
    if (!session && !fromReference) return 'not-ours';
    const reason = execution.finalState?.errors[0]?.reason;
    const inserted = await db
      .insert(failedFirstPayments)
      .values({
        executionId: execution.id,
        planId: session?.planId ?? fromReference,
        maskedEmail: session?.maskedEmail ?? null,
        amountMinor: execution.amount.value,
        currency: execution.amount.currency,
        declineCode: reason?.code ?? 'card_declined',
        declineReason: reason?.result ?? '',
        cardNetwork: execution.instrument?.network ?? null,
        cardLast4: execution.instrument?.last4 ?? null,
        failedAt: new Date(execution.updatedAt),
        source,
        recordedAt: this.options.clock.now(),
      })
      .onConflictDoNothing({ target: failedFirstPayments.executionId })
      .returning({ id: failedFirstPayments.executionId });
    return inserted.length > 0 ? 'recorded' : 'known';
  }

  /**
   * Records a dispute as the gateway reports it (ADR 158, 181): `recorded` the first time its id
   * is heard of, `updated` when it moved on (a later status by {@link disputeStatusRank}: deliveries
   * may arrive out of order, and a late one never moves a dispute back), `known` otherwise (a
   * redelivery changes nothing). It is tied to the subscription and charge whose succeeded charge
   * has the disputed execution; both stay null when none of ours has it.
   */
  async recordDispute(db: Executor, dispute: Dispute): Promise<'recorded' | 'updated' | 'known'> {
    const [charge] = await db
      .select({ id: charges.id, subscriptionId: charges.subscriptionId })
      .from(charges)
      .where(and(eq(charges.executionId, dispute.executionId), eq(charges.status, 'succeeded'), ne(charges.kind, 'refund')))
      .limit(1);
    const rank = (status: SQL) => sql`array_position(${STATUS_ORDER}, ${status})`;
    const written = await db
      .insert(disputes)
      .values({
        disputeId: dispute.id,
        executionId: dispute.executionId,
        subscriptionId: charge?.subscriptionId ?? null,
        chargeId: charge?.id ?? null,
        amountMinor: dispute.amount.value,
        currency: dispute.amount.currency,
        reason: dispute.reason,
        status: dispute.status,
        evidenceDueBy: new Date(dispute.evidenceDueBy),
        openedAt: new Date(dispute.createdAt),
        recordedAt: this.options.clock.now(),
        evidenceSubmittedAt: dispute.evidenceSubmittedAt ? new Date(dispute.evidenceSubmittedAt) : null,
        closedAt: dispute.closedAt ? new Date(dispute.closedAt) : null,
      })
      .onConflictDoUpdate({
        target: disputes.disputeId,
        set: {
          status: sql`excluded.status`,
          evidenceSubmittedAt: sql`coalesce(excluded.evidence_submitted_at, ${disputes.evidenceSubmittedAt})`,
          closedAt: sql`coalesce(excluded.closed_at, ${disputes.closedAt})`,
        },
        setWhere: sql`${rank(sql`excluded.status`)} > ${rank(sql`${disputes.status}`)}`,
      })
      .returning({ inserted: sql<boolean>`(xmax = 0)` });
    const [row] = written;
    if (!row) return 'known';
    return row.inserted ? 'recorded' : 'updated';
  }

  /** One received webhook: inserted once per event id, a redelivery counts up and keeps the latest outcome. */
  async recordWebhook(db: Executor, event: { eventId: string; type: string; executionId: string | null; outcome: string }): Promise<void> {
    const now = this.options.clock.now();
    await db
      .insert(gatewayWebhookEvents)
      .values({ ...event, deliveries: 1, firstReceivedAt: now, lastReceivedAt: now })
      .onConflictDoUpdate({
        target: gatewayWebhookEvents.eventId,
        set: {
          deliveries: sql`${gatewayWebhookEvents.deliveries} + 1`,
          outcome: sql`excluded.outcome`,
          lastReceivedAt: sql`excluded.last_received_at`,
        },
      });
  }

  /**
   * 'Delete my data' (an account eraser): the customer's declined checkouts and checkout sessions,
   * found by the masked form of their email, go with the rest of their data.
   */
  readonly eraseUserData = async (tx: Executor, user: { email: string }): Promise<void> => {
    const masked = maskEmail(user.email);
    await tx.delete(failedFirstPayments).where(eq(failedFirstPayments.maskedEmail, masked));
    await tx.delete(checkoutSessions).where(eq(checkoutSessions.maskedEmail, masked));
  };
}
