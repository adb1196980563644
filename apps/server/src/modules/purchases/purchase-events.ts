import { eventValue, type PurchaseEventName } from '@roots/contracts/events';
import type { Tx } from '../../db/executor';
import { fromMinor } from '../../lib/money';
import type { PlanTerms } from '../terms/plan-terms';
import type { RequestMeta } from '../../lib/request-meta';
import type { SubscriptionsRepository } from '../subscriptions/subscriptions.repository';

/** The purchase events of a new purchase (inside its transaction). */
export async function recordPurchaseEvents(
  repository: SubscriptionsRepository,
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
