import { randomUUID } from 'node:crypto';
import { MESSAGES } from '@roots/contracts';
import { compactAttribution, type Attribution } from '@roots/contracts/events';
import type { Execution } from '@roots/contracts/gateway';
import type { Consent } from '@roots/contracts/subscriptions';
import { AppError } from '../../errors';
import { crashPoint } from '../../lib/fault-injection';
import { maskEmail, normalizeEmail } from '../../lib/mask';
import type { RequestMeta } from '../../lib/request-meta';
import { agreedRecord, planTerms } from '../terms/plan-terms';
import type { Purchase } from '../lifecycle/subscription-lifecycle';
import { chargeKeys } from '../charges/charge-keys';
import { GatewayCallError } from '../gateway/gateway-client';
import { shopperPaymentProblem } from '../gateway/shopper-payment';
import type { BillingContext } from '../subscriptions/context';
import type { IntentRow, SubscriptionRow } from '../subscriptions/subscriptions.repository';
import { recordPurchaseEvents } from './purchase-events';
import type { OnePlan } from './one-plan';
import { sellingTerms } from './selling-terms';

/** How long a refused duplicate of a purchase in flight waits for the first one's subscription. */
const DUPLICATE_WAIT_MS = 10_000;
const DUPLICATE_POLL_MS = 100;

export type PaymentInput = {
  planId: string;
  email: string;
  executionId: string;
  consent: Consent;
  attribution: Attribution | undefined;
  userId: string | null;
  /** The subscriptions the buyer's browser proves it bought (its purchase cookie, ADR 085). */
  proofIds?: readonly string[];
};

/** What completing an intent did: made its subscription, or found the proven owner's live plan (ADR 196). */
type Completion = { id: string } | { duplicateOf: SubscriptionRow };

/**
 * The purchase a shopper pays for (card, vault instrument, Apple Pay): a subscription exists only
 * for an execution the gateway confirmed server-to-server; duplicates collapse on unique
 * constraints, not in memory. Open intents a dead process left are finished here too.
 */
export class PurchasesService {
  constructor(
    private readonly context: BillingContext,
    /** One customer, one plan (ADR 196): the purchase lock, and the refunds of duplicates. */
    private readonly onePlan: OnePlan,
  ) {}

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
    const { disclosure } = sellingTerms(this.context.config.catalog, input.planId, failure);
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
    const paidAnotherWay = await this.setAsideIfPaidAnotherWay(intent);
    if (paidAnotherWay) throw await this.onePlan.refuseDuplicatePayment(intent.executionId, paidAnotherWay);
    crashPoint(this.context.config, 'create-after-verify');
    const completion = await this.completeIntent(intent, execution, meta, input.proofIds ?? []);
    if ('duplicateOf' in completion) throw await this.onePlan.refuseDuplicatePayment(intent.executionId, completion.duplicateOf);
    return this.linkUser(completion.id, input.userId);
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

  /**
   * Writes subscription, first charge, grants, receipt and purchase events in one transaction, under
   * the email's purchase lock (ADR 196). A recurring plan whose buyer is proven to own a live plan
   * already (a signed-in buyer, whose email is the account's verified one; or a browser whose proof
   * holds that plan) makes no subscription: the intent is failed, naming the owner, and the caller
   * refunds the payment now. A buyer who proved nothing completes like anyone (ADR 196: the claim
   * settles it), so the answer tells no stranger what an email owns.
   */
  async completeIntent(
    intent: IntentRow,
    execution: Execution,
    meta: RequestMeta | null,
    proofIds: readonly string[] = [],
  ): Promise<Completion> {
    const { repository, clock } = this.context;
    const terms = sellingTerms(this.context.config.catalog, intent.planId, MESSAGES.cantCreateSubscription, 'INTERNAL_ERROR');
    const now = clock.now();
    const completion = await this.context.db.transaction(async (tx): Promise<Completion> => {
      await this.onePlan.lock(tx, intent.email);
      if (terms.recurring) {
        const live = (await this.onePlan.livePlansOf(tx, intent.email)).filter((row) => row.initialExecutionId !== execution.id);
        const owned = live.find((row) => intent.userId !== null || proofIds.includes(row.id));
        if (owned) {
          await repository.setIntentState(tx, execution.id, 'failed', null, now);
          return { duplicateOf: owned };
        }
      }
      const row: Purchase = {
        id: randomUUID(),
        email: intent.email,
        userId: intent.userId,
        planId: terms.id,
        initialExecutionId: execution.id,
        holderReference: execution.holderReference,
        instrumentId: execution.instrument?.status === 'enabled' ? execution.instrument.id : null,
        cardLast4: execution.instrument?.last4 ?? null,
        cardNetwork: execution.instrument?.network ?? null,
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
        await recordPurchaseEvents(this.context.repository, tx, {
          subscriptionId,
          terms,
          amountMinor: execution.amount.value,
          attribution: intent.attribution,
          meta,
          now,
        });
      }
      await repository.setIntentState(tx, execution.id, 'completed', subscriptionId, now);
      return { id: subscriptionId };
    });
    if ('duplicateOf' in completion) return completion;
    this.context.emails.kick();
    this.context.log.info({ subscriptionId: completion.id, planId: terms.id, email: maskEmail(intent.email) }, 'subscription created');
    return completion;
  }

  private async linkUser(subscriptionId: string, userId: string | null): Promise<{ id: string }> {
    if (userId) await this.context.repository.linkUnlinked(this.context.db, subscriptionId, userId, this.context.clock.now());
    return { id: subscriptionId };
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
    const paidAnotherWay = await this.setAsideIfPaidAnotherWay(intent);
    if (paidAnotherWay) {
      await this.onePlan.refuseDuplicatePayment(intent.executionId, paidAnotherWay);
      return 'failed';
    }
    const completion = await this.completeIntent(intent, execution, null);
    if ('duplicateOf' in completion) {
      await this.onePlan.refuseDuplicatePayment(intent.executionId, completion.duplicateOf);
      return 'failed';
    }
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
  private async setAsideIfPaidAnotherWay(intent: IntentRow): Promise<SubscriptionRow | undefined> {
    const { repository, db, clock, log } = this.context;
    const other = (await repository.byEmail(db, intent.email)).find(
      (row) =>
        row.planId === intent.planId &&
        row.parentId === null &&
        row.initialExecutionId !== intent.executionId &&
        row.createdAt.getTime() > intent.createdAt.getTime(),
    );
    if (!other) return undefined;
    await repository.setIntentState(db, intent.executionId, 'failed', null, clock.now());
    log.warn(
      { executionId: intent.executionId, subscriptionId: other.id, email: maskEmail(intent.email) },
      'payment confirmed after its plan was paid another way; set aside and refunded',
    );
    return other;
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

  /** The subscription a payment (its gateway execution) made, if any: a replay of its purchase. */
  byPayment(executionId: string): Promise<SubscriptionRow | undefined> {
    return this.context.repository.byInitialExecution(this.context.db, executionId);
  }

  /**
   * A second payment for what `ownerEmail` already owns (a second tab, Back then pay): it buys
   * nothing. Its intent is written as failed, naming the owner, so no later request can complete it;
   * it is refunded at once through the payment sweep's path and the owner is told by email (issue
   * 23, ADR 196). Returns the refusal to answer.
   */
  async setAsidePaidTwice(executionId: string, planId: string, ownerEmail: string, admit?: () => Promise<void>): Promise<AppError> {
    const { repository, db } = this.context;
    // As for a purchase (ADR 160): an execution of no checkout this server opened is refused before
    // anything is written or the gateway asked, and the gateway is asked within the merchant-API budget.
    if (!(await repository.findIntent(db, executionId)) && !(await repository.openedCheckout(db, executionId)))
      return new AppError('PAYMENT_NOT_ACCEPTED', MESSAGES.cantCreateSubscription);
    await admit?.();
    await this.context.repository.claimUnpurchased(this.context.db, {
      executionId,
      planId,
      email: ownerEmail,
      now: this.context.clock.now(),
    });
    // Refunded now, not after the sweep's grace (ADR 196); the answer says so.
    return this.onePlan.refusePaidTwice(executionId, planId, ownerEmail);
  }
}
