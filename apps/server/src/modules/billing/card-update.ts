import { API_MESSAGES, type PlanCatalog } from '@roots/contracts';
import type { Db } from '../../db/database';
import type { SubscriptionRow, SubscriptionsRepository } from '../subscriptions/subscriptions.repository';
import { agreedTermsOf } from './plan-terms';

/**
 * A new card on a subscription (issue 23, ADR 141): what the database keeps of it, written in one
 * place ({@link recordCardUpdate}) so the subscription lifecycle can take the write over whole.
 */

/**
 * The gateway order reference of a card-verification checkout for `subscriptionId`. The execution
 * the browser reports must carry it: a card verified for another subscription (or a payment) is
 * never put on this one.
 */
export function cardUpdateOrderReference(subscriptionId: string): string {
  return `card:${subscriptionId.toLowerCase()}`;
}

/** What the gateway's verified execution says of the new card (never the card itself). */
export type VerifiedCard = { instrumentId: string; last4: string; network: string | null };

/** Why a subscription takes no new card, as the customer is told; undefined when it does. */
export function cardUpdateRefusal(
  catalog: PlanCatalog,
  row: SubscriptionRow,
): { code: 'CONFLICT' | 'UNPROCESSABLE'; message: string } | undefined {
  if (!agreedTermsOf(catalog, row)?.recurring) return { code: 'UNPROCESSABLE', message: API_MESSAGES.cardUpdateOneTime };
  switch (row.status) {
    case 'trialing':
    case 'active':
    case 'past_due':
      return undefined;
    case 'canceled':
      return { code: 'CONFLICT', message: API_MESSAGES.cardUpdateCanceled };
    case 'expired':
      return { code: 'CONFLICT', message: API_MESSAGES.cardUpdateEnded };
    default: {
      const exhaustive: never = row.status;
      return exhaustive;
    }
  }
}

export type CardUpdateResult =
  /** The subscription now renews on the new card (and, past due, is due at once). */
  | { kind: 'updated'; row: SubscriptionRow }
  /** The card was on the subscription already (the same completion again): nothing written. */
  | { kind: 'unchanged'; row: SubscriptionRow }
  | { kind: 'refused'; code: 'NOT_FOUND' | 'CONFLICT' | 'UNPROCESSABLE'; message: string };

/**
 * Every database write of a card update, in one transaction under the subscription's row lock:
 * the stored instrument, its last four digits and network replace the old card's; a past-due
 * subscription becomes due now, so the next billing pass retries the renewal on the new card
 * (its retry count stays: the schedule goes on from where it was). The subscription is re-read
 * under the lock, so one that ended meanwhile is refused, and a repeat is a no-op.
 */
export async function recordCardUpdate(
  store: { db: Db; repository: SubscriptionsRepository; catalog: PlanCatalog },
  input: { subscriptionId: string; card: VerifiedCard; now: Date },
): Promise<CardUpdateResult> {
  const { db, repository, catalog } = store;
  const { subscriptionId, card, now } = input;
  return db.transaction(async (tx): Promise<CardUpdateResult> => {
    const locked = await repository.lock(tx, subscriptionId);
    if (!locked) return { kind: 'refused', code: 'NOT_FOUND', message: API_MESSAGES.cardUpdateNotFound };
    const refusal = cardUpdateRefusal(catalog, locked);
    if (refusal) return { kind: 'refused', ...refusal };
    if (locked.instrumentId === card.instrumentId) return { kind: 'unchanged', row: locked };
    const retryNow = locked.status === 'past_due' && (locked.dueAt === null || locked.dueAt.getTime() > now.getTime());
    const patch = {
      instrumentId: card.instrumentId,
      cardLast4: card.last4,
      cardNetwork: card.network,
      updatedAt: now,
      ...(retryNow ? { dueAt: now } : {}),
    };
    await repository.update(tx, subscriptionId, patch);
    return { kind: 'updated', row: { ...locked, ...patch } };
  });
}
