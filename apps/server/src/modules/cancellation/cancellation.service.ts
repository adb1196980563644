import { createHmac, randomInt, timingSafeEqual } from 'node:crypto';
import { API_MESSAGES, MESSAGES } from '@roots/contracts';
import { EMAIL_CODE_LENGTH } from '@roots/contracts/auth';
import { isCancelable, type CancelLinkDetails, type CancelOutcome } from '@roots/contracts/subscriptions';
import { AppError } from '../../errors';
import { maskEmail, normalizeEmail } from '../../lib/mask';
import { fromMinor } from '../../lib/money';
import { liveCancelLink } from '../links/cancel-link';
import { agreedTermsOf } from '../terms/plan-terms';
import { activationEmail, cancelCodeEmail } from '../emails/email-templates';
import { chargeKeys } from '../charges/charge-keys';
import { guaranteedRefund } from '../charges/guarantee';
import type { ChargeRow } from '../charges/charges.repository';
import type { ChargeEffects } from '../charges/charges.service';
import type { BillingContext } from '../subscriptions/context';
import type { SubscriptionRow } from '../subscriptions/subscriptions.repository';
import type { SubscriptionsService } from '../subscriptions/subscriptions.service';
import type { DisputeGuard } from '../disputes/dispute-guard';
import type { CancellationRepository } from './cancellation.repository';

const CODE_TTL_MS = 15 * 60_000;
/**
 * The reason every ledger refund sends to the gateway. The gateway fingerprints a keyed request's
 * body, so a recovery must rebuild it from the ledger row alone: the operator's own reason is kept
 * in the audit trail, not sent.
 */
export const GATEWAY_REFUND_REASON = 'refund';
const MAX_CODE_ATTEMPTS = 5;

/** Cancellation by email code, by id and by one-click link; refunds under the money-back guarantee. */
export class CancellationService {
  constructor(
    private readonly context: BillingContext,
    private readonly codes: CancellationRepository,
    private readonly subscriptions: SubscriptionsService,
    /** Refuses the refund of a disputed payment before anything changes (ADR 182). */
    private readonly disputes: DisputeGuard,
  ) {
    context.charges.recoverWith('refund', (refund) => this.refundRecovery(refund));
  }

  private hashCode(email: string, code: string): string {
    return createHmac('sha256', this.context.config.APP_SECRET).update(`cancel-code:${email}:${code}`).digest('hex');
  }

  /** Live recurring subscriptions of an email (what "cancel" applies to). */
  private async cancelableOf(email: string): Promise<SubscriptionRow[]> {
    const rows = await this.context.repository.byEmail(this.context.db, email);
    return rows.filter((row) => isCancelable(row.status) && this.renews(row));
  }

  /**
   * `POST /api/cancel-request`: without a code, emails one (product-spec §4 'Check your email');
   * with the right code, cancels every live subscription of the email.
   */
  async request(input: { email: string; code?: string | undefined }): Promise<CancelOutcome> {
    const { db, clock } = this.context;
    const email = normalizeEmail(input.email);
    const live = await this.cancelableOf(email);
    if (!input.code) {
      if (live.length === 0) throw new AppError('NOT_FOUND', MESSAGES.noSubscriptions);
      const code = String(randomInt(0, 10 ** EMAIL_CODE_LENGTH)).padStart(EMAIL_CODE_LENGTH, '0');
      const now = clock.now();
      await db.transaction(async (tx) => {
        const id = await this.codes.insertCode(tx, {
          email,
          codeHash: this.hashCode(email, code),
          expiresAt: new Date(now.getTime() + CODE_TTL_MS),
          now,
        });
        await this.context.emails.enqueue(
          tx,
          `cancel-code:${id}`,
          email,
          cancelCodeEmail({
            productName: this.context.config.PRODUCT_NAME,
            code,
            validMinutes: CODE_TTL_MS / 60_000,
            links: live.map((row) => this.subscriptions.cancelUrl(row.id)),
          }),
        );
      });
      this.context.emails.kick();
      return { message: MESSAGES.checkYourEmail };
    }
    const stored = await this.codes.latestUsable(db, email, clock.now());
    if (!stored || stored.attempts >= MAX_CODE_ATTEMPTS) throw new AppError('BAD_REQUEST', MESSAGES.somethingWentWrong);
    const expected = Buffer.from(stored.codeHash, 'hex');
    const given = Buffer.from(this.hashCode(email, input.code), 'hex');
    if (!timingSafeEqual(expected, given)) {
      await this.codes.countAttempt(db, stored.id);
      throw new AppError('BAD_REQUEST', MESSAGES.somethingWentWrong);
    }
    await this.codes.use(db, stored.id, clock.now());
    if (live.length === 0) throw new AppError('NOT_FOUND', MESSAGES.noSubscriptions);
    for (const row of live) await this.cancel(row);
    return { message: MESSAGES.subscriptionCanceled };
  }

  /** The subscription with that id (the routes check ownership of it first). */
  async find(id: string): Promise<SubscriptionRow | undefined> {
    return this.context.repository.find(this.context.db, id.toLowerCase());
  }

  /** The subscription a one-click link names; undefined when the link is forged or names none. */
  async fromLink(content: string): Promise<SubscriptionRow | undefined> {
    const id = liveCancelLink(this.context.config.APP_SECRET, content, this.context.clock.now());
    return id ? this.find(id) : undefined;
  }

  /**
   * `GET /api/cancel-subscription/{content}/details`: what the link's confirmation page shows (the
   * plan, until when access lasts, the guarantee's refund while it lasts). The link is the proof.
   */
  async linkDetails(content: string): Promise<CancelLinkDetails> {
    const row = await this.fromLink(content);
    if (!row) throw new AppError('NOT_FOUND', MESSAGES.noSubscriptions);
    const [subscription] = await this.subscriptions.summaries([row]);
    if (!subscription) throw new AppError('NOT_FOUND', MESSAGES.noSubscriptions);
    return { plan_name: agreedTermsOf(this.context.config.catalog, row)?.name ?? row.planId, subscription };
  }

  /** `POST /api/cancel-subscription/{content}`: the one-click link of the emails is the proof. */
  async byLink(content: string, refund: boolean, admit?: (row: SubscriptionRow) => Promise<void>): Promise<CancelOutcome> {
    const row = await this.fromLink(content);
    if (!row) throw new AppError('NOT_FOUND', MESSAGES.noSubscriptions);
    return this.cancelOwned(row, refund, admit && (() => admit(row)));
  }

  /**
   * Cancels a subscription whose ownership the caller proved (ADR 085). `refund` is the customer's
   * wish; the money-back guarantee decides it ({@link refundLatest}). `admit` is called before the
   * refund reaches the gateway (the merchant-API budget, ADR 160): it may refuse.
   */
  async cancelOwned(row: SubscriptionRow, refund: boolean, admit?: () => Promise<void>): Promise<CancelOutcome> {
    const renews = this.renews(row);
    // A one-time pack has no renewal to cancel; its money-back refund is still there when asked for.
    if (!renews && !refund) throw new AppError('CONFLICT', API_MESSAGES.oneTimeNotCancelable);
    // A money-back of a disputed payment is refused before the cancel, so nothing half happens.
    if (refund) await this.disputes.assertRefundable(await this.paidExecutions(row.id));
    // Already canceled or ended: the same answer, so a second click on a link is harmless.
    const canceling = renews && isCancelable(row.status);
    // With a refund, its email says what happened to access (issue 35); without one, the cancel's does.
    if (canceling) await this.cancel(row, 'period_end', refund);
    if (refund) await admit?.();
    const refunded = refund ? await this.refundLatest(row.id) : 0;
    if (canceling && refund && refunded === 0) {
      await this.context.db.transaction((tx) => this.context.lifecycle.announceCancel(tx, row.id));
      this.context.emails.kick();
    }
    return { message: MESSAGES.subscriptionCanceled, ...(refunded > 0 ? { refunded: fromMinor(refunded) } : {}) };
  }

  /** The executions of the subscription's succeeded charges (what a money-back could refund). */
  private async paidExecutions(subscriptionId: string): Promise<string[]> {
    const paid = await this.context.charges.chargesOf(subscriptionId);
    return paid.flatMap((charge) => (charge.status === 'succeeded' && charge.executionId ? [charge.executionId] : []));
  }

  /** True for a plan that renews, by the terms its buyer agreed to. */
  private renews(row: SubscriptionRow): boolean {
    return agreedTermsOf(this.context.config.catalog, row)?.recurring === true;
  }

  /**
   * What a cancel may act on (issue 23): a plan that renews and has not ended. A one-time pack has
   * no renewal to cancel (the money-back refund ends it); an ended subscription is left as it is.
   * @throws AppError CONFLICT (409) with the reason otherwise.
   */
  assertCancelable(row: SubscriptionRow): void {
    if (!this.renews(row)) throw new AppError('CONFLICT', API_MESSAGES.oneTimeNotCancelable);
    if (row.status === 'expired') throw new AppError('CONFLICT', API_MESSAGES.alreadyEnded);
  }

  /**
   * Cancels: no more charges, access until the paid period ends (or, for an operator's `now`, ends
   * at once). Idempotent for a canceled subscription at period end. @throws AppError CONFLICT for a
   * one-time pack or an ended subscription.
   */
  async cancel(row: SubscriptionRow, effective: 'period_end' | 'now' = 'period_end', refundFollows = false): Promise<void> {
    this.assertCancelable(row);
    const { db } = this.context;
    await db.transaction((tx) => this.context.lifecycle.apply(tx, row.id, { type: 'canceled', effective, refundFollows }));
    this.context.emails.kick();
    this.context.log.info({ subscriptionId: row.id, email: maskEmail(row.email), effective }, 'subscription canceled');
  }

  /**
   * Refunds the latest successful charge when it is within MONEY_BACK_GUARANTEE_DAYS, through the
   * charge ledger with the key `refund:{charge id}` (a retry or the recovery replays the first
   * refund). After an operator's partial refund, what the ledger says is left comes back instead,
   * with the key `refund-rest:{charge id}` (issue 32). Access ends. Returns the refunded minor units
   * (0 when nothing qualified).
   */
  async refundLatest(subscriptionId: string): Promise<number> {
    const { clock, config, charges } = this.context;
    const paid = await charges.chargesOf(subscriptionId);
    const charge = paid.find((candidate) => candidate.status === 'succeeded' && candidate.executionId);
    if (!charge?.executionId) return 0;
    const first = await charges.refundOf(charge.id);
    // An operator gave back part of it: the guarantee gives back the rest, by its own key.
    const partlyRefunded = first?.status === 'succeeded' && first.amountMinor < charge.amountMinor;
    const previous = partlyRefunded ? await charges.restRefundOf(charge.id) : first;
    // A refund already opened is finished whatever the date; a new one only within the guarantee.
    if (!previous && !guaranteedRefund(paid, clock.now(), config.MONEY_BACK_GUARANTEE_DAYS)) return 0;
    const refund =
      previous ??
      (await charges.open({
        kind: 'refund',
        subscriptionId,
        planId: charge.planId,
        period: charge.period,
        attempt: 0,
        refundOfChargeId: charge.id,
        executionId: charge.executionId,
        idempotencyKey: partlyRefunded ? chargeKeys.refundRest(charge.id) : chargeKeys.refund(charge.id),
        // The ledger is the truth of what already came back.
        amountMinor: charge.amountMinor - charge.refundedMinor,
        currency: charge.currency,
      }));
    const outcome = await charges.run(refund, this.refundEffects(refund.executionId ?? charge.executionId, charge));
    switch (outcome.status) {
      case 'succeeded':
        this.context.emails.kick();
        return outcome.charge.amountMinor;
      case 'failed':
        return 0;
      case 'unknown':
        throw new AppError('SERVICE_UNAVAILABLE', MESSAGES.somethingWentWrong, { cause: outcome.error });
      default: {
        const exhaustive: never = outcome;
        return exhaustive;
      }
    }
  }

  /** A pending refund left by a dead process: what it refunds (execution, amount) is columns of its ledger row. */
  private async refundRecovery(refund: ChargeRow): Promise<ChargeEffects | undefined> {
    const refunded = refund.refundOfChargeId ? await this.context.charges.byId(refund.refundOfChargeId) : undefined;
    return refund.executionId && refunded ? this.refundEffects(refund.executionId, refunded) : undefined;
  }

  /**
   * The gateway refund of an execution for the refund row's amount, and what its success changes:
   * the refunded charge, an email stating the refunded amount and, when the whole charge came
   * back, the subscription (refunded) and its access (revoked).
   */
  private refundEffects(executionId: string, refunded: ChargeRow): ChargeEffects {
    return {
      instruction: { action: 'refund', executionId, reason: GATEWAY_REFUND_REASON },
      onSucceeded: async (tx, settled) => {
        await this.context.charges.markRefunded(tx, refunded.id, settled.amountMinor);
        if (settled.subscriptionId)
          await this.context.lifecycle.apply(tx, settled.subscriptionId, {
            type: 'refunded',
            charge: refunded,
            amountMinor: settled.amountMinor,
          });
      },
    };
  }

  /**
   * An operator's refund of one succeeded charge (issue 13), full or partial, through the charge
   * ledger with the same key `refund:{charge id}` as the money-back refund: a retry, a second click
   * or the recovery replays the first refund, and a charge is refunded at most once. A full refund
   * ends the subscription's access like the money-back guarantee; a partial one leaves it. The
   * customer gets the refund email with the refunded amount.
   * @throws AppError NOT_FOUND for an unknown or unpaid charge; CONFLICT when the amount exceeds
   * the charge or the charge was already refunded with another amount; SERVICE_UNAVAILABLE when
   * the gateway refuses or cannot be reached.
   */
  async refundCharge(
    charge: ChargeRow,
    amountMinor: number | undefined,
    reason: string,
  ): Promise<{ refundedMinor: number; refundId: string }> {
    const { charges } = this.context;
    const executionId = charge.executionId;
    if (charge.kind === 'refund' || !executionId || charge.status !== 'succeeded')
      throw new AppError('NOT_FOUND', API_MESSAGES.noPaidChargeWithId);
    const amount = amountMinor ?? charge.amountMinor;
    if (amount > charge.amountMinor) throw new AppError('CONFLICT', API_MESSAGES.refundExceedsCharge);
    const already = new AppError('CONFLICT', API_MESSAGES.chargeAlreadyRefunded);
    const previous = await charges.refundOf(charge.id);
    // A new refund of a disputed payment is refused (a replay of one made before the dispute is not).
    if (!previous) await this.disputes.assertRefundable([executionId]);
    if (previous && previous.amountMinor !== amount) throw already;
    const refund =
      previous ??
      (await charges.open({
        kind: 'refund',
        subscriptionId: charge.subscriptionId,
        planId: charge.planId,
        period: charge.period,
        attempt: 0,
        refundOfChargeId: charge.id,
        executionId,
        idempotencyKey: chargeKeys.refund(charge.id),
        amountMinor: amount,
        currency: charge.currency,
      }));
    // Another request opened the refund of this charge first, with another amount.
    if (refund.amountMinor !== amount || refund.refundOfChargeId !== charge.id) throw already;
    const outcome = await charges.run(refund, this.refundEffects(executionId, charge));
    switch (outcome.status) {
      case 'succeeded': {
        this.context.emails.kick();
        this.context.log.info({ chargeId: charge.id, amountMinor: outcome.charge.amountMinor, reason }, 'operator refund');
        const refundId = outcome.charge.gatewayRefundId;
        if (!refundId) throw new AppError('SERVICE_UNAVAILABLE', MESSAGES.somethingWentWrong);
        return { refundedMinor: outcome.charge.amountMinor, refundId };
      }
      case 'failed':
        throw new AppError('SERVICE_UNAVAILABLE', MESSAGES.somethingWentWrong);
      case 'unknown':
        throw new AppError('SERVICE_UNAVAILABLE', MESSAGES.somethingWentWrong, { cause: outcome.error });
      default: {
        const exhaustive: never = outcome;
        return exhaustive;
      }
    }
  }

  /** `POST /api/send-activation-by-email/{code}/{email}`: the activation link, when the email bought something. */
  async sendActivation(code: string, email: string): Promise<void> {
    const { repository, db, config } = this.context;
    const normalized = normalizeEmail(email);
    const rows = await repository.byEmail(db, normalized);
    if (rows.length === 0) return; // Same answer either way: no account enumeration.
    const url = `${config.publicUrl}/${config.PRODUCT_SLUG}/activate?code=${encodeURIComponent(code)}`;
    await this.context.emails.enqueue(
      db,
      `activation:${normalized}:${code}`,
      normalized,
      activationEmail({ productName: config.PRODUCT_NAME, activationUrl: url }),
    );
    this.context.emails.kick();
  }
}
