import { randomUUID } from 'node:crypto';
import { API_MESSAGES, MESSAGES } from '@roots/contracts';
import type { CardUpdateCheckout, CardUpdateCompleteResponse, CardUpdateSubject } from '@roots/contracts/card-update';
import { CARD_VERIFICATION_AMOUNT, CARD_VERIFICATION_METHODS, type Execution } from '@roots/contracts/gateway';
import { AppError } from '../../errors';
import { maskEmail } from '../../lib/mask';
import { fromMinor } from '../../lib/money';
import type { SessionUser } from '../auth/session';
import { isOwner } from '../identity/ownership';
import { GatewayCallError } from '../gateway/gateway-client';
import type { BillingContext } from '../subscriptions/context';
import type { SubscriptionRow } from '../subscriptions/subscriptions.repository';
import { cardUpdateOrderReference, cardUpdateRefusal, recordCardUpdate, type VerifiedCard } from './card-update';
import { agreedTermsOf } from '../terms/plan-terms';
import { liveUpdateCardLink } from '../links/update-card-link';
import { shopperPaymentProblem } from '../gateway/shopper-payment';

/** Why an execution cannot put a card on the subscription; undefined when it can. */
type Problem = 'pending' | 'not-successful' | 'merchant-initiated' | 'holder' | 'order' | 'amount' | 'instrument';

/**
 * A new card for a subscription (issue 23, ADR 143). The customer proves the subscription is theirs
 * (signed in as its owner, or with the update-card link of the payment-failed email), gets a
 * zero-amount, card-only gateway session for the subscription's card holder, enters the card in
 * the checkout's secure form, and the execution it reports is read back from the gateway before
 * its stored instrument replaces the subscription's card. Card data never reaches this server.
 */
export class CardUpdateService {
  constructor(private readonly context: BillingContext) {}

  /** The subscription `id` of the signed-in `user`; someone else's, or none, answers the same 404. */
  async ownedBy(user: SessionUser, id: string): Promise<SubscriptionRow> {
    const row = await this.context.repository.find(this.context.db, id.toLowerCase());
    if (!row || !isOwner(user, row)) throw new AppError('NOT_FOUND', API_MESSAGES.cardUpdateNotFound);
    return row;
  }

  /** The subscription a live update-card link names; a forged, foreign or expired link answers 404. */
  async byLink(content: string): Promise<SubscriptionRow> {
    const id = liveUpdateCardLink(this.context.config.APP_SECRET, content, this.context.clock.now());
    const row = id ? await this.context.repository.find(this.context.db, id) : undefined;
    if (!row) throw new AppError('NOT_FOUND', API_MESSAGES.cardUpdateLinkInvalid);
    return row;
  }

  /** A card-verification checkout for `row` (already proven to be the caller's), with what it is for. */
  async open(row: SubscriptionRow): Promise<CardUpdateCheckout> {
    this.assertUpdatable(row);
    try {
      const checkout = await this.context.gateway.createSession(
        {
          amount: { value: CARD_VERIFICATION_AMOUNT, currency: this.currencyOf(row) },
          // The subscription's own card holder: the new card is stored where renewals charge.
          holderReference: row.holderReference,
          orderReference: cardUpdateOrderReference(row.id),
          paymentMethods: [...CARD_VERIFICATION_METHODS],
        },
        randomUUID(),
      );
      return { checkout, subscription: this.subject(row) };
    } catch (error) {
      throw new AppError('SERVICE_UNAVAILABLE', MESSAGES.somethingWentWrong, { cause: error });
    }
  }

  /**
   * Puts the card the execution verified on `row` (already proven to be the caller's): the execution
   * is read from the gateway and must be this subscription's card verification, successful, with an
   * enabled instrument. Completing the same execution again answers the same and writes nothing.
   */
  async complete(row: SubscriptionRow, executionId: string): Promise<CardUpdateCompleteResponse> {
    const { gateway, log, config } = this.context;
    this.assertUpdatable(row);
    let execution: Execution;
    try {
      execution = await gateway.getExecution(executionId);
    } catch (error) {
      if (error instanceof GatewayCallError && error.status === 404)
        throw new AppError('UNPROCESSABLE', API_MESSAGES.cardUpdateNotVerified, { cause: error });
      throw new AppError('SERVICE_UNAVAILABLE', MESSAGES.somethingWentWrong, { cause: error });
    }
    const problem = this.verify(execution, row);
    if (problem === 'pending') throw new AppError('CONFLICT', API_MESSAGES.cardUpdatePending);
    const card = problem ? undefined : this.cardOf(execution);
    if (!card) {
      log.warn(
        { subscriptionId: row.id, executionId: execution.id, problem },
        'card update refused: the execution does not verify a card for it',
      );
      throw new AppError('UNPROCESSABLE', API_MESSAGES.cardUpdateNotVerified);
    }
    const result = await recordCardUpdate(
      { db: this.context.db, lifecycle: this.context.lifecycle, catalog: config.catalog },
      { subscriptionId: row.id, card },
    );
    switch (result.kind) {
      case 'refused':
        throw new AppError(result.code, result.message);
      case 'updated':
        log.info(
          { subscriptionId: row.id, executionId: execution.id, status: result.row.status, email: maskEmail(row.email) },
          'subscription card updated',
        );
        return { subscription: this.subject(result.row) };
      case 'unchanged':
        return { subscription: this.subject(result.row) };
      default: {
        const exhaustive: never = result;
        return exhaustive;
      }
    }
  }

  /** @throws AppError when the subscription takes no new card (a one-time purchase, canceled, ended). */
  private assertUpdatable(row: SubscriptionRow): void {
    const refusal = cardUpdateRefusal(this.context.config.catalog, row);
    if (refusal) throw new AppError(refusal.code, refusal.message);
  }

  private verify(execution: Execution, row: SubscriptionRow): Problem | undefined {
    const unpaid = shopperPaymentProblem(execution);
    if (unpaid) return unpaid;
    if (execution.holderReference !== row.holderReference) return 'holder';
    if (execution.orderReference !== cardUpdateOrderReference(row.id)) return 'order';
    if (execution.amount.value !== CARD_VERIFICATION_AMOUNT) return 'amount';
    if (execution.instrument?.status !== 'enabled') return 'instrument';
    return undefined;
  }

  private cardOf(execution: Execution): VerifiedCard | undefined {
    const { instrument } = execution;
    if (!instrument || instrument.status !== 'enabled') return undefined;
    return { instrumentId: instrument.id, last4: instrument.last4, network: instrument.network ?? null };
  }

  private currencyOf(row: SubscriptionRow): string {
    return row.agreedTerms?.currency ?? 'USD';
  }

  /** What the update-card page says of the subscription: the next payment at the agreed price. */
  private subject(row: SubscriptionRow): CardUpdateSubject {
    const terms = agreedTermsOf(this.context.config.catalog, row);
    return {
      subscription_id: row.id,
      plan_id: row.planId,
      plan_name: terms?.name ?? row.planId,
      status: row.status,
      card_last4: row.cardLast4,
      card_network: row.cardNetwork,
      next_payment_amount: fromMinor(terms?.renewalAmountMinor ?? 0),
      currency: this.currencyOf(row),
      next_payment_at: row.dueAt?.toISOString() ?? null,
      retry_now: row.status === 'past_due',
    };
  }
}
