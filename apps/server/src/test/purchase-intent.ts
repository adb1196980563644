import type { Db } from '../db/database';
import { SubscriptionsRepository } from '../modules/subscriptions/subscriptions.repository';
import { payWithCard } from './shopper';

/**
 * A payment made at the gateway whose purchase request wrote its intent and went no further (the
 * server died after `upsertIntent`): what the reconciler and the payment sweep must finish.
 * @example const paid = await payWithIntentOnly(base, database.db, WEEKLY, 'buyer@example.com', clock.now());
 */
export async function payWithIntentOnly(serverUrl: string, db: Db, planId: string, buyer: string, now: Date) {
  const paid = await payWithCard(serverUrl, planId);
  await new SubscriptionsRepository().upsertIntent(db, {
    executionId: paid.execution.id,
    planId,
    email: buyer,
    userId: null,
    attribution: {},
    termsText: paid.init.disclosure.terms_text,
    termsVersion: paid.init.disclosure.terms_version,
    consentIp: '127.0.0.1',
    consentUserAgent: 'vitest',
    createdAt: now,
    updatedAt: now,
  });
  return paid;
}
