import { randomUUID } from 'node:crypto';
import { API_MESSAGES, MESSAGES, formatMessage } from '@roots/contracts';
import { compactAttribution, eventValue, type Attribution, type PurchaseEventName } from '@roots/contracts/events';
import type { Execution } from '@roots/contracts/gateway';
import {
  hasAccess,
  isCancelable,
  type Consent,
  type PaymentStatusResponse,
  type SubscriptionStatus,
  type SubscriptionSummary,
} from '@roots/contracts/subscriptions';
import { AppError } from '../../errors';
import type { Tx } from '../../db/executor';
import { holderReferenceFor, maskEmail, normalizeEmail } from '../../lib/mask';
import { fromMinor } from '../../lib/money';
import { cancelUrl } from '../cancellation/cancel-link';
import { agreedRecord, agreedSummaryOf, agreedTermsOf, periodEnd, planTerms, type PlanTerms } from '../billing/plan-terms';
import { purchasesEmail } from '../emails/email-templates';
import { addOnSubscriptionId, chargeKeys, orderReferences } from '../charges/charge-keys';
import { guaranteedRefund } from '../charges/guarantee';
import { GatewayCallError } from '../gateway/gateway-client';
import { crashPoint } from '../../lib/fault-injection';
import type { BillingContext } from './context';
import type { ChargeRow } from '../charges/charges.repository';
import type { ChargeEffects } from '../charges/charges.service';
import type { IntentRow, NewSubscription, SubscriptionRow } from './subscriptions.repository';
import { shopperPaymentProblem } from '../gateway/shopper-payment';

/** How long a refused duplicate of a purchase in flight waits for the first one's subscription. */
const DUPLICATE_WAIT_MS = 10_000;
const DUPLICATE_POLL_MS = 100;

export type RequestMeta = { ip: string; userAgent: string };

export type PaymentInput = {
  planId: string;
  email: string;
  executionId: string;
  consent: Consent;
  attribution: Attribution | undefined;
  userId: string | null;
};

/** `parent`: the subscription the add-on is bought on, as the route read it for the ownership check. */
export type AddOnInput = { planId: string; email: string; parent: SubscriptionRow; attribution: Attribution | undefined };

/**
 * Creation and reading of subscriptions. A subscription exists only for an execution the gateway
 * confirmed server-to-server; duplicates collapse on unique constraints, not in memory.
 */
export class SubscriptionsService {
  constructor(private readonly context: BillingContext) {
    context.charges.recoverWith('add-on', (charge) => this.addOnRecovery(charge));
  }

  /** The plan's terms; `code` says whose fault an unknown plan is (the request's, or ours for a stored one). */
  terms(planId: string, failure: string, code: 'BAD_REQUEST' | 'INTERNAL_ERROR' = 'BAD_REQUEST'): PlanTerms {
    const terms = planTerms(this.context.config.catalog, planId);
    if (!terms) throw new AppError(code, failure);
    return terms;
  }

  /** @throws AppError BAD_REQUEST for a plan the catalog does not sell (what {@link initSession} refuses first). */
  assertKnownPlan(planId: string): void {
    if (!planTerms(this.context.config.catalog, planId))
      throw new AppError('BAD_REQUEST', formatMessage(MESSAGES.unknownPlan, { parameter: planId }));
  }

  /** The plan a checkout opened without `plan_id` sells. */
  get defaultPlanId(): string {
    return this.context.config.catalog.defaultPlanId;
  }

  cancelUrl(subscriptionId: string): string {
    return cancelUrl(this.context.config, subscriptionId, this.context.clock.now());
  }

  // ----- payment session ------------------------------------------------------------------

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

  // ----- purchase with a shopper present (card, vault instrument, Apple Pay) --------------------

  /**
   * Creates the subscription a verified payment bought. The intent is written before the gateway
   * is asked, so a crash anywhere after it is finished by {@link reconcile}; the subscription is
   * unique per execution, so replays and double submits answer the same id. An execution of no
   * checkout this server opened (and no purchase names) cannot pay for anything: it is refused
   * before anything is written or asked (ADR 160). `admit` is called just before the gateway is
   * asked (the merchant-API budget): it may refuse.
   */
  async createFromPayment(input: PaymentInput, meta: RequestMeta, admit?: () => Promise<void>): Promise<{ id: string }> {
    const { repository, db, clock } = this.context;
    // Every failure answers the spec's fallback (product-spec §8).
    const failure = MESSAGES.cantCreateSubscription;
    const email = normalizeEmail(input.email);
    // The consent record holds the server's own disclosure of this plan, never text a client sent.
    const { disclosure } = this.terms(input.planId, failure);
    if (!(await repository.findIntent(db, input.executionId)) && !(await repository.openedCheckout(db, input.executionId)))
      throw new AppError('PAYMENT_NOT_ACCEPTED', failure);
    const now = clock.now();
    const intent = await repository.upsertIntent(db, {
      executionId: input.executionId,
      planId: input.planId,
      email,
      userId: input.userId,
      attribution: compactAttribution(input.attribution),
      termsText: disclosure.terms_text,
      termsVersion: disclosure.terms_version,
      consentIp: meta.ip,
      consentUserAgent: meta.userAgent.slice(0, 1000),
      createdAt: now,
      updatedAt: now,
    });
    // The execution was claimed for another purchase: grant nothing, reveal nothing.
    if (intent.email !== email || intent.planId !== input.planId) throw new AppError('CONFLICT', failure);
    if (intent.state === 'completed' && intent.subscriptionId) return this.linkUser(intent.subscriptionId, input.userId);
    if (intent.state === 'failed') throw new AppError('PAYMENT_NOT_ACCEPTED', failure);

    try {
      await admit?.();
    } catch (refusal) {
      // Duplicates of a purchase in flight (a double click, a storm of retries) get the first one's
      // answer once it is written, not a refusal of the budget the first one spent (issue 32).
      const completed = refusal instanceof AppError && refusal.statusCode === 429 ? await this.completedSoon(input.executionId) : undefined;
      if (completed) return this.linkUser(completed, input.userId);
      throw refusal;
    }
    let execution: Execution;
    try {
      execution = await this.context.gateway.getExecution(input.executionId);
    } catch (error) {
      if (error instanceof GatewayCallError && error.status === 404) {
        await repository.setIntentState(db, input.executionId, 'failed', null, clock.now());
        throw new AppError('PAYMENT_NOT_ACCEPTED', failure, { cause: error });
      }
      throw new AppError('SERVICE_UNAVAILABLE', failure, { cause: error });
    }
    const problem = this.verify(execution, intent);
    if (problem === 'pending') throw new AppError('CONFLICT', failure);
    if (problem) {
      await repository.setIntentState(db, input.executionId, 'failed', null, clock.now());
      this.context.log.warn({ executionId: execution.id, problem, email: maskEmail(email) }, 'payment not accepted for a subscription');
      throw new AppError('PAYMENT_NOT_ACCEPTED', failure);
    }
    if (await this.setAsideIfPaidAnotherWay(intent)) throw new AppError('ALREADY_OWNED', API_MESSAGES.alreadyOwnedPaidTwice);
    crashPoint(this.context.config, 'create-after-verify');
    const id = await this.completeIntent(intent, execution, meta);
    return this.linkUser(id, input.userId);
  }

  /** The subscription a purchase in flight makes, read again for a few seconds; undefined when none came. */
  private async completedSoon(executionId: string): Promise<string | undefined> {
    const { repository, db } = this.context;
    for (let wait = 0; wait < DUPLICATE_WAIT_MS; wait += DUPLICATE_POLL_MS) {
      const intent = await repository.findIntent(db, executionId);
      if (intent?.state === 'completed' && intent.subscriptionId) return intent.subscriptionId;
      if (intent?.state === 'failed') return undefined;
      await new Promise((resolve) => setTimeout(resolve, DUPLICATE_POLL_MS));
    }
    return undefined;
  }

  /** Why an execution cannot pay for the intent's plan; undefined when it can. */
  private verify(
    execution: Execution,
    intent: IntentRow,
  ): 'pending' | 'not-successful' | 'amount' | 'plan' | 'refunded' | 'merchant-initiated' | undefined {
    const terms = planTerms(this.context.config.catalog, intent.planId);
    if (!terms) return 'plan';
    const unpaid = shopperPaymentProblem(execution);
    if (unpaid) return unpaid;
    if (execution.amount.currency !== 'USD' || execution.amount.value !== terms.firstAmountMinor) return 'amount';
    if (execution.orderReference !== undefined && execution.orderReference !== terms.id) return 'plan';
    if (execution.amountRefunded > 0) return 'refunded';
    return undefined;
  }

  /** Writes subscription, first charge, grants, receipt and purchase events in one transaction. */
  async completeIntent(intent: IntentRow, execution: Execution, meta: RequestMeta | null): Promise<string> {
    const { repository, clock } = this.context;
    const terms = this.terms(intent.planId, MESSAGES.cantCreateSubscription, 'INTERNAL_ERROR');
    const now = clock.now();
    const periodEndAt = terms.firstPeriod ? periodEnd(now, terms.firstPeriod) : null;
    const status: SubscriptionStatus = terms.recurring && terms.hasTrial ? 'trialing' : 'active';
    const id = await this.context.db.transaction(async (tx) => {
      const row: NewSubscription = {
        id: randomUUID(),
        email: intent.email,
        userId: intent.userId,
        planId: terms.id,
        status,
        initialExecutionId: execution.id,
        holderReference: execution.holderReference,
        instrumentId: execution.instrument?.status === 'enabled' ? execution.instrument.id : null,
        cardLast4: execution.instrument?.last4 ?? null,
        cardNetwork: execution.instrument?.network ?? null,
        currentPeriod: 0,
        currentPeriodStart: now,
        currentPeriodEnd: periodEndAt,
        // Recurring: charge at the period end; one-month purchases: expire then; lifetime: never.
        dueAt: periodEndAt,
        agreedTerms: agreedRecord(terms, execution.amount.currency),
        termsText: intent.termsText,
        termsVersion: intent.termsVersion,
        consentAt: intent.createdAt,
        consentIp: intent.consentIp,
        consentUserAgent: intent.consentUserAgent,
        attribution: intent.attribution,
        createdAt: now,
        updatedAt: now,
      };
      const { id: subscriptionId, created } = await this.context.lifecycle.start(tx, row, (subscriptionId) =>
        this.context.charges.record(
          tx,
          {
            kind: 'first',
            subscriptionId,
            planId: terms.id,
            period: 0,
            attempt: 0,
            idempotencyKey: chargeKeys.first(execution.id),
            amountMinor: execution.amount.value,
            currency: execution.amount.currency,
          },
          execution,
        ),
      );
      if (created) {
        await this.recordPurchaseEvents(tx, {
          subscriptionId,
          terms,
          amountMinor: execution.amount.value,
          attribution: intent.attribution,
          meta,
          now,
        });
      }
      await repository.setIntentState(tx, execution.id, 'completed', subscriptionId, now);
      return subscriptionId;
    });
    this.context.emails.kick();
    this.context.log.info({ subscriptionId: id, planId: terms.id, email: maskEmail(intent.email) }, 'subscription created');
    return id;
  }

  /** The purchase events of a new purchase (inside its transaction). */
  private async recordPurchaseEvents(
    tx: Tx,
    input: {
      subscriptionId: string;
      terms: PlanTerms;
      amountMinor: number;
      attribution: Record<string, string>;
      meta: RequestMeta | null;
      now: Date;
    },
  ): Promise<void> {
    const { repository } = this.context;
    const { terms } = input;
    const names: PurchaseEventName[] = terms.recurring
      ? ['Purchase', 'AllPurchase', ...(terms.hasTrial ? [] : (['Full plan sale purchase'] as const))]
      : ['One-timePurchase', 'AllPurchase'];
    for (const name of names) {
      await repository.recordPurchaseEvent(tx, {
        name,
        subscriptionId: input.subscriptionId,
        value: eventValue(fromMinor(input.amountMinor)),
        attribution: input.attribution,
        ip: input.meta?.ip ?? null,
        userAgent: input.meta?.userAgent ?? null,
        now: input.now,
      });
    }
  }

  private async linkUser(subscriptionId: string, userId: string | null): Promise<{ id: string }> {
    if (userId) await this.context.repository.linkUnlinked(this.context.db, subscriptionId, userId, this.context.clock.now());
    return { id: subscriptionId };
  }

  // ----- one-click add-on (merchant-initiated on the parent's stored instrument) ------------------

  /** The add-on of `planId` already bought on `parentId` (a repeat click answers it again), if any. */
  async boughtAddOn(parentId: string, planId: string): Promise<string | undefined> {
    return (await this.context.repository.find(this.context.db, addOnSubscriptionId(parentId, planId)))?.id;
  }

  async createAddOn(input: AddOnInput, meta: RequestMeta): Promise<{ id: string }> {
    const { repository, db } = this.context;
    const failure = MESSAGES.cantCreateSubscription;
    const terms = this.terms(input.planId, failure);
    if (terms.recurring) throw new AppError('BAD_REQUEST', failure);
    const { parent } = input;
    if (parent.email !== normalizeEmail(input.email) || !hasAccess(parent.status))
      throw new AppError('NOT_FOUND', MESSAGES.noSubscriptionData);
    if (!parent.instrumentId) throw new AppError('UNPROCESSABLE', failure);

    const subscriptionId = addOnSubscriptionId(parent.id, terms.id);
    const existing = await repository.find(db, subscriptionId);
    if (existing) return { id: existing.id };

    const [latest] = await this.context.charges.attempts(subscriptionId, 0);
    const attempt = latest ? latest.attempt + 1 : 0;
    const charge =
      latest && latest.status !== 'failed'
        ? latest
        : await this.context.charges.open({
            kind: 'add-on',
            subscriptionId,
            parentSubscriptionId: parent.id,
            planId: terms.id,
            period: 0,
            attempt,
            idempotencyKey: chargeKeys.addOn(parent.id, terms.id, attempt),
            amountMinor: terms.firstAmountMinor,
            currency: 'USD',
          });
    const outcome = await this.context.charges.run(charge, this.addOnEffects(charge, parent, { attribution: input.attribution, meta }));
    switch (outcome.status) {
      case 'succeeded':
        this.context.emails.kick();
        return { id: subscriptionId };
      case 'unknown':
        throw new AppError('SERVICE_UNAVAILABLE', failure);
      case 'failed':
        throw new AppError('PAYMENT_NOT_ACCEPTED', failure);
      default: {
        const exhaustive: never = outcome;
        return exhaustive;
      }
    }
  }

  /** A pending add-on left by a dead process: its parent and plan are columns of the ledger row. */
  private async addOnRecovery(charge: ChargeRow): Promise<ChargeEffects | undefined> {
    if (!charge.parentSubscriptionId) return undefined;
    const parent = await this.context.repository.find(this.context.db, charge.parentSubscriptionId);
    if (!parent) return undefined;
    return this.addOnEffects(charge, parent, { attribution: undefined, meta: null });
  }

  /** The charge of an add-on on its parent's stored instrument, and the subscription its success creates. */
  private addOnEffects(
    charge: ChargeRow,
    parent: SubscriptionRow,
    request: { attribution: Attribution | undefined; meta: RequestMeta | null },
  ): ChargeEffects {
    return {
      instruction: {
        action: 'charge',
        request: {
          instrumentId: parent.instrumentId ?? '',
          holderReference: parent.holderReference,
          amount: { value: charge.amountMinor, currency: charge.currency },
          orderReference: orderReferences.addOn(charge.idempotencyKey),
          reason: 'unscheduled',
        },
      },
      onSucceeded: (tx, settled) => this.createAddOnSubscription(tx, settled, parent, request),
    };
  }

  private async createAddOnSubscription(
    tx: Tx,
    charge: ChargeRow,
    parent: SubscriptionRow,
    request: { attribution: Attribution | undefined; meta: RequestMeta | null },
  ): Promise<void> {
    const terms = this.terms(charge.planId, MESSAGES.cantCreateSubscription, 'INTERNAL_ERROR');
    // An add-on's row always names the subscription its success creates.
    const subscriptionId = charge.subscriptionId;
    if (!subscriptionId) throw new AppError('INTERNAL_ERROR', MESSAGES.cantCreateSubscription);
    const now = this.context.clock.now();
    const periodEndAt = terms.firstPeriod ? periodEnd(now, terms.firstPeriod) : null;
    const attribution = compactAttribution(request.attribution);
    const row = {
      id: subscriptionId,
      email: parent.email,
      userId: parent.userId,
      planId: terms.id,
      status: 'active' as const,
      parentId: parent.id,
      initialExecutionId: charge.executionId ?? charge.idempotencyKey,
      holderReference: parent.holderReference,
      instrumentId: parent.instrumentId,
      cardLast4: parent.cardLast4,
      cardNetwork: parent.cardNetwork,
      currentPeriodStart: now,
      currentPeriodEnd: periodEndAt,
      dueAt: periodEndAt,
      agreedTerms: agreedRecord(terms, charge.currency),
      termsText: terms.disclosure.terms_text,
      termsVersion: terms.disclosure.terms_version,
      consentAt: now,
      consentIp: request.meta?.ip ?? parent.consentIp,
      consentUserAgent: request.meta?.userAgent ?? parent.consentUserAgent,
      attribution,
      createdAt: now,
      updatedAt: now,
    };
    const { created } = await this.context.lifecycle.start(tx, row, async () => charge);
    if (created) {
      await this.recordPurchaseEvents(tx, {
        subscriptionId,
        terms,
        amountMinor: charge.amountMinor,
        attribution,
        meta: request.meta,
        now,
      });
    }
  }

  // ----- recovery after a crash ---------------------------------------------------------------

  /**
   * Finishes what a dead process left: open purchase intents whose payment succeeded get their
   * subscription (pending add-on charges are the charge ledger's: ChargesService.recover).
   * Returns how many it settled.
   */
  async reconcile(limit = 50): Promise<number> {
    const { repository, db, clock } = this.context;
    const before = new Date(clock.now().getTime() - this.context.config.PURCHASE_RECONCILE_AFTER_MS);
    let settled = 0;
    for (const intent of await repository.openIntents(db, before, limit)) {
      try {
        if ((await this.settleIntent(intent)) !== 'pending') settled += 1;
      } catch (error) {
        if (error instanceof GatewayCallError && error.status === 404) {
          await repository.setIntentState(db, intent.executionId, 'failed', null, clock.now());
          settled += 1;
        } else this.context.log.warn({ executionId: intent.executionId, err: error }, 'reconcile: intent left open');
      }
    }
    return settled;
  }

  /** True when an open intent is old enough that no request is still finishing it. */
  isStale(intent: IntentRow): boolean {
    return intent.createdAt.getTime() <= this.context.clock.now().getTime() - this.context.config.PURCHASE_RECONCILE_AFTER_MS;
  }

  /**
   * Settles an open intent from the execution as the gateway reports it now, with the same
   * verification as the purchase request: `completed` (its subscription exists), `failed` (the
   * payment cannot buy the plan), `pending` (not decided at the gateway yet).
   * @throws GatewayCallError when the gateway cannot be read (a 404 is thrown too: the caller decides).
   */
  async settleIntent(intent: IntentRow): Promise<'completed' | 'failed' | 'pending'> {
    const { repository, db, clock } = this.context;
    const execution = await this.context.gateway.getExecution(intent.executionId);
    const problem = this.verify(execution, intent);
    if (problem === 'pending') return 'pending';
    if (problem) {
      await repository.setIntentState(db, intent.executionId, 'failed', null, clock.now());
      return 'failed';
    }
    if (await this.setAsideIfPaidAnotherWay(intent)) return 'failed';
    await this.completeIntent(intent, execution, null);
    return 'completed';
  }

  /**
   * A payment that went through after its buyer paid for the same plan another way (the bank's
   * check was left open, then the customer paid with another card; or the other way round) buys
   * nothing: its intent is failed, keeping the buyer's email, so no request can complete it, and
   * the payment sweep refunds it and tells the buyer (ADR 127, issue 24). True when set aside.
   * Only a purchase made while this one was open counts: a plan bought again long after is a
   * purchase of its own.
   */
  private async setAsideIfPaidAnotherWay(intent: IntentRow): Promise<boolean> {
    const { repository, db, clock, log } = this.context;
    const other = (await repository.byEmail(db, intent.email)).find(
      (row) =>
        row.planId === intent.planId &&
        row.parentId === null &&
        row.initialExecutionId !== intent.executionId &&
        row.createdAt.getTime() > intent.createdAt.getTime(),
    );
    if (!other) return false;
    await repository.setIntentState(db, intent.executionId, 'failed', null, clock.now());
    log.warn(
      { executionId: intent.executionId, subscriptionId: other.id, email: maskEmail(intent.email) },
      'payment confirmed after its plan was paid another way; set aside for the sweep to refund',
    );
    return true;
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
        const id = (await repository.findIntent(db, executionId))?.subscriptionId ?? (await this.byPayment(executionId))?.id;
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

  /**
   * What the server does when the gateway reports an execution (a verified webhook): a successful
   * shopper payment whose purchase request died finishes its subscription at once instead of
   * waiting for the reconciler. Merchant-initiated executions are the charge ledger's own.
   */
  async learnOfExecution(execution: Execution): Promise<'completed' | 'failed' | 'already-recorded' | 'no-intent' | 'ignored'> {
    const { repository, db } = this.context;
    if (execution.merchantInitiated) return 'ignored';
    const intent = await repository.findIntent(db, execution.id);
    if (!intent) {
      // Paid at the gateway, never announced to us: nothing names the buyer. The sweep refunds it after its grace period (ADR 127).
      if (execution.status === 'authorizeSuccessful')
        this.context.log.warn({ executionId: execution.id }, 'paid execution without a purchase intent; left to the sweep');
      return 'no-intent';
    }
    if (intent.state !== 'open') return 'already-recorded';
    // The webhook is a notice, never the evidence: settling reads the execution back from the gateway.
    const outcome = await this.settleIntent(intent);
    return outcome === 'pending' ? 'ignored' : outcome;
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

  /** The subscription a payment (its gateway execution) made, if any: a replay of its purchase. */
  byPayment(executionId: string): Promise<SubscriptionRow | undefined> {
    return this.context.repository.byInitialExecution(this.context.db, executionId);
  }

  /**
   * A second payment for what `ownerEmail` already owns (a second tab, Back then pay): it buys
   * nothing. Its intent is written as failed, naming the owner, so no later request can complete it;
   * the payment sweep refunds it and tells the owner by email (issue 23).
   */
  async setAsidePaidTwice(executionId: string, planId: string, ownerEmail: string): Promise<void> {
    await this.context.repository.claimUnpurchased(this.context.db, {
      executionId,
      planId,
      email: ownerEmail,
      now: this.context.clock.now(),
    });
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
    const grants = await this.context.repository.grantsOf(
      this.context.db,
      rows.map((row) => row.id),
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
        access: grants
          .filter((grant) => grant.subscriptionId === row.id && !grant.revokedAt && (!grant.expiresAt || grant.expiresAt > now))
          .map((grant) => grant.kind),
      };
    });
  }
}
