import { API_MESSAGES, type PlanCatalog } from '@roots/contracts';
import type { Db } from '../../db/database';
import type { SubscriptionLifecycle } from '../lifecycle/subscription-lifecycle';
import type { SubscriptionRow } from '../subscriptions/subscriptions.repository';
import { agreedTermsOf } from '../terms/plan-terms';

/**
 * A new card on a subscription (issue 23, ADR 143): what the database keeps of it, written in one
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
 * A card update under the subscription's row lock, through the lifecycle (the only writer of the
 * card on file and the due date, ADR 140): the subscription is re-read under the lock, so one that
 * ended meanwhile is refused, and a repeat is a no-op.
 */
export async function recordCardUpdate(
  store: { db: Db; lifecycle: SubscriptionLifecycle; catalog: PlanCatalog },
  input: { subscriptionId: string; card: VerifiedCard },
): Promise<CardUpdateResult> {
  const { db, lifecycle, catalog } = store;
  return db.transaction(async (tx): Promise<CardUpdateResult> => {
    const result = await lifecycle.replaceCard(tx, input.subscriptionId, input.card, (row) => cardUpdateRefusal(catalog, row));
    switch (result.kind) {
      case 'missing':
        return { kind: 'refused', code: 'NOT_FOUND', message: API_MESSAGES.cardUpdateNotFound };
      case 'refused':
        return { kind: 'refused', ...result.refusal };
      default:
        return result;
    }
  });
}
