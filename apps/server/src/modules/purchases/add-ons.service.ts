import { MESSAGES } from '@roots/contracts';
import { compactAttribution, type Attribution } from '@roots/contracts/events';
import { hasAccess } from '@roots/contracts/subscriptions';
import type { Tx } from '../../db/executor';
import { AppError } from '../../errors';
import { normalizeEmail } from '../../lib/mask';
import type { RequestMeta } from '../../lib/request-meta';
import { agreedRecord } from '../terms/plan-terms';
import type { Purchase } from '../lifecycle/subscription-lifecycle';
import { addOnSubscriptionId, chargeKeys, orderReferences } from '../charges/charge-keys';
import type { ChargeRow } from '../charges/charges.repository';
import type { ChargeEffects } from '../charges/charges.service';
import type { BillingContext } from '../subscriptions/context';
import type { SubscriptionRow } from '../subscriptions/subscriptions.repository';
import { recordPurchaseEvents } from './purchase-events';
import { sellingTerms } from './selling-terms';

/** `parent`: the subscription the add-on is bought on, as the route read it for the ownership check. */
export type AddOnInput = { planId: string; email: string; parent: SubscriptionRow; attribution: Attribution | undefined };

/** One-click add-ons: merchant-initiated charges on the parent purchase's stored instrument. */
export class AddOnsService {
  constructor(private readonly context: BillingContext) {
    context.charges.recoverWith('add-on', (charge) => this.addOnRecovery(charge));
  }

  /** The subscription an add-on is bought on (for the route's ownership check). */
  async parent(id: string): Promise<SubscriptionRow | undefined> {
    return this.context.repository.find(this.context.db, id.toLowerCase());
  }

  /** The add-on of `planId` already bought on `parentId` (a repeat click answers it again), if any. */
  async boughtAddOn(parentId: string, planId: string): Promise<string | undefined> {
    return (await this.context.repository.find(this.context.db, addOnSubscriptionId(parentId, planId)))?.id;
  }

  async createAddOn(input: AddOnInput, meta: RequestMeta): Promise<{ id: string }> {
    const { repository, db } = this.context;
    const failure = MESSAGES.cantCreateSubscription;
    const terms = sellingTerms(this.context.config.catalog, input.planId, failure);
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
    const terms = sellingTerms(this.context.config.catalog, charge.planId, MESSAGES.cantCreateSubscription, 'INTERNAL_ERROR');
    // An add-on's row always names the subscription its success creates.
    const subscriptionId = charge.subscriptionId;
    if (!subscriptionId) throw new AppError('INTERNAL_ERROR', MESSAGES.cantCreateSubscription);
    const now = this.context.clock.now();
    const attribution = compactAttribution(request.attribution);
    const row: Purchase = {
      id: subscriptionId,
      email: parent.email,
      userId: parent.userId,
      planId: terms.id,
      parentId: parent.id,
      initialExecutionId: charge.executionId ?? charge.idempotencyKey,
      holderReference: parent.holderReference,
      instrumentId: parent.instrumentId,
      cardLast4: parent.cardLast4,
      cardNetwork: parent.cardNetwork,
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
      await recordPurchaseEvents(this.context.repository, tx, {
        subscriptionId,
        terms,
        amountMinor: charge.amountMinor,
        attribution,
        meta: request.meta,
        now,
      });
    }
  }
}
