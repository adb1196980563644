import { randomUUID } from 'node:crypto';
import { MESSAGES, formatMessage } from '@roots/contracts';
import { AppError } from '../../errors';
import { holderReferenceFor, maskEmail } from '../../lib/mask';
import { fromMinor } from '../../lib/money';
import { planTerms } from '../terms/plan-terms';
import { orderReferences } from '../charges/charge-keys';
import { GatewayCallError } from '../gateway/gateway-client';
import type { BillingContext } from '../subscriptions/context';

/**
 * Opening a checkout: the gateway session of a plan's first charge, a fresh token of that session,
 * and Apple Pay's merchant validation. Nothing here writes a subscription.
 */
export class CheckoutSessions {
  constructor(private readonly context: BillingContext) {}

  /** @throws AppError BAD_REQUEST for a plan the catalog does not sell (what {@link initSession} refuses first). */
  assertKnownPlan(planId: string): void {
    if (!planTerms(this.context.config.catalog, planId))
      throw new AppError('BAD_REQUEST', formatMessage(MESSAGES.unknownPlan, { parameter: planId }));
  }

  /** The plan a checkout opened without `plan_id` sells. */
  get defaultPlanId(): string {
    return this.context.config.catalog.defaultPlanId;
  }

  /**
   * A gateway session for the plan's first charge. `holderEmail` (the signed-in user's verified
   * email, never one a request names) lets the session list and pay with that holder's stored cards.
   */
  async initSession(input: {
    planId: string | undefined;
    holderEmail: string | undefined;
    paymentMethods: string[] | undefined;
    /** The email the page collected, if it names one: kept masked only, for a declined payment's record (issue 25). */
    shopperEmail?: string | undefined;
  }) {
    const { catalog } = this.context.config;
    const planId = input.planId ?? catalog.defaultPlanId;
    const terms = planTerms(catalog, planId);
    if (!terms) throw new AppError('BAD_REQUEST', formatMessage(MESSAGES.unknownPlan, { parameter: planId }));
    const holderReference = input.holderEmail
      ? holderReferenceFor(input.holderEmail, this.context.config.APP_SECRET)
      : `h_anon_${randomUUID()}`;
    try {
      const session = await this.context.gateway.createSession(
        {
          amount: { value: terms.firstAmountMinor, currency: 'USD' },
          holderReference,
          orderReference: orderReferences.purchase(terms.id),
          ...(input.paymentMethods ? { paymentMethods: input.paymentMethods } : {}),
        },
        randomUUID(),
      );
      await this.context.repository.rememberCheckout(this.context.db, {
        executionId: session.executionId,
        planId: terms.id,
        maskedEmail: input.shopperEmail ? maskEmail(input.shopperEmail) : null,
        createdAt: this.context.clock.now(),
      });
      return { ...session, plan_id: terms.id, plan_amount: fromMinor(terms.firstAmountMinor), disclosure: terms.disclosure };
    } catch (error) {
      throw new AppError('SERVICE_UNAVAILABLE', MESSAGES.somethingWentWrong, { cause: error });
    }
  }

  /**
   * The checkout's getBearerToken callback: a fresh token of the same payment session (same
   * execution), so a paywall left open past the token's lifetime still pays once. A token the
   * gateway does not recognise answers 401.
   */
  async refreshSessionToken(bearerToken: string): Promise<{ bearerToken: string; expiresAt: string }> {
    try {
      const { bearerToken: fresh, expiresAt } = await this.context.gateway.refreshSessionToken(bearerToken);
      return { bearerToken: fresh, expiresAt };
    } catch (error) {
      if (error instanceof GatewayCallError && error.status === 401)
        throw new AppError('UNAUTHORIZED', MESSAGES.somethingWentWrong, { cause: error });
      throw new AppError('SERVICE_UNAVAILABLE', MESSAGES.somethingWentWrong, { cause: error });
    }
  }

  /** Apple Pay merchant validation through the gateway (the page never holds merchant credentials). */
  async validateApplePayMerchant(input: { validationURL: string; domain: string }) {
    try {
      return await this.context.gateway.appleMerchantValidation({ sessionUrl: input.validationURL, clientDomain: input.domain });
    } catch (error) {
      throw new AppError('SERVICE_UNAVAILABLE', MESSAGES.somethingWentWrong, { cause: error });
    }
  }
}
