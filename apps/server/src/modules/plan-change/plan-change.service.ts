import { API_MESSAGES, formatMessage, MESSAGES } from '@roots/contracts';
import { isCancelable, type PlanChange, type SubscriptionSummary } from '@roots/contracts/subscriptions';
import { AppError } from '../../errors';
import { maskEmail } from '../../lib/mask';
import { fromMinor } from '../../lib/money';
import { agreedRecord, agreedTermsOf, planTerms } from '../terms/plan-terms';
import type { SessionUser } from '../auth/session';
import type { AccountRepository } from '../account/account.repository';
import { assertOwner } from '../identity/ownership';
import type { PlanChangeRow, SubscriptionRow } from '../lifecycle/lifecycle.repository';
import type { BillingContext } from '../subscriptions/context';

/** What the account shows of a pending change. */
function planChangeOf(change: Pick<PlanChangeRow, 'toPlanId' | 'terms' | 'effectiveAt'>): PlanChange {
  return {
    plan_id: change.toPlanId,
    name: change.terms.name,
    amount: fromMinor(change.terms.renewalAmountMinor ?? 0),
    period: change.terms.renewalPeriod ?? { unit: 'day', count: 7 },
    effective_at: change.effectiveAt.toISOString(),
  };
}

/**
 * "Change plan" in the account (issue 35, ADR 196): a customer with a live plan switches to another
 * recurring plan at the end of the paid period, at the new plan's own renewal price, no proration;
 * one subscription renews. The change is the lifecycle's (row lock, history row, email).
 */
export class PlanChangeService {
  constructor(private readonly deps: { context: BillingContext; accounts: AccountRepository }) {}

  /** The owner's subscription `id`, or the 404 of an unknown one. */
  private async owned(user: SessionUser, id: string): Promise<SubscriptionRow> {
    const rows = await this.deps.accounts.subscriptionsOf(this.deps.context.db, user);
    return assertOwner(
      user,
      rows.find((row) => row.id === id),
    );
  }

  /**
   * Schedules the switch of `subscriptionId` to `planId` at its period's end.
   * @throws AppError NOT_FOUND (not the user's), BAD_REQUEST (unknown, one-time or the same plan),
   * CONFLICT (a subscription that does not renew, or whose renewal is failing).
   */
  async request(user: SessionUser, subscriptionId: string, planId: string, meta: { ip: string; userAgent: string }): Promise<PlanChange> {
    const { context } = this.deps;
    const row = await this.owned(user, subscriptionId);
    const terms = planTerms(context.config.catalog, planId);
    if (!terms) throw new AppError('BAD_REQUEST', formatMessage(MESSAGES.unknownPlan, { parameter: planId }));
    if (!terms.recurring) throw new AppError('BAD_REQUEST', API_MESSAGES.planChangeNotRecurring);
    const outcome = await context.db.transaction((tx) =>
      context.lifecycle.requestPlanChange(
        tx,
        row.id,
        { terms: agreedRecord(terms, 'USD'), ip: meta.ip, userAgent: meta.userAgent },
        (locked) => this.refusal(locked, planId),
      ),
    );
    switch (outcome.kind) {
      case 'missing':
        throw new AppError('NOT_FOUND', API_MESSAGES.notFound);
      case 'refused':
        throw outcome.refusal;
      case 'requested':
        context.emails.kick();
        context.log.info(
          { subscriptionId: row.id, from: row.planId, to: planId, effectiveAt: outcome.change.effectiveAt, email: maskEmail(row.email) },
          'plan change requested',
        );
        return planChangeOf(outcome.change);
      default: {
        const exhaustive: never = outcome;
        return exhaustive;
      }
    }
  }

  /** Why the locked subscription cannot change to `planId`; undefined when it can. */
  private refusal(row: SubscriptionRow, planId: string): AppError | undefined {
    const current = agreedTermsOf(this.deps.context.config.catalog, row);
    if (row.parentId !== null || !current?.recurring || !isCancelable(row.status) || !row.currentPeriodEnd)
      return new AppError('CONFLICT', API_MESSAGES.planChangeNotRenewing);
    if (row.status === 'past_due') return new AppError('CONFLICT', API_MESSAGES.planChangePastDue);
    if (row.planId === planId) return new AppError('BAD_REQUEST', API_MESSAGES.planChangeSamePlan);
    return undefined;
  }

  /** The owner keeps their plan: the pending change is canceled (false when none was pending). */
  async cancel(user: SessionUser, subscriptionId: string): Promise<boolean> {
    const { context } = this.deps;
    const row = await this.owned(user, subscriptionId);
    const canceled = await context.db.transaction((tx) => context.lifecycle.cancelPlanChange(tx, row.id));
    if (canceled) {
      context.emails.kick();
      context.log.info({ subscriptionId: row.id, email: maskEmail(row.email) }, 'plan change canceled');
    }
    return canceled;
  }

  /**
   * The account's list with each pending change: the change, and the next charge as it will be
   * (the new plan's price at the period's end).
   */
  async withPendingChanges(summaries: SubscriptionSummary[]): Promise<SubscriptionSummary[]> {
    const { context } = this.deps;
    return Promise.all(
      summaries.map(async (summary) => {
        const pending = summary.renews ? await context.lifecycle.pendingChange(context.db, summary.id) : undefined;
        if (!pending) return { ...summary, plan_change: null };
        const change = planChangeOf(pending);
        return { ...summary, plan_change: change, ...(summary.next_charge_at ? { next_charge_amount: change.amount } : {}) };
      }),
    );
  }
}
