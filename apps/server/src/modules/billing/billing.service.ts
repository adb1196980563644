import { SOFT_DECLINE_CODES } from '@roots/contracts/gateway-constants';
import { HOUR_MS } from '../../lib/clock';
import { maskEmail } from '../../lib/mask';
import { trialReminderEmail } from '../emails/email-templates';
import type { BillingContext } from '../subscriptions/context';
import { chargeKeys, orderReferences } from '../charges/charge-keys';
import type { ChargeRow } from '../charges/charges.repository';
import type { LifecycleEvent } from '../lifecycle/subscription-lifecycle';
import { foldPurchaseCounts } from '../lifecycle/purchase-counts';
import type { ChargeEffects } from '../charges/charges.service';
import type { SubscriptionRow } from '../subscriptions/subscriptions.repository';
import type { PurchasesService } from '../purchases/purchases.service';
import type { SubscriptionsService } from '../subscriptions/subscriptions.service';
import type { PaymentSweep, SweepResult } from '../payment-sweep/payment-sweep.service';
import type { OnePlan } from '../purchases/one-plan';
import { agreedTermsOf } from '../terms/plan-terms';

/** Declines that may pass with time (funds arrive, the processor recovers): retried on a schedule. */
const SOFT_DECLINES = SOFT_DECLINE_CODES;

/** How long a claimed subscription stays with the instance that claimed it. */
const LEASE_MS = 120_000;

export type RenewalOutcome = 'renewed' | 'soft_declined' | 'failed' | 'expired' | 'deferred';

/**
 * Renewals, trial conversion, dunning, expiry and trial reminders. Work is claimed row by row
 * (`for update skip locked` + a lease), every charge attempt is a row with its own idempotency key
 * written before the gateway is called, so a crash, a restart or a second instance re-sends the same
 * key and the gateway replays the first answer (ADR 031).
 */
export class BillingService {
  constructor(
    private readonly context: BillingContext,
    private readonly subscriptions: SubscriptionsService,
    /** Finishes open purchase intents a dead process left (crash recovery). */
    private readonly purchases: PurchasesService,
    /** Payments the gateway took that no subscription accounts for (ADR 127); none in tests that leave it out. */
    private readonly sweep?: PaymentSweep,
    /** Refunds second live plans nobody claimed (ADR 196); none in tests that leave it out. */
    private readonly onePlan?: OnePlan,
  ) {}

  /** One scheduler pass: due subscriptions, reminders, crash recovery, the payment sweep, email outbox. */
  async tick(): Promise<{
    processed: Partial<Record<RenewalOutcome, number>>;
    reminders: number;
    reconciled: number;
    swept: SweepResult | undefined;
    emails: number;
  }> {
    const processed: Partial<Record<RenewalOutcome, number>> = {};
    // Before any renewal: a duplicate plan past the grace is refunded, never renewed (ADR 196).
    await this.onePlan?.refundUnclaimed(this.context.config.PAYMENT_SWEEP_GRACE_MS).catch((error: unknown) => {
      this.context.log.warn({ err: error }, 'unclaimed duplicate plans left for a later pass');
    });
    for (;;) {
      const batch = await this.context.repository.claimDue(this.context.db, this.context.clock.now(), LEASE_MS, 20);
      if (batch.length === 0) break;
      for (const row of batch) {
        const outcome = await this.process(row).catch((error: unknown) => {
          this.context.log.error({ subscriptionId: row.id, err: error }, 'renewal failed unexpectedly');
          return 'deferred' as const;
        });
        processed[outcome] = (processed[outcome] ?? 0) + 1;
      }
      if (batch.length < 20) break;
    }
    const reminders = await this.sendTrialReminders();
    const reconciled = (await this.purchases.reconcile()) + (await this.context.charges.recover());
    // A gateway that cannot be listed now is listed on a later pass; the rest of the tick goes on.
    const swept = await this.sweep?.run().catch((error: unknown) => {
      this.context.log.warn({ err: error }, 'payment sweep failed; retried on a later pass');
      return undefined;
    });
    const emails = await this.context.emails.deliverPending();
    // The console's purchase counts: what this pass's writes added, folded (ADR 200).
    await foldPurchaseCounts(this.context.db).catch((error: unknown) => {
      this.context.log.warn({ err: error }, 'purchase counts left for a later pass');
    });
    return { processed, reminders, reconciled, swept, emails };
  }

  /** Handles one claimed, due subscription. */
  async process(row: SubscriptionRow): Promise<RenewalOutcome> {
    const { repository, db, clock, config } = this.context;
    // The price and period the buyer agreed to, not today's catalog (issue 23).
    // A plan change waiting for this renewal (ADR 196): the new plan's own price and period from now on.
    const change = await this.context.lifecycle.pendingChange(db, row.id);
    const terms = change?.terms ?? agreedTermsOf(config.catalog, row);
    if (row.status === 'canceled' || !terms?.recurring || terms.renewalAmountMinor === null || !terms.renewalPeriod) {
      await this.apply(row, { type: 'period_ended' });
      return 'expired';
    }
    if (!row.instrumentId) {
      await this.apply(row, { type: 'renewal_failed', declineCode: null });
      return 'failed';
    }
    const period = row.currentPeriod + 1;
    const attempts = await this.context.charges.attempts(row.id, period);
    const open = attempts.find((attempt) => attempt.status === 'succeeded') ?? attempts.find((attempt) => attempt.status === 'pending');
    const attempt = attempts[0] ? attempts[0].attempt + 1 : 0;
    const charge =
      open ??
      (await this.context.charges.open({
        kind: 'renewal',
        subscriptionId: row.id,
        planId: change?.toPlanId ?? row.planId,
        period,
        attempt,
        idempotencyKey: chargeKeys.renewal(row.id, period, attempt),
        amountMinor: terms.renewalAmountMinor,
        currency: row.agreedTerms?.currency ?? 'USD',
      }));
    const outcome = await this.context.charges.run(charge, this.renewalEffects(row, charge, row.instrumentId));
    switch (outcome.status) {
      case 'succeeded':
        // Settled and recorded in one transaction; recording again is a no-op unless a legacy row was settled alone.
        await this.apply(row, { type: 'renewal_succeeded', charge: outcome.charge });
        this.context.log.info({ subscriptionId: row.id, period, email: maskEmail(row.email) }, 'subscription renewed');
        return 'renewed';
      case 'unknown':
        // Sent again with the same key on the next pass (the gateway replays the first answer).
        await repository.releaseLease(db, row.id);
        return 'deferred';
      case 'failed':
        break;
      default: {
        const exhaustive: never = outcome;
        return exhaustive;
      }
    }
    const declineCode = outcome.charge.declineCode ?? null;
    const delays = config.RENEWAL_RETRY_DELAYS_HOURS;
    if (declineCode && SOFT_DECLINES.has(declineCode) && row.retryCount < delays.length) {
      const retryAt = new Date(clock.now().getTime() + (delays[row.retryCount] ?? 24) * HOUR_MS);
      // The customer is told at once, with the next try and the way out (issue 23: a failed renewal was silent).
      await this.apply(row, { type: 'renewal_soft_declined', charge: outcome.charge, declineCode, retryAt });
      return 'soft_declined';
    }
    await this.apply(row, { type: 'renewal_failed', declineCode });
    return 'failed';
  }

  /** The gateway instruction of a renewal, and what its success records (the period, access, receipt). */
  private renewalEffects(row: SubscriptionRow, charge: ChargeRow, instrumentId: string): ChargeEffects {
    return {
      instruction: {
        action: 'charge',
        request: {
          instrumentId,
          holderReference: row.holderReference,
          amount: { value: charge.amountMinor, currency: charge.currency },
          orderReference: orderReferences.renewal(row.id, charge.period),
          reason: 'recurring',
        },
      },
      onSucceeded: async (tx, settled) => {
        await this.context.lifecycle.apply(tx, row.id, { type: 'renewal_succeeded', charge: settled });
      },
    };
  }

  /** One lifecycle event in its own transaction; its email goes out at once. */
  private async apply(row: SubscriptionRow, event: LifecycleEvent): Promise<void> {
    await this.context.db.transaction((tx) => this.context.lifecycle.apply(tx, row.id, event));
    this.context.emails.kick();
  }

  /** Reminder emails for trials converting within TRIAL_REMINDER_HOURS. */
  async sendTrialReminders(): Promise<number> {
    const { repository, db, clock, config } = this.context;
    const now = clock.now();
    const horizon = new Date(now.getTime() + config.TRIAL_REMINDER_HOURS * HOUR_MS);
    let sent = 0;
    await db.transaction(async (tx) => {
      for (const row of await repository.claimTrialReminders(tx, now, horizon, 100)) {
        const terms = agreedTermsOf(config.catalog, row);
        if (!terms?.renewalAmountMinor || !terms.renewalPeriod || !row.currentPeriodEnd) continue;
        await this.context.emails.enqueue(
          tx,
          `trial-reminder:${row.id}`,
          row.email,
          trialReminderEmail({
            productName: config.PRODUCT_NAME,
            planName: terms.name,
            convertsAt: row.currentPeriodEnd,
            amountMinor: terms.renewalAmountMinor,
            renewalPeriod: terms.renewalPeriod,
            cardLast4: row.cardLast4,
            cancelUrl: this.subscriptions.cancelUrl(row.id),
          }),
        );
        sent += 1;
      }
    });
    return sent;
  }
}
