import { randomUUID } from 'node:crypto';
import type { ExecutionListItem } from '@roots/contracts/gateway';
import { planTerms } from '../terms/plan-terms';
import { GatewayCallError } from '../gateway/gateway-client';
import type { ChargeRow } from '../charges/charges.repository';
import type { ChargeEffects } from '../charges/charges.service';
import type { BillingContext } from '../subscriptions/context';
import { duplicatePaymentRefundEmail } from '../emails/email-templates';
import { chargeKeys } from '../charges/charge-keys';
import type { PurchasesService } from '../purchases/purchases.service';
import { isDeclinedFirstPayment, type PaymentFailures } from '../payment-failures/payment-failures';
import type { PaymentSweepRepository, UnmatchedPaymentRow } from './payment-sweep.repository';

/** How long one instance holds the sweep; a pass that outlives it is taken over (every effect is guarded). */
const LEASE_MS = 120_000;
/** The listing is re-read from this far before the watermark: changes committed late are not missed. */
const OVERLAP_MS = 60_000;
/** Where a first sweep (no watermark yet) starts: older payments are an operator's, not the sweep's. */
const FIRST_LOOKBACK_MS = 3 * 24 * 3_600_000;
const PAGE_SIZE = 100;
/** Pages per pass; the rest is read on the next pass from the advanced watermark. */
const MAX_PAGES = 50;
/** Payments settled per pass. */
const SETTLE_LIMIT = 100;
/** Sent to the gateway with the refund; says why, names nobody. */
export const UNMATCHED_REFUND_REASON = 'payment without a purchase';

/** The ledger key of the refund of an unmatched payment: one refund per execution, whoever sends it. */
export const unmatchedRefundKey = chargeKeys.unmatchedRefund;

/** What one pass did (counts of payments). `swept` is false when another instance held the sweep or it was not due. */
export type SweepResult = {
  swept: boolean;
  listed: number;
  completed: number;
  subscribed: number;
  waiting: number;
  refunded: number;
  refundFailed: number;
  closed: number;
};

export type PaymentSweepOptions = {
  context: BillingContext;
  purchases: PurchasesService;
  repository: PaymentSweepRepository;
  /** Declined first payments seen in the listing are recorded for the operator (issue 25). */
  failures?: PaymentFailures;
};

/** A pass's tally before it has done anything. */
function emptySweepResult(): SweepResult {
  return { swept: false, listed: 0, completed: 0, subscribed: 0, waiting: 0, refunded: 0, refundFailed: 0, closed: 0 };
}

/**
 * Finds payments the gateway took that no subscription accounts for (ADR 127): the server died
 * before the purchase request arrived, or before it wrote anything. Each pass (one instance at a
 * time, under a lease on a shared row) lists the executions changed since the watermark and, for a
 * shopper's successful payment with no subscription:
 * - an open purchase intent proves what it was for: the purchase is completed (same verification);
 * - otherwise it waits `PAYMENT_SWEEP_GRACE_MS` for its request; then the execution is claimed (a
 *   failed intent, which every purchase path refuses) and refunded through the charge ledger with
 *   the key `unmatched:{execution}`, once.
 */
export class PaymentSweep {
  constructor(private readonly options: PaymentSweepOptions) {}

  /** One pass; safe to call from every instance on every tick. */
  async run(): Promise<SweepResult> {
    const { context, repository } = this.options;
    const result = emptySweepResult();
    const token = randomUUID();
    const claim = await repository.claim(context.db, {
      token,
      now: context.clock.now(),
      leaseMs: LEASE_MS,
      intervalMs: context.config.PAYMENT_SWEEP_INTERVAL_MS,
    });
    if (!claim) return result;
    result.swept = true;
    try {
      await this.list(claim.watermark, token, result);
      await this.settleDue(result);
    } finally {
      await repository.release(context.db, token, context.clock.now());
    }
    if (result.completed + result.refunded + result.refundFailed > 0)
      context.log.info({ ...result }, 'payment sweep: payments without a subscription settled');
    return result;
  }

  /** Reads the listing page by page from the watermark, moving the watermark after each page. */
  private async list(watermark: Date | null, token: string, result: SweepResult): Promise<void> {
    const { context, repository } = this.options;
    const since = watermark ? new Date(watermark.getTime() - OVERLAP_MS) : new Date(context.clock.now().getTime() - FIRST_LOOKBACK_MS);
    let cursor: string | undefined;
    for (let page = 0; page < MAX_PAGES; page += 1) {
      const listing = await context.gateway.listExecutions({ since, cursor, limit: PAGE_SIZE });
      for (const item of listing.items) {
        await this.observe(item, result);
        result.listed += 1;
      }
      const last = listing.items.at(-1);
      if (last && !(await repository.advance(context.db, token, new Date(last.updatedAt), context.clock.now()))) return;
      if (!listing.nextCursor) return;
      cursor = listing.nextCursor;
    }
  }

  /** A listed execution: completed from its open intent, or recorded as waiting when nothing accounts for it. */
  private async observe(item: ExecutionListItem, result: SweepResult): Promise<void> {
    const { context, purchases, repository } = this.options;
    const { db } = context;
    if (isDeclinedFirstPayment(item)) return this.recordDeclined(item);
    // Renewals and add-ons are the charge ledger's own; unpaid or refunded payments need nothing.
    if (item.merchantInitiated || item.status !== 'authorizeSuccessful' || item.amountRefunded > 0) return;
    // Only a session this product opened (its order reference is one of our plans) is ours to settle.
    if (!item.orderReference || !planTerms(context.config.catalog, item.orderReference)) return;
    if (await context.repository.byInitialExecution(db, item.id)) {
      if (await repository.move(db, item.id, ['waiting'], 'subscribed', context.clock.now())) result.subscribed += 1;
      return;
    }
    const intent = await context.repository.findIntent(db, item.id);
    if (intent?.state === 'completed') return;
    // A young intent belongs to a request still running: left to it (or to the reconciler).
    if (intent?.state === 'open' && purchases.isStale(intent)) {
      if ((await purchases.settleIntent(intent)) === 'completed') {
        await this.recordCompleted(item);
        result.completed += 1;
        return;
      }
    }
    // No intent, a young one, or one whose payment cannot buy its plan. Recorded either way, so that
    // the pass after the grace period looks at it again even once the listing has moved past it.
    const now = context.clock.now();
    const { inserted } = await repository.record(db, {
      executionId: item.id,
      amountMinor: item.amount.value,
      currency: item.amount.currency,
      orderReference: item.orderReference ?? null,
      paidAt: new Date(item.updatedAt),
      status: 'waiting',
      firstSeenAt: now,
      updatedAt: now,
    });
    if (inserted) {
      result.waiting += 1;
      if (!intent)
        context.log.warn({ executionId: item.id }, 'payment sweep: paid execution without a purchase; waiting for its grace period');
    }
  }

  /**
   * A shopper's declined payment the webhook did not record (no webhook configured, or lost): read
   * back once for its reason and card, then recorded. Never fails the pass.
   */
  private async recordDeclined(item: ExecutionListItem): Promise<void> {
    const { context, failures } = this.options;
    if (!failures || !item.orderReference || !planTerms(context.config.catalog, item.orderReference)) return;
    try {
      if (await failures.known(context.db, item.id)) return;
      await failures.recordDeclined(context.db, await context.gateway.getExecution(item.id), 'sweep');
    } catch (error) {
      context.log.warn({ executionId: item.id, err: error }, 'payment sweep: declined payment left for the next pass');
    }
  }

  private async recordCompleted(item: ExecutionListItem): Promise<void> {
    const { context, repository } = this.options;
    const now = context.clock.now();
    const { row } = await repository.record(context.db, {
      executionId: item.id,
      amountMinor: item.amount.value,
      currency: item.amount.currency,
      orderReference: item.orderReference ?? null,
      paidAt: new Date(item.updatedAt),
      status: 'completed',
      firstSeenAt: now,
      updatedAt: now,
    });
    if (row.status !== 'completed') await repository.move(context.db, item.id, ['waiting'], 'completed', now);
  }

  /** Waiting payments past their grace period, and refunds whose outcome is not known yet. */
  private async settleDue(result: SweepResult): Promise<void> {
    const { context, repository } = this.options;
    const paidBefore = new Date(context.clock.now().getTime() - context.config.PAYMENT_SWEEP_GRACE_MS);
    for (const row of await repository.due(context.db, paidBefore, SETTLE_LIMIT)) {
      try {
        await this.settle(row, result);
      } catch (error) {
        context.log.warn({ executionId: row.executionId, err: error }, 'payment sweep: payment left for the next pass');
      }
    }
  }

  /**
   * A paid execution set aside as a duplicate of what its buyer owns (ADR 196: a failed intent that
   * names the owner): refunded now, not after the grace, by the same steps and ledger key
   * (`unmatched:{execution}`) as a pass would take, so a pass, a retry and this call make one refund.
   * True once the refund went through; false leaves it to the next passes (a payment still pending
   * at the gateway, a refund refused or unknown).
   */
  async refundNow(executionId: string): Promise<boolean> {
    const { context, repository } = this.options;
    const intent = await context.repository.findIntent(context.db, executionId);
    if (intent?.state !== 'failed') return false;
    const execution = await context.gateway.getExecution(executionId);
    // Only a settled shopper payment: anything else is the passes' to look at when it changes.
    if (execution.merchantInitiated || execution.status !== 'authorizeSuccessful') return false;
    if (execution.amountRefunded >= execution.amount.value) return true;
    const now = context.clock.now();
    const { row } = await repository.record(context.db, {
      executionId,
      amountMinor: execution.amount.value,
      currency: execution.amount.currency,
      orderReference: execution.orderReference ?? null,
      paidAt: new Date(execution.updatedAt ?? now),
      status: 'waiting',
      firstSeenAt: now,
      updatedAt: now,
    });
    if (row.status === 'refunded') return true;
    const result = emptySweepResult();
    await this.settle(row, result);
    return result.refunded > 0;
  }

  private async settle(row: UnmatchedPaymentRow, result: SweepResult): Promise<void> {
    const refund = row.status === 'waiting' ? await this.openRefund(row, result) : await this.refundRow(row);
    if (!refund) return;
    const outcome = await this.options.context.charges.run(refund, this.refundEffects(row.executionId));
    switch (outcome.status) {
      case 'succeeded':
        result.refunded += 1;
        this.options.context.emails.kick();
        this.options.context.log.warn(
          { executionId: row.executionId, amountMinor: refund.amountMinor, currency: refund.currency },
          'payment sweep: refunded a payment no purchase claimed',
        );
        return;
      case 'failed':
        await this.options.repository.move(
          this.options.context.db,
          row.executionId,
          ['refunding'],
          'refund_failed',
          this.options.context.clock.now(),
        );
        result.refundFailed += 1;
        this.options.context.log.error(
          { executionId: row.executionId, declineCode: outcome.charge.declineCode },
          'payment sweep: the gateway refused the refund of an unmatched payment',
        );
        return;
      case 'unknown':
        return;
      default: {
        const exhaustive: never = outcome;
        return exhaustive;
      }
    }
  }

  /**
   * A waiting payment past its grace: read back from the gateway (the listing is a notice, never the
   * evidence), claimed so that no purchase can complete it any more, and its refund opened in the
   * ledger. Undefined when it needs no refund after all.
   */
  private async openRefund(row: UnmatchedPaymentRow, result: SweepResult): Promise<ChargeRow | undefined> {
    const { context, purchases, repository } = this.options;
    const { db, clock } = context;
    const subscribed = async () => {
      if (!(await context.repository.byInitialExecution(db, row.executionId))) return false;
      if (await repository.move(db, row.executionId, ['waiting'], 'subscribed', clock.now())) result.subscribed += 1;
      return true;
    };
    if (await subscribed()) return undefined;
    let execution;
    try {
      execution = await context.gateway.getExecution(row.executionId);
    } catch (error) {
      if (error instanceof GatewayCallError && error.status === 404) {
        if (await repository.move(db, row.executionId, ['waiting'], 'closed', clock.now())) result.closed += 1;
        return undefined;
      }
      throw error;
    }
    const refundable = execution.amount.value - execution.amountRefunded;
    if (execution.merchantInitiated || execution.status !== 'authorizeSuccessful' || execution.amountRefunded > 0 || refundable <= 0) {
      if (await repository.move(db, row.executionId, ['waiting'], 'closed', clock.now())) result.closed += 1;
      return undefined;
    }
    // The claim: a failed intent with no buyer. A purchase request arriving from now on is refused.
    const now = clock.now();
    const intent = await context.repository.claimUnpurchased(db, {
      executionId: row.executionId,
      planId: execution.orderReference ?? '',
      email: '',
      now,
    });
    if (intent.state === 'open') {
      // Its request wrote the intent after all: it says what the payment was for. A payment that
      // buys nothing by it (its buyer paid for the plan another way meanwhile) is refunded now.
      const outcome = await purchases.settleIntent(intent);
      if (outcome === 'completed' && (await repository.move(db, row.executionId, ['waiting'], 'completed', clock.now())))
        result.completed += 1;
      if (outcome !== 'failed') return undefined;
    }
    if (intent.state === 'completed' || (await subscribed())) return undefined;
    const refund = await context.charges.open({
      kind: 'refund',
      subscriptionId: null,
      planId: execution.orderReference ?? '',
      period: 0,
      attempt: 0,
      refundOfChargeId: null,
      executionId: row.executionId,
      idempotencyKey: unmatchedRefundKey(row.executionId),
      amountMinor: refundable,
      currency: execution.amount.currency,
    });
    await repository.move(db, row.executionId, ['waiting'], 'refunding', clock.now(), { refundChargeId: refund.id });
    return refund;
  }

  /** The ledger row of a refund in flight (a pass or a process died before its outcome was known). */
  private async refundRow(row: UnmatchedPaymentRow): Promise<ChargeRow | undefined> {
    return row.refundChargeId ? this.options.context.charges.byId(row.refundChargeId) : undefined;
  }

  private refundEffects(executionId: string): ChargeEffects {
    const { context, repository } = this.options;
    return {
      instruction: { action: 'refund', executionId, reason: UNMATCHED_REFUND_REASON },
      onSucceeded: async (tx, settled) => {
        await repository.move(tx, executionId, ['refunding'], 'refunded', context.clock.now());
        // A payment set aside because its buyer already owned the plan names that owner: they are told.
        const intent = await context.repository.findIntent(tx, executionId);
        const terms = intent?.email ? planTerms(context.config.catalog, intent.planId) : undefined;
        if (intent?.email && terms)
          await context.emails.enqueue(
            tx,
            `duplicate-payment-refund:${executionId}`,
            intent.email,
            duplicatePaymentRefundEmail({
              productName: context.config.PRODUCT_NAME,
              planName: terms.name,
              amountMinor: settled.amountMinor,
              accountUrl: `${context.config.publicUrl}/${context.config.PRODUCT_SLUG}/sign-in`,
            }),
          );
      },
    };
  }
}
