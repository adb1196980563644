import type {
  DisputeQueue,
  FailedFirstPayments,
  PageQuery,
  PastDueList,
  UnclaimedPayments,
  UpcomingRenewals,
  UpcomingRenewalsQuery,
  WebhookEvents,
} from '@roots/contracts/admin-queues';
import type { PlanCatalog } from '@roots/contracts/plans';
import { DAY_MS, HOUR_MS } from '../../lib/clock';
import { planTerms } from '../terms/plan-terms';
import type { BillingContext } from '../subscriptions/context';
import type { QueuesRepository, Slice, SubscriptionRow } from './queues.repository';

/** A plan's name as the customer bought it (agreed terms), else the catalog's; the id when neither knows it. */
export function planNameOf(catalog: PlanCatalog, planId: string, agreed?: { name: string } | null): string {
  return agreed?.name ?? planTerms(catalog, planId)?.name ?? planId;
}

/** The renewal price agreed at purchase, else the catalog's; null when it never renews. */
export function renewalPriceOf(catalog: PlanCatalog, row: SubscriptionRow): { amountMinor: number | null; currency: string } {
  if (row.agreedTerms) return { amountMinor: row.agreedTerms.renewalAmountMinor, currency: row.agreedTerms.currency };
  return { amountMinor: planTerms(catalog, row.planId)?.renewalAmountMinor ?? null, currency: 'USD' };
}

/**
 * The retries still to come of a subscription in dunning, as billing schedules them: the one due at
 * `dueAt` (retry number `retriesDone + 1`), then, should each decline, the next after billing's
 * delay for it (`delaysHours`, the configured schedule), until the schedule runs out.
 * @example retrySchedule([24, 72, 120], 1, new Date('2026-03-02T00:00:00Z')) // 03-02, then +72 h, +120 h
 */
export function retrySchedule(delaysHours: readonly number[], retriesDone: number, dueAt: Date | null): Date[] {
  if (!dueAt || retriesDone < 1) return [];
  const schedule = [dueAt];
  for (let retry = retriesDone; retry < delaysHours.length; retry += 1)
    schedule.push(new Date(schedule.at(-1)!.getTime() + (delaysHours[retry] ?? 0) * HOUR_MS));
  return schedule;
}

export function sliceOf(query: PageQuery): Slice {
  return { limit: query.page_size, offset: (query.page - 1) * query.page_size };
}

/** The operator's work queues (issue 25): each one page of rows, with the total. */
export class OperatorQueues {
  constructor(private readonly deps: { context: BillingContext; repository: QueuesRepository }) {}

  private get catalog() {
    return this.deps.context.config.catalog;
  }

  async upcomingRenewals(query: UpcomingRenewalsQuery): Promise<UpcomingRenewals> {
    const { context, repository } = this.deps;
    const now = context.clock.now();
    const { rows, total } = await repository.upcomingRenewals(
      context.db,
      { from: now, to: new Date(now.getTime() + query.days * DAY_MS) },
      sliceOf(query),
    );
    return {
      items: rows.map((row) => {
        const price = renewalPriceOf(this.catalog, row);
        return {
          subscription_id: row.id,
          email: row.email,
          plan_id: row.planId,
          plan_name: planNameOf(this.catalog, row.planId, row.agreedTerms),
          status: row.status,
          amount_minor: price.amountMinor,
          currency: price.currency,
          due_at: row.dueAt!.toISOString(),
        };
      }),
      page: query.page,
      page_size: query.page_size,
      total,
    };
  }

  async pastDue(query: PageQuery): Promise<PastDueList> {
    const { context, repository } = this.deps;
    const { rows, total } = await repository.pastDue(context.db, sliceOf(query));
    const declines = new Map(
      (
        await repository.lastDeclines(
          context.db,
          rows.map((row) => row.id),
        )
      ).map((row) => [row.subscription_id, row]),
    );
    const delays = context.config.RENEWAL_RETRY_DELAYS_HOURS;
    return {
      items: rows.map((row) => {
        const price = renewalPriceOf(this.catalog, row);
        const decline = declines.get(row.id);
        return {
          subscription_id: row.id,
          email: row.email,
          plan_id: row.planId,
          plan_name: planNameOf(this.catalog, row.planId, row.agreedTerms),
          amount_minor: price.amountMinor,
          currency: price.currency,
          retries_done: Math.max(0, row.retryCount - 1),
          retries_total: delays.length,
          retry_schedule: retrySchedule(delays, row.retryCount, row.dueAt).map((at) => at.toISOString()),
          last_decline_code: decline?.decline_code ?? null,
          last_declined_at: decline ? new Date(decline.updated_at).toISOString() : null,
        };
      }),
      page: query.page,
      page_size: query.page_size,
      total,
    };
  }

  async failedFirstPayments(query: PageQuery): Promise<FailedFirstPayments> {
    const { rows, total } = await this.deps.repository.failedFirstPayments(this.deps.context.db, sliceOf(query));
    return {
      items: rows.map((row) => ({
        execution_id: row.executionId,
        plan_id: row.planId,
        plan_name: row.planId ? planNameOf(this.catalog, row.planId) : null,
        masked_email: row.maskedEmail,
        amount_minor: row.amountMinor,
        currency: row.currency,
        decline_code: row.declineCode,
        decline_reason: row.declineReason,
        card_network: row.cardNetwork,
        card_last4: row.cardLast4,
        failed_at: row.failedAt.toISOString(),
        source: row.source,
      })),
      page: query.page,
      page_size: query.page_size,
      total,
    };
  }

  async unclaimedPayments(query: PageQuery): Promise<UnclaimedPayments> {
    const { rows, total } = await this.deps.repository.unclaimedPayments(this.deps.context.db, sliceOf(query));
    return {
      items: rows.map((row) => ({
        execution_id: row.executionId,
        plan_id: row.orderReference,
        plan_name: row.orderReference && planTerms(this.catalog, row.orderReference) ? planNameOf(this.catalog, row.orderReference) : null,
        amount_minor: row.amountMinor,
        currency: row.currency,
        paid_at: row.paidAt.toISOString(),
        status: row.status,
        first_seen_at: row.firstSeenAt.toISOString(),
        updated_at: row.updatedAt.toISOString(),
      })),
      page: query.page,
      page_size: query.page_size,
      total,
    };
  }

  async disputes(query: PageQuery): Promise<DisputeQueue> {
    const { context, repository } = this.deps;
    const { rows, total } = await repository.disputes(context.db, sliceOf(query));
    const ids = [...new Set(rows.flatMap((row) => (row.subscriptionId ? [row.subscriptionId] : [])))];
    const bought = new Map((await repository.subscriptionsByIds(context.db, ids)).map((row) => [row.id, row]));
    // Recorded before its purchase was: the purchase whose charge has the execution, if one has since.
    const late = await repository.chargedPurchases(
      context.db,
      rows.filter((row) => !row.subscriptionId).map((row) => row.executionId),
    );
    return {
      items: rows.map((row) => {
        const subscription = row.subscriptionId ? bought.get(row.subscriptionId) : late.get(row.executionId);
        return {
          dispute_id: row.disputeId,
          execution_id: row.executionId,
          subscription_id: subscription?.id ?? row.subscriptionId,
          email: subscription?.email ?? null,
          plan_id: subscription?.planId ?? null,
          plan_name: subscription ? planNameOf(this.catalog, subscription.planId, subscription.agreedTerms) : null,
          amount_minor: row.amountMinor,
          currency: row.currency,
          reason: row.reason,
          status: row.status,
          evidence_due_by: row.evidenceDueBy.toISOString(),
          opened_at: row.openedAt.toISOString(),
        };
      }),
      page: query.page,
      page_size: query.page_size,
      total,
    };
  }

  async webhookEvents(query: PageQuery): Promise<WebhookEvents> {
    const { rows, total } = await this.deps.repository.webhookEvents(this.deps.context.db, sliceOf(query));
    return {
      items: rows.map((row) => ({
        event_id: row.eventId,
        type: row.type,
        execution_id: row.executionId,
        outcome: row.outcome,
        deliveries: row.deliveries,
        first_received_at: row.firstReceivedAt.toISOString(),
        last_received_at: row.lastReceivedAt.toISOString(),
      })),
      page: query.page,
      page_size: query.page_size,
      total,
    };
  }
}
