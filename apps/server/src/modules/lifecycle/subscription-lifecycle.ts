import { randomUUID } from 'node:crypto';
import type { CancelChannel } from '@roots/contracts/admin';
import { accessKindForPlan, isCancelable, type SubscriptionStatus } from '@roots/contracts/subscriptions';
import type { Config } from '../../config/env';
import type { Tx } from '../../db/executor';
import type { Clock } from '../../lib/clock';
import { agreedTermsOf, isFreeStandingTrial, periodEnd, type PlanTerms } from '../terms/plan-terms';
import { updateCardUrl } from '../links/update-card-link';
import { cancelUrl } from '../links/cancel-link';
import type { ChargeRow } from '../charges/charges.repository';
import {
  cancelConfirmationEmail,
  type ChargeKind,
  paymentFailedEmail,
  planChangeEmail,
  receiptEmail,
  refundEmail,
  renewalReceiptEmail,
  subscriptionEndedEmail,
  type RenderedEmail,
} from '../emails/email-templates';
import type { EmailsService } from '../emails/emails.service';
import {
  paidPeriodPatch,
  type LifecyclePatch,
  type LifecycleRepository,
  type NewSubscription,
  type PlanChangeRow,
  type SubscriptionRow,
} from './lifecycle.repository';
import type { Executor } from '../../db/executor';
import type { AgreedTerms } from '../../db/schema';
import { initialState, transition, type InitialState } from './subscription-state';

/**
 * A purchase as its buyer made it (who, what they agreed to, the card, their consent): the
 * lifecycle decides the state it starts in ({@link initialState}).
 */
export type Purchase = Omit<NewSubscription, keyof InitialState | 'agreedTerms' | 'createdAt'> & {
  agreedTerms: NonNullable<NewSubscription['agreedTerms']>;
  createdAt: Date;
};

/**
 * What can happen to a subscription after its purchase ({@link SubscriptionLifecycle.start}):
 * - `renewal_succeeded`: the charge of a period was paid (trial conversion, renewal, recovered retry).
 * - `renewal_soft_declined`: a renewal was declined for a reason that may pass; retried at `retryAt`.
 * - `renewal_failed`: a hard decline, no card on file, or the last retry declined (involuntary churn).
 * - `canceled`: the customer or an operator canceled; at the period's end, or `now` (access ends at once).
 *   With `refundFollows` (the customer's "Cancel and refund") the refund's email says what happened
 *   to access, so the cancel sends none ({@link SubscriptionLifecycle.announceCancel} if no refund came).
 * - `period_ended`: a paid period ended with nothing more to charge.
 * - `refunded`: a refund of `charge` went through; a whole one ends the subscription and its access.
 */
export type LifecycleEvent =
  | { type: 'renewal_succeeded'; charge: ChargeRow }
  | { type: 'renewal_soft_declined'; charge: ChargeRow; declineCode: string; retryAt: Date }
  | { type: 'renewal_failed'; declineCode: string | null }
  | { type: 'canceled'; effective: 'period_end' | 'now'; refundFollows?: boolean }
  | { type: 'period_ended' }
  | { type: 'refunded'; charge: ChargeRow; amountMinor: number };

export type Applied = { before: SubscriptionRow; status: SubscriptionStatus };

/** What one event does to one locked row: the saved columns, the access, the email, a churn record. */
type Step = {
  patch: LifecyclePatch;
  access?: { grantUntil: Date | null } | 'revoke';
  email?: { key: string; content: RenderedEmail };
  churn?: { channel: CancelChannel; reason: string };
};

/**
 * The subscription lifecycle (issue 23): the only writer of a subscription's status, period, due
 * date, agreed terms, card on file and access grants. Each event runs one path inside the caller's
 * transaction: lock the row, take the state machine's transition, save, grant or revoke access, and
 * queue the email that reports it (outbox, same transaction), so what the customer owns, what the
 * email says and what the console counts cannot disagree. An event that no longer applies (a
 * period already recorded, a cancel of a canceled subscription) changes nothing and returns
 * undefined; one the state machine forbids throws.
 */
export class SubscriptionLifecycle {
  constructor(
    private readonly deps: {
      repository: LifecycleRepository;
      emails: EmailsService;
      clock: Clock;
      config: Pick<Config, 'catalog' | 'PRODUCT_NAME' | 'PRODUCT_SLUG' | 'APP_SECRET' | 'publicUrl'>;
    },
  ) {}

  /**
   * A purchase: the subscription with its agreed terms and the state they start it in, its first
   * charge (recorded by `firstCharge` once the row exists), its access and its receipt. A repeat
   * (same first execution, or the same add-on id) changes nothing and answers the id that holds.
   */
  async start(
    tx: Tx,
    purchase: Purchase,
    firstCharge: (subscriptionId: string) => Promise<Pick<ChargeRow, 'id' | 'amountMinor' | 'period' | 'createdAt'>>,
  ): Promise<{ id: string; created: boolean }> {
    const { repository, emails, clock } = this.deps;
    const terms = purchase.agreedTerms;
    const row: NewSubscription = { ...purchase, ...initialState(terms, purchase.createdAt) };
    const held = await repository.insert(tx, row);
    if (!held.created) return held;
    const charge = await firstCharge(held.id);
    const now = clock.now();
    await repository.save(tx, held.id, paidPeriodPatch({ paidPeriods: 0 }, charge), now);
    await repository.grant(tx, {
      subscriptionId: held.id,
      email: row.email,
      kind: terms.access,
      expiresAt: row.currentPeriodEnd ?? null,
      now,
    });
    await emails.enqueue(
      tx,
      `receipt:${held.id}`,
      row.email,
      receiptEmail({
        chargeId: charge.id,
        chargedAt: charge.createdAt,
        charge: firstChargeKind(terms, row.parentId ?? null),
        productName: this.deps.config.PRODUCT_NAME,
        planName: terms.name,
        amountMinor: charge.amountMinor,
        termsText: row.termsText,
        nextChargeAt: terms.recurring ? (row.currentPeriodEnd ?? null) : null,
        nextChargeMinor: terms.renewalAmountMinor,
        renewalPeriod: terms.renewalPeriod,
        cardLast4: row.cardLast4 ?? null,
        cancelUrl: terms.recurring ? this.cancelUrl(held.id) : null,
      }),
    );
    return held;
  }

  /** Applies `event` to subscription `id` under its row lock; see {@link LifecycleEvent}. */
  async apply(tx: Tx, id: string, event: LifecycleEvent): Promise<Applied | undefined> {
    const { repository, emails, clock } = this.deps;
    const before = await repository.lock(tx, id);
    if (!before) return undefined;
    const now = clock.now();
    // A renewal that starts the plan the customer changed to (ADR 196) switches the plan with it.
    const pending = await repository.pendingChange(tx, id);
    const change = event.type === 'renewal_succeeded' && pending?.toPlanId === event.charge.planId ? pending : undefined;
    const step = this.step(before, event, now, change);
    if (!step) return undefined;
    await repository.save(tx, id, step.patch, now);
    const after = { ...before, ...step.patch };
    if (step.access === 'revoke') await repository.revokeGrants(tx, id, now);
    else if (step.access)
      await repository.grant(tx, {
        subscriptionId: id,
        email: before.email,
        kind: this.terms(after).access,
        expiresAt: step.access.grantUntil,
        now,
      });
    if (step.email) await emails.enqueue(tx, step.email.key, before.email, step.email.content);
    if (step.churn) await repository.recordChurn(tx, { subscriptionId: id, ...step.churn, now });
    if (pending && change) await repository.settleChange(tx, pending.id, 'applied', now);
    // A subscription that no longer renews has no plan to change to.
    else if (pending && !isCancelable(after.status)) await repository.settleChange(tx, pending.id, 'canceled', now);
    return { before, status: step.patch.status ?? before.status };
  }

  /**
   * A new card on the subscription (ADR 143): the stored instrument, its last four and network
   * replace the old card's under the row lock; a past-due subscription becomes due now, so the next
   * billing pass retries on the new card (the retry count stays). `refuse` says why a subscription
   * (as locked) takes no card; the same card again changes nothing.
   */
  async replaceCard<R>(
    tx: Tx,
    id: string,
    card: { instrumentId: string; last4: string; network: string | null },
    refuse: (row: SubscriptionRow) => R | undefined,
  ): Promise<{ kind: 'updated' | 'unchanged'; row: SubscriptionRow } | { kind: 'refused'; refusal: R } | { kind: 'missing' }> {
    const { repository, clock } = this.deps;
    const locked = await repository.lock(tx, id);
    if (!locked) return { kind: 'missing' };
    const refusal = refuse(locked);
    if (refusal !== undefined) return { kind: 'refused', refusal };
    if (locked.instrumentId === card.instrumentId) return { kind: 'unchanged', row: locked };
    const now = clock.now();
    const retryNow = locked.status === 'past_due' && (locked.dueAt === null || locked.dueAt.getTime() > now.getTime());
    const patch: LifecyclePatch = {
      instrumentId: card.instrumentId,
      cardLast4: card.last4,
      cardNetwork: card.network,
      ...(retryNow ? { dueAt: now } : {}),
    };
    await repository.save(tx, id, patch, now);
    return { kind: 'updated', row: { ...locked, ...patch, updatedAt: now } };
  }

  /** The subscription's plan change waiting for its period's end, if any (ADR 196). */
  pendingChange(db: Executor, id: string): Promise<PlanChangeRow | undefined> {
    return this.deps.repository.pendingChange(db, id);
  }

  /**
   * A plan change asked for by the owner (ADR 196): recorded under the row lock, to apply at the end
   * of the paid period at the new plan's own renewal price; a change asked for before replaces it.
   * The customer is emailed the terms. `refuse` says why a subscription (as locked) cannot change.
   */
  async requestPlanChange<R>(
    tx: Tx,
    id: string,
    input: { terms: AgreedTerms; ip: string; userAgent: string },
    refuse: (row: SubscriptionRow) => R | undefined,
  ): Promise<{ kind: 'requested'; change: PlanChangeRow } | { kind: 'refused'; refusal: R } | { kind: 'missing' }> {
    const { repository, clock, emails } = this.deps;
    const row = await repository.lock(tx, id);
    if (!row) return { kind: 'missing' };
    const refusal = refuse(row);
    if (refusal !== undefined) return { kind: 'refused', refusal };
    const effectiveAt = row.currentPeriodEnd;
    const { renewalAmountMinor, renewalPeriod } = input.terms;
    if (!effectiveAt || renewalAmountMinor === null || !renewalPeriod)
      throw new Error(`plan change of ${id} without a period or a renewal`);
    const now = clock.now();
    const previous = await repository.pendingChange(tx, id);
    if (previous) await repository.settleChange(tx, previous.id, 'canceled', now);
    const change = await repository.insertChange(tx, {
      id: randomUUID(),
      subscriptionId: id,
      fromPlanId: row.planId,
      toPlanId: input.terms.id,
      terms: input.terms,
      status: 'pending',
      effectiveAt,
      requestedAt: now,
      consentIp: input.ip,
      consentUserAgent: input.userAgent.slice(0, 1000),
    });
    await emails.enqueue(
      tx,
      `plan-change:${change.id}`,
      row.email,
      planChangeEmail({
        productName: this.deps.config.PRODUCT_NAME,
        fromPlanName: this.terms(row).name,
        toPlanName: input.terms.name,
        effectiveAt,
        amountMinor: renewalAmountMinor,
        renewalPeriod,
        cardLast4: row.cardLast4,
        action: 'requested',
      }),
    );
    return { kind: 'requested', change };
  }

  /** The owner keeps their plan (ADR 196): the pending change is canceled and they are told what renews. False when none was pending. */
  async cancelPlanChange(tx: Tx, id: string): Promise<boolean> {
    const { repository, clock, emails } = this.deps;
    const row = await repository.lock(tx, id);
    const pending = row ? await repository.pendingChange(tx, id) : undefined;
    if (!row || !pending) return false;
    const now = clock.now();
    await repository.settleChange(tx, pending.id, 'canceled', now);
    const terms = this.terms(row);
    if (terms.renewalAmountMinor != null && terms.renewalPeriod)
      await emails.enqueue(
        tx,
        `plan-change-canceled:${pending.id}`,
        row.email,
        planChangeEmail({
          productName: this.deps.config.PRODUCT_NAME,
          fromPlanName: terms.name,
          toPlanName: pending.terms.name,
          effectiveAt: pending.effectiveAt,
          amountMinor: terms.renewalAmountMinor,
          renewalPeriod: terms.renewalPeriod,
          cardLast4: row.cardLast4,
          action: 'canceled',
        }),
      );
    return true;
  }

  private step(row: SubscriptionRow, event: LifecycleEvent, now: Date, change?: PlanChangeRow): Step | undefined {
    const { PRODUCT_NAME: productName } = this.deps.config;
    // From a plan change's renewal on, the new plan's terms are the agreed ones (ADR 196).
    const terms = change ? change.terms : this.terms(row);
    switch (event.type) {
      case 'renewal_succeeded': {
        const { charge } = event;
        // Recorded already (another instance, or the charge's recovery after a crash).
        if (row.currentPeriod >= charge.period || !terms.renewalPeriod) return undefined;
        const start = row.currentPeriodEnd ?? now;
        const end = periodEnd(start, terms.renewalPeriod);
        return {
          patch: {
            status: transition(row.status, 'renewal_succeeded'),
            currentPeriod: charge.period,
            currentPeriodStart: start,
            currentPeriodEnd: end,
            dueAt: end,
            retryCount: 0,
            ...paidPeriodPatch(row, charge),
            ...(change ? switchedPlan(change) : {}),
          },
          access: { grantUntil: end },
          email: {
            key: `renewal:${row.id}:${charge.period}`,
            content: renewalReceiptEmail({
              chargeId: charge.id,
              chargedAt: charge.createdAt,
              charge: { kind: 'renewal', period: charge.period, periodStart: start, periodEnd: end },
              productName,
              planName: terms.name,
              amountMinor: charge.amountMinor,
              termsText: change ? change.terms.disclosure.terms_text : row.termsText,
              acceptedAt: change ? change.requestedAt : row.consentAt,
              nextChargeAt: end,
              nextChargeMinor: terms.renewalAmountMinor ?? null,
              renewalPeriod: terms.renewalPeriod,
              cardLast4: row.cardLast4,
              cancelUrl: this.cancelUrl(row.id),
            }),
          },
        };
      }
      case 'renewal_soft_declined':
        return {
          patch: { status: transition(row.status, 'renewal_soft_declined'), dueAt: event.retryAt, retryCount: row.retryCount + 1 },
          // Dunning grace: access lasts while retries are pending.
          access: { grantUntil: event.retryAt },
          email: {
            key: `payment-failed:${row.id}:${event.charge.period}:${row.retryCount}`,
            content: paymentFailedEmail({
              productName,
              planName: terms.name,
              amountMinor: event.charge.amountMinor,
              cardLast4: row.cardLast4,
              declineCode: event.declineCode,
              retryAt: event.retryAt,
              updateCardUrl: updateCardUrl(this.deps.config, row.id, this.deps.clock.now()),
              cancelUrl: this.cancelUrl(row.id),
            }),
          },
        };
      case 'renewal_failed':
        return {
          patch: { status: transition(row.status, 'renewal_failed'), dueAt: null, endedAt: now, canceledAt: row.canceledAt ?? now },
          access: 'revoke',
          email: {
            key: `renewal-failed:${row.id}:${row.currentPeriod + 1}`,
            content: subscriptionEndedEmail({
              productName,
              planName: terms.name,
              declineCode: event.declineCode,
              startUrl: `${this.deps.config.publicUrl}/${this.deps.config.PRODUCT_SLUG}/`,
            }),
          },
          // Involuntary churn: the operator sees it beside the cancellations (issue 23).
          churn: { channel: 'payment_failed', reason: event.declineCode ?? 'no card on file' },
        };
      case 'canceled':
        return event.effective === 'now'
          ? this.endNow(row, terms, now)
          : this.cancelAtPeriodEnd(row, terms, now, event.refundFollows === true);
      case 'period_ended':
        return { patch: { status: transition(row.status, 'period_ended'), dueAt: null, endedAt: now }, access: 'revoke' };
      case 'refunded': {
        // `event.charge` as it was before this refund: what earlier refunds of it gave back.
        const before = event.charge.refundedMinor;
        // A partial refund (the charge not yet all back), or one of a subscription that has ended: the money only.
        const endsAccess = !(before + event.amountMinor < event.charge.amountMinor || row.status === 'expired');
        const email = {
          key: before > 0 ? `refund-rest:${event.charge.id}` : `refund:${event.charge.id}`,
          content: refundEmail({
            productName,
            planName: terms.name,
            amountMinor: event.amountMinor,
            cardLast4: row.cardLast4,
            refundedAt: now,
            accessEnded: endsAccess,
          }),
        };
        if (!endsAccess) return { patch: {}, email };
        return {
          patch: { status: transition(row.status, 'refunded'), dueAt: null, endedAt: now, canceledAt: row.canceledAt ?? now },
          access: 'revoke',
          email,
          // Ended by the refund, not by a cancel before it.
          ...(row.status === 'canceled' ? {} : { churn: { channel: 'refund', reason: 'refunded in full' } }),
        };
      }
      default: {
        const exhaustive: never = event;
        return exhaustive;
      }
    }
  }

  /**
   * No more charges; access until the paid period ends. Nothing to do unless it still renews. Before
   * a refund (`refundFollows`) the refund's email tells the customer what happened, not this one.
   */
  private cancelAtPeriodEnd(row: SubscriptionRow, terms: { name: string }, now: Date, refundFollows: boolean): Step | undefined {
    if (!isCancelable(row.status)) return undefined;
    return {
      patch: { status: transition(row.status, 'canceled'), canceledAt: now, dueAt: row.currentPeriodEnd, retryCount: 0 },
      ...(refundFollows ? {} : { email: this.cancelEmail(row, terms) }),
    };
  }

  private cancelEmail(row: SubscriptionRow, terms: { name: string }): NonNullable<Step['email']> {
    return {
      key: `cancel:${row.id}`,
      content: cancelConfirmationEmail({
        productName: this.deps.config.PRODUCT_NAME,
        planName: terms.name,
        accessUntil: row.currentPeriodEnd,
      }),
    };
  }

  /**
   * The cancel's email after all, for a "Cancel and refund" whose refund did not come (the guarantee
   * had passed): a subscription still canceled with access until its period's end says so.
   */
  async announceCancel(tx: Tx, id: string): Promise<void> {
    const row = await this.deps.repository.lock(tx, id);
    if (!row || row.status !== 'canceled') return;
    const email = this.cancelEmail(row, this.terms(row));
    await this.deps.emails.enqueue(tx, email.key, row.email, email.content);
  }

  /** Canceled and ended at once (an operator's "Cancel now"): the email says access has ended. */
  private endNow(row: SubscriptionRow, terms: { name: string }, now: Date): Step | undefined {
    if (row.status === 'expired') return undefined;
    const canceled = isCancelable(row.status) ? transition(row.status, 'canceled') : row.status;
    return {
      patch: {
        status: transition(canceled, 'period_ended'),
        canceledAt: row.canceledAt ?? now,
        currentPeriodEnd: now,
        dueAt: null,
        endedAt: now,
        retryCount: 0,
      },
      access: 'revoke',
      email: {
        key: `cancel-now:${row.id}`,
        content: cancelConfirmationEmail({ productName: this.deps.config.PRODUCT_NAME, planName: terms.name, accessUntil: null }),
      },
    };
  }

  /** The terms its buyer agreed to; for a plan since gone from the catalog, what its id says. */
  private terms(row: Pick<NewSubscription, 'planId' | 'agreedTerms'>): Pick<PlanTerms, 'name' | 'access'> & Partial<PlanTerms> {
    const terms = agreedTermsOf(this.deps.config.catalog, { planId: row.planId, agreedTerms: row.agreedTerms ?? null });
    return terms ?? { name: row.planId, access: accessKindForPlan(row.planId) };
  }

  private cancelUrl(id: string): string {
    return cancelUrl(this.deps.config, id, this.deps.clock.now());
  }
}

/** What the first charge of a purchase paid for (its receipt says so). */
export function firstChargeKind(terms: PlanTerms, parentId: string | null): ChargeKind {
  if (!terms.recurring) return parentId ? { kind: 'add_on' } : { kind: 'one_time' };
  if (isFreeStandingTrial(terms) && terms.firstPeriod) {
    const days = terms.firstPeriod.unit === 'day' ? terms.firstPeriod.count : terms.firstPeriod.count * 30;
    return { kind: 'trial', trialDays: days };
  }
  return { kind: 'first_period' };
}

/** What a renewal that applies a plan change writes (ADR 196): the new plan, its terms and the consent to them. */
function switchedPlan(change: PlanChangeRow): LifecyclePatch {
  return {
    planId: change.toPlanId,
    agreedTerms: change.terms,
    termsText: change.terms.disclosure.terms_text,
    termsVersion: change.terms.disclosure.terms_version,
    consentAt: change.requestedAt,
    consentIp: change.consentIp,
    consentUserAgent: change.consentUserAgent,
  };
}
