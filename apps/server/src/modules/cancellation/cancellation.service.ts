import { createHmac, randomInt, timingSafeEqual } from 'node:crypto';
import { MESSAGES } from '@roots/contracts';
import { EMAIL_CODE_LENGTH } from '@roots/contracts/auth';
import type { CancelOutcome, SubscriptionStatus } from '@roots/contracts/subscriptions';
import { AppError } from '../../errors';
import { DAY_MS } from '../../lib/clock';
import { maskEmail, normalizeEmail } from '../../lib/mask';
import { fromMinor } from '../../lib/money';
import { verifyToken } from '../../lib/signed-token';
import { planTerms } from '../billing/plan-terms';
import { activationEmail, cancelCodeEmail, cancelConfirmationEmail, refundEmail } from '../emails/email-templates';
import { GatewayCallError } from '../gateway/gateway-client';
import type { BillingContext } from '../subscriptions/context';
import { isCancelable, transition } from '../subscriptions/subscription-state';
import type { ChargeRow, SubscriptionRow } from '../subscriptions/subscriptions.repository';
import type { SubscriptionsService } from '../subscriptions/subscriptions.service';
import type { CancellationRepository } from './cancellation.repository';

const CODE_TTL_MS = 15 * 60_000;
const MAX_CODE_ATTEMPTS = 5;

/** Cancellation by email code, by id and by one-click link; refunds under the money-back guarantee. */
export class CancellationService {
  constructor(
    private readonly context: BillingContext,
    private readonly codes: CancellationRepository,
    private readonly subscriptions: SubscriptionsService,
  ) {}

  private hashCode(email: string, code: string): string {
    return createHmac('sha256', this.context.config.APP_SECRET).update(`cancel-code:${email}:${code}`).digest('hex');
  }

  /** Live recurring subscriptions of an email (what "cancel" applies to). */
  private async cancelableOf(email: string): Promise<SubscriptionRow[]> {
    const rows = await this.context.repository.byEmail(this.context.db, email);
    return rows.filter(
      (row) => isCancelable(row.status as SubscriptionStatus) && planTerms(this.context.config.catalog, row.planId)?.recurring === true,
    );
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
      if (live.length === 0) throw new AppError('NOT_FOUND', 404, MESSAGES.noSubscriptions);
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
    if (!stored || stored.attempts >= MAX_CODE_ATTEMPTS) throw new AppError('BAD_REQUEST', 400, MESSAGES.somethingWentWrong);
    const expected = Buffer.from(stored.codeHash, 'hex');
    const given = Buffer.from(this.hashCode(email, input.code), 'hex');
    if (!timingSafeEqual(expected, given)) {
      await this.codes.countAttempt(db, stored.id);
      throw new AppError('BAD_REQUEST', 400, MESSAGES.somethingWentWrong);
    }
    await this.codes.use(db, stored.id, clock.now());
    if (live.length === 0) throw new AppError('NOT_FOUND', 404, MESSAGES.noSubscriptions);
    for (const row of live) await this.cancel(row);
    return { message: MESSAGES.subscriptionCanceled };
  }

  /** `POST /api/cancel` by id. */
  async byId(id: string, refund: boolean): Promise<CancelOutcome> {
    const row = await this.context.repository.find(this.context.db, id);
    if (!row) throw new AppError('NOT_FOUND', 404, MESSAGES.noSubscriptions);
    return this.cancelWithRefund(row, refund);
  }

  /** `/api/cancel-subscription/{content}`: the one-click link of the emails. */
  async byLink(content: string, refund: boolean): Promise<CancelOutcome> {
    const id = verifyToken(this.context.config.APP_SECRET, 'cancel', content);
    if (!id) throw new AppError('NOT_FOUND', 404, MESSAGES.noSubscriptions);
    return this.byId(id, refund);
  }

  private async cancelWithRefund(row: SubscriptionRow, refund: boolean): Promise<CancelOutcome> {
    const status = row.status as SubscriptionStatus;
    // Already canceled or ended: the same answer, so a second click on a link is harmless.
    if (isCancelable(status)) await this.cancel(row);
    const refunded = refund ? await this.refundLatest(row.id) : 0;
    return { message: MESSAGES.subscriptionCanceled, ...(refunded > 0 ? { refunded: fromMinor(refunded) } : {}) };
  }

  /** Cancels at period end: no more charges, access until the paid period ends. Idempotent. */
  async cancel(row: SubscriptionRow): Promise<void> {
    const { repository, db, clock, config } = this.context;
    const now = clock.now();
    await db.transaction(async (tx) => {
      const locked = await repository.lock(tx, row.id);
      if (!locked || !isCancelable(locked.status as SubscriptionStatus)) return;
      await repository.update(tx, row.id, {
        status: transition(locked.status as SubscriptionStatus, 'canceled'),
        canceledAt: now,
        dueAt: locked.currentPeriodEnd,
        retryCount: 0,
        updatedAt: now,
      });
      await this.context.emails.enqueue(
        tx,
        `cancel:${row.id}`,
        row.email,
        cancelConfirmationEmail({
          productName: config.PRODUCT_NAME,
          planName: planTerms(config.catalog, row.planId)?.name ?? row.planId,
          accessUntil: locked.currentPeriodEnd,
        }),
      );
    });
    this.context.emails.kick();
    this.context.log.info({ subscriptionId: row.id, email: maskEmail(row.email) }, 'subscription canceled');
  }

  /**
   * Refunds the latest successful charge when it is within MONEY_BACK_GUARANTEE_DAYS, through the
   * gateway with the key `refund:{charge id}` (a retry replays the first refund). Access ends.
   * Returns the refunded minor units (0 when nothing qualified).
   */
  async refundLatest(subscriptionId: string): Promise<number> {
    const { repository, db, clock, config } = this.context;
    const charges = await repository.chargesOf(db, subscriptionId);
    const charge = charges.find((candidate) => candidate.status === 'succeeded' && candidate.executionId);
    if (!charge?.executionId) return 0;
    if (charge.refundedMinor > 0) return charge.refundedMinor;
    if (clock.now().getTime() - charge.createdAt.getTime() > config.MONEY_BACK_GUARANTEE_DAYS * DAY_MS) return 0;
    let refundId: string;
    try {
      const answer = await this.context.gateway.refund(charge.executionId, { reason: 'money-back guarantee' }, `refund:${charge.id}`);
      refundId = answer.refund.id;
    } catch (error) {
      if (error instanceof GatewayCallError && error.code === 'REFUND_NOT_ALLOWED') return 0;
      throw new AppError('SERVICE_UNAVAILABLE', 503, MESSAGES.somethingWentWrong, { cause: error });
    }
    const now = clock.now();
    await db.transaction(async (tx) => {
      const recorded = await repository.recordRefund(tx, { charge, amountMinor: charge.amountMinor, gatewayRefundId: refundId, now });
      if (!recorded) return;
      const locked = await repository.lock(tx, subscriptionId);
      if (locked && locked.status !== 'expired') {
        await repository.update(tx, subscriptionId, {
          status: transition(locked.status as SubscriptionStatus, 'refunded'),
          dueAt: null,
          endedAt: now,
          updatedAt: now,
        });
        await repository.revokeGrants(tx, subscriptionId, now);
      }
      const row = locked ?? (await repository.find(tx, subscriptionId));
      if (row)
        await this.context.emails.enqueue(
          tx,
          `refund:${charge.id}`,
          row.email,
          refundEmail({ productName: config.PRODUCT_NAME, amountMinor: charge.amountMinor, cardLast4: row.cardLast4 }),
        );
    });
    this.context.emails.kick();
    return charge.amountMinor;
  }

  /**
   * An operator's refund of one succeeded charge (issue 13), full or partial, through the gateway
   * with the same key `refund:{charge id}` as the money-back refund: a retry or a second click
   * replays the first refund, and a charge is refunded at most once. A full refund ends the
   * subscription's access like the money-back guarantee; a partial one leaves it. The customer
   * gets the refund email.
   * @throws AppError NOT_FOUND for an unknown or unpaid charge; CONFLICT when the amount exceeds
   * the charge or the charge was already refunded with another amount; SERVICE_UNAVAILABLE when
   * the gateway refuses or cannot be reached.
   */
  async refundCharge(
    charge: ChargeRow,
    amountMinor: number | undefined,
    reason: string,
  ): Promise<{ refundedMinor: number; refundId: string }> {
    const { repository, db, clock, config } = this.context;
    if (!charge.executionId || charge.status !== 'succeeded') throw new AppError('NOT_FOUND', 404, 'No paid charge with this id');
    const amount = amountMinor ?? charge.amountMinor;
    if (amount > charge.amountMinor) throw new AppError('CONFLICT', 409, 'The refund exceeds the charge');
    if (charge.refundedMinor > 0 && charge.refundedMinor !== amount)
      throw new AppError('CONFLICT', 409, 'This charge was already refunded');
    const executionId = charge.executionId;
    let answer: Awaited<ReturnType<BillingContext['gateway']['refund']>>;
    try {
      answer = await this.context.gateway.refund(
        executionId,
        { amount: { value: amount, currency: charge.currency }, reason },
        `refund:${charge.id}`,
      );
    } catch (error) {
      throw new AppError('SERVICE_UNAVAILABLE', 503, MESSAGES.somethingWentWrong, { cause: error });
    }
    const refunded = answer.refund.amount.value;
    const now = clock.now();
    await db.transaction(async (tx) => {
      const recorded = await repository.recordRefund(tx, { charge, amountMinor: refunded, gatewayRefundId: answer.refund.id, now });
      if (!recorded) return;
      const locked = await repository.lock(tx, charge.subscriptionId);
      if (locked && refunded >= charge.amountMinor && locked.status !== 'expired') {
        await repository.update(tx, charge.subscriptionId, {
          status: transition(locked.status as SubscriptionStatus, 'refunded'),
          dueAt: null,
          endedAt: now,
          updatedAt: now,
        });
        await repository.revokeGrants(tx, charge.subscriptionId, now);
      }
      const row = locked ?? (await repository.find(tx, charge.subscriptionId));
      if (row)
        await this.context.emails.enqueue(
          tx,
          `refund:${charge.id}`,
          row.email,
          refundEmail({ productName: config.PRODUCT_NAME, amountMinor: refunded, cardLast4: row.cardLast4 }),
        );
    });
    this.context.emails.kick();
    return { refundedMinor: refunded, refundId: answer.refund.id };
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
