import type { DeclineCode } from '@roots/contracts/gateway';
import type { Tx } from '../../db/executor';
import { HOUR_MS } from '../../lib/clock';
import { maskEmail } from '../../lib/mask';
import {
  paymentFailedEmail,
  renewalReceiptEmail,
  subscriptionEndedEmail,
  trialReminderEmail,
  type RenderedEmail,
} from '../emails/email-templates';
import type { BillingContext } from '../subscriptions/context';
import { transition, type SubscriptionEvent } from '../subscriptions/subscription-state';
import type { ChargeRow } from '../charges/charges.repository';
import type { ChargeEffects } from '../charges/charges.service';
import type { SubscriptionRow } from '../subscriptions/subscriptions.repository';
import type { SubscriptionsService } from '../subscriptions/subscriptions.service';
import type { PaymentSweep, SweepResult } from '../payment-sweep/payment-sweep.service';
import { agreedTermsOf, periodEnd } from './plan-terms';
import { updateCardUrl } from './update-card-link';

/** Declines that may pass with time (funds arrive, the processor recovers): retried on a schedule. */
const SOFT_DECLINES: ReadonlySet<string> = new Set<DeclineCode>(['insufficient_funds', 'processing_error']);

/** How long a claimed subscription stays with the instance that claimed it. */
const LEASE_MS = 120_000;

export type RenewalOutcome = 'renewed' | 'soft_declined' | 'failed' | 'expired' | 'deferred';

/** The idempotency key of attempt `attempt` of period `period` (issue 5: `sub:{id}:period:{n}`). */
export function chargeKey(subscriptionId: string, period: number, attempt: number): string {
  return attempt === 0 ? `sub:${subscriptionId}:period:${period}` : `sub:${subscriptionId}:period:${period}:retry:${attempt}`;
}

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
    /** Payments the gateway took that no subscription accounts for (ADR 127); none in tests that leave it out. */
    private readonly sweep?: PaymentSweep,
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
    const reconciled = (await this.subscriptions.reconcile()) + (await this.context.charges.recover());
    // A gateway that cannot be listed now is listed on a later pass; the rest of the tick goes on.
    const swept = await this.sweep?.run().catch((error: unknown) => {
      this.context.log.warn({ err: error }, 'payment sweep failed; retried on a later pass');
      return undefined;
    });
    const emails = await this.context.emails.deliverPending();
    return { processed, reminders, reconciled, swept, emails };
  }

  /** Handles one claimed, due subscription. */
  async process(row: SubscriptionRow): Promise<RenewalOutcome> {
    const { repository, db, clock, config } = this.context;
    // The price and period the buyer agreed to, not today's catalog (issue 23).
    const terms = agreedTermsOf(config.catalog, row);
    if (row.status === 'canceled' || !terms?.recurring || terms.renewalAmountMinor === null || !terms.renewalPeriod) {
      await this.move(row, 'period_ended', { dueAt: null });
      return 'expired';
    }
    if (!row.instrumentId) {
      await this.move(row, 'renewal_failed', { dueAt: null });
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
        planId: row.planId,
        period,
        attempt,
        idempotencyKey: chargeKey(row.id, period, attempt),
        amountMinor: terms.renewalAmountMinor,
        currency: row.agreedTerms?.currency ?? 'USD',
      }));
    const outcome = await this.context.charges.run(charge, this.renewalEffects(row, charge, row.instrumentId));
    switch (outcome.status) {
      case 'succeeded':
        // Settled and recorded in one transaction; recording again is a no-op unless a legacy row was settled alone.
        await db.transaction((tx) => this.recordRenewal(tx, row.id, period, outcome.charge));
        this.context.log.info({ subscriptionId: row.id, period, email: maskEmail(row.email) }, 'subscription renewed');
        return 'renewed';
      case 'unknown':
        // Sent again with the same key on the next pass (the gateway replays the first answer).
        await repository.update(db, row.id, { leaseUntil: null });
        return 'deferred';
      case 'failed':
        break;
      default: {
        const exhaustive: never = outcome;
        return exhaustive;
      }
    }
    const { declineCode } = outcome.charge;
    const delays = config.RENEWAL_RETRY_DELAYS_HOURS;
    if (declineCode && SOFT_DECLINES.has(declineCode) && row.retryCount < delays.length) {
      const retryAt = new Date(clock.now().getTime() + (delays[row.retryCount] ?? 24) * HOUR_MS);
      // The customer is told at once, with the next try and the way out (issue 23: a failed renewal was silent).
      const notice = {
        key: `payment-failed:${row.id}:${period}:${row.retryCount}`,
        email: paymentFailedEmail({
          productName: config.PRODUCT_NAME,
          planName: terms.name,
          amountMinor: outcome.charge.amountMinor,
          cardLast4: row.cardLast4,
          declineCode,
          retryAt,
          updateCardUrl: updateCardUrl(config, row.id, clock.now()),
          cancelUrl: this.subscriptions.cancelUrl(row.id),
        }),
      };
      await this.move(row, 'renewal_soft_declined', { dueAt: retryAt, retryCount: row.retryCount + 1 }, notice);
      // Dunning grace: access lasts while retries are pending.
      await repository.grant(db, { subscriptionId: row.id, email: row.email, kind: terms.access, expiresAt: retryAt, now: clock.now() });
      this.context.emails.kick();
      return 'soft_declined';
    }
    await this.move(
      row,
      'renewal_failed',
      { dueAt: null },
      {
        key: `renewal-failed:${row.id}:${period}`,
        email: subscriptionEndedEmail({
          productName: config.PRODUCT_NAME,
          planName: terms.name,
          declineCode: declineCode ?? null,
          startUrl: `${config.publicUrl}/${config.PRODUCT_SLUG}/`,
        }),
      },
    );
    this.context.emails.kick();
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
          orderReference: `sub:${row.id}:period:${charge.period}`,
          reason: 'recurring',
        },
      },
      onSucceeded: (tx, settled) => this.recordRenewal(tx, row.id, settled.period, settled),
    };
  }

  /** Moves the subscription into the paid period under its row lock; a no-op once recorded. */
  private async recordRenewal(tx: Tx, subscriptionId: string, period: number, charge: ChargeRow): Promise<void> {
    const { repository, clock, config } = this.context;
    const locked = await repository.lock(tx, subscriptionId);
    if (!locked || locked.currentPeriod >= period) return; // another instance recorded it
    const terms = agreedTermsOf(config.catalog, locked);
    if (!terms?.renewalPeriod) return;
    const start = locked.currentPeriodEnd ?? clock.now();
    const end = periodEnd(start, terms.renewalPeriod);
    const now = clock.now();
    await repository.update(tx, subscriptionId, {
      status: transition(locked.status, 'renewal_succeeded'),
      currentPeriod: period,
      currentPeriodStart: start,
      currentPeriodEnd: end,
      dueAt: end,
      retryCount: 0,
      leaseUntil: null,
      updatedAt: now,
    });
    await repository.grant(tx, { subscriptionId, email: locked.email, kind: terms.access, expiresAt: end, now });
    await this.context.emails.enqueue(
      tx,
      `renewal:${subscriptionId}:${period}`,
      locked.email,
      renewalReceiptEmail({
        chargeId: charge.id,
        productName: config.PRODUCT_NAME,
        planName: terms.name,
        amountMinor: charge.amountMinor,
        termsText: locked.termsText,
        nextChargeAt: end,
        nextChargeMinor: terms.renewalAmountMinor,
        renewalPeriod: terms.renewalPeriod,
        cardLast4: locked.cardLast4,
        cancelUrl: this.subscriptions.cancelUrl(subscriptionId),
        period,
      }),
    );
  }

  /** Applies one state-machine event (and the patch) under a row lock; revokes access on expiry. */
  private async move(
    row: SubscriptionRow,
    event: SubscriptionEvent,
    patch: { dueAt: Date | null; retryCount?: number },
    notice?: { key: string; email: RenderedEmail },
  ): Promise<void> {
    const { repository, db, clock } = this.context;
    const now = clock.now();
    await db.transaction(async (tx) => {
      const locked = await repository.lock(tx, row.id);
      if (!locked) return;
      // The email goes with the state change it reports (outbox, same transaction).
      if (notice) await this.context.emails.enqueue(tx, notice.key, locked.email, notice.email);
      const next = transition(locked.status, event);
      await repository.update(tx, row.id, {
        status: next,
        ...patch,
        leaseUntil: null,
        updatedAt: now,
        ...(next === 'expired' ? { endedAt: now } : {}),
      });
      if (next === 'expired') await repository.revokeGrants(tx, row.id, now);
    });
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
