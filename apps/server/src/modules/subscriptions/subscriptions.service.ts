import { MESSAGES } from '@roots/contracts';
import { compactAttribution, type Attribution } from '@roots/contracts/events';
import { isCancelable, type PaymentStatusResponse, type SubscriptionSummary } from '@roots/contracts/subscriptions';
import { AppError } from '../../errors';
import { normalizeEmail } from '../../lib/mask';
import { fromMinor } from '../../lib/money';
import type { RequestMeta } from '../../lib/request-meta';
import { cancelUrl } from '../links/cancel-link';
import { agreedSummaryOf, agreedTermsOf, planTerms } from '../terms/plan-terms';
import { purchasesEmail } from '../emails/email-templates';
import { guaranteedRefund } from '../charges/guarantee';
import { liveGrantsOf } from '../entitlements/entitlements';
import { GatewayCallError } from '../gateway/gateway-client';
import type { BillingContext } from './context';
import type { IntentRow, SubscriptionRow } from './subscriptions.repository';

/** Settles an open purchase intent from the gateway's execution (the purchases room's, ADR 187). */
export type SettleIntent = (intent: IntentRow) => Promise<'completed' | 'failed' | 'pending'>;

/**
 * Reading subscriptions and what their owners do with them: where a purchase's payment stands,
 * linking to an account, the summaries and the email of purchases. Buying is the purchases room's.
 */
export class SubscriptionsService {
  constructor(
    private readonly context: BillingContext,
    private readonly settleIntent: SettleIntent,
  ) {}

  cancelUrl(subscriptionId: string): string {
    return cancelUrl(this.context.config, subscriptionId, this.context.clock.now());
  }

  /**
   * Where the payment of a purchase stands (the pending page's "check again", issue 24): settles an
   * open intent from the gateway's execution as the purchase request would, and says which way it
   * went. Only the email the purchase was started for may ask; anything else is an unknown purchase.
   * `admit` is called once the asker is known to be the purchase's, before the gateway may be asked
   * (the merchant-API budget, ADR 160): it may refuse.
   * @throws AppError NOT_FOUND for an unknown purchase, SERVICE_UNAVAILABLE when the gateway cannot be read.
   */
  async paymentStatus(executionId: string, email: string, admit?: () => Promise<void>): Promise<PaymentStatusResponse> {
    const { repository, db, clock } = this.context;
    const intent = await repository.findIntent(db, executionId);
    if (!intent || intent.email === '' || intent.email !== normalizeEmail(email))
      throw new AppError('NOT_FOUND', MESSAGES.noSubscriptionData);
    await admit?.();
    try {
      let state = intent.state;
      if (state === 'open') {
        const outcome = await this.settleIntent(intent);
        if (outcome === 'pending') return { status: 'pending' };
        state = outcome;
      }
      if (state === 'completed') {
        const id =
          (await repository.findIntent(db, executionId))?.subscriptionId ?? (await repository.byInitialExecution(db, executionId))?.id;
        if (id) return { status: 'paid', id };
      }
      const execution = await this.context.gateway.getExecution(executionId);
      if (execution.status === 'authorizeSuccessful') return { status: 'refunded' };
      return { status: execution.finalState?.errors[0]?.reason.code === 'payment_expired' ? 'expired' : 'failed' };
    } catch (error) {
      if (error instanceof GatewayCallError && error.status === 404) {
        await repository.setIntentState(db, executionId, 'failed', null, clock.now());
        return { status: 'failed' };
      }
      throw new AppError('SERVICE_UNAVAILABLE', MESSAGES.somethingWentWrong, { cause: error });
    }
  }

  // ----- signed-in linking and reading ----------------------------------------------------------

  /** Links `row` (read by the route for its ownership check) to the signed-in user. */
  async finalize(
    row: SubscriptionRow,
    input: { email: string; userId: string; attribution: Attribution | undefined },
    meta: RequestMeta,
  ): Promise<{ id: string }> {
    const { repository, db, clock } = this.context;
    if (row.email !== normalizeEmail(input.email)) throw new AppError('NOT_FOUND', MESSAGES.finalizeError);
    if (row.userId && row.userId !== input.userId) throw new AppError('CONFLICT', MESSAGES.finalizeError);
    const now = clock.now();
    await db.transaction(async (tx) => {
      await repository.linkUnlinked(tx, row.id, input.userId, now);
      await repository.recordPurchaseEvent(tx, {
        name: 'CompleteRegistration',
        subscriptionId: row.id,
        value: 0,
        attribution: compactAttribution(input.attribution) as Record<string, string>,
        ip: meta.ip,
        userAgent: meta.userAgent,
        now,
      });
    });
    return { id: row.id };
  }

  /** The subscription with that id (for the routes' ownership checks). */
  async find(id: string): Promise<SubscriptionRow | undefined> {
    return this.context.repository.find(this.context.db, id.toLowerCase());
  }

  /**
   * `/rec/subscriptions/{email}`: emails that address its purchases, each with its one-click cancel
   * link; nothing when it bought nothing. The caller answers the same either way (ADR 085).
   */
  async emailPurchases(email: string): Promise<void> {
    const { repository, db, config } = this.context;
    const normalized = normalizeEmail(email);
    const rows = await repository.byEmail(db, normalized);
    if (rows.length === 0) return;
    const summaries = await this.summaries(rows);
    const day = Math.floor(this.context.clock.now().getTime() / 86_400_000);
    await this.context.emails.enqueue(
      db,
      `purchases:${normalized}:${day}`,
      normalized,
      purchasesEmail({
        productName: config.PRODUCT_NAME,
        purchases: summaries.map((summary) => {
          const row = rows.find((candidate) => candidate.id === summary.id);
          const terms = row ? agreedTermsOf(config.catalog, row) : planTerms(config.catalog, summary.plan_id);
          return {
            planName: terms?.name ?? summary.plan_id,
            status: summary.status,
            trial: summary.agreed?.trial ?? false,
            renews: summary.renews,
            accessUntil: summary.current_period_end ? new Date(summary.current_period_end) : null,
            cancelUrl: terms?.recurring && summary.next_charge_at ? this.cancelUrl(summary.id) : null,
          };
        }),
      }),
    );
    this.context.emails.kick();
  }

  async summaries(rows: SubscriptionRow[]): Promise<SubscriptionSummary[]> {
    const now = this.context.clock.now();
    // What each one gives now: the entitlements' one reading of ownership.
    const grants = await liveGrantsOf(
      this.context.db,
      rows.map((row) => row.id),
      now,
    );
    // The guarantee's refund of each purchase, from one read of their charges.
    const paid = await this.context.charges.chargesByPurchase(rows.map((row) => row.id));
    return rows.map((row) => {
      const refund =
        row.status === 'expired' ? undefined : guaranteedRefund(paid.get(row.id) ?? [], now, this.context.config.MONEY_BACK_GUARANTEE_DAYS);
      const terms = agreedTermsOf(this.context.config.catalog, row);
      const status = row.status;
      const charging = terms?.recurring === true && isCancelable(status);
      return {
        id: row.id,
        plan_id: row.planId,
        status,
        current_period_end: row.currentPeriodEnd?.toISOString() ?? null,
        next_charge_at: charging ? (row.dueAt?.toISOString() ?? null) : null,
        next_charge_amount: charging && terms?.renewalAmountMinor != null ? fromMinor(terms.renewalAmountMinor) : null,
        card_last4: row.cardLast4,
        renews: terms?.recurring === true,
        refund: refund
          ? { amount: fromMinor(refund.charge.amountMinor - refund.charge.refundedMinor), until: refund.until.toISOString() }
          : null,
        agreed: agreedSummaryOf(terms),
        access: grants.filter((grant) => grant.subscriptionId === row.id).map((grant) => grant.kind),
      };
    });
  }
}
