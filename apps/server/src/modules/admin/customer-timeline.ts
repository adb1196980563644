import type { CustomerTimeline, TimelineEvent } from '@roots/contracts/admin-queues';
import { maskEmail, normalizeEmail } from '../../lib/mask';
import type { BillingContext } from '../subscriptions/context';
import { planNameOf } from './queues';
import type { QueuesRepository } from './queues.repository';

/**
 * One customer's history in time order (issue 25): purchases, charges (paid and declined), refunds,
 * emails by kind, cancels, sign-ins, declined first payments at the checkout (matched by the
 * masked email the checkout kept), and disputes opened on the customer's charges (ADR 158). Ties
 * keep the order the sources are listed in.
 */
export async function customerTimeline(
  deps: { context: BillingContext; repository: QueuesRepository },
  rawEmail: string,
): Promise<CustomerTimeline> {
  const { context, repository } = deps;
  const { catalog } = context.config;
  const email = normalizeEmail(rawEmail);
  const sources = await repository.timelineSources(context.db, email, maskEmail(email));
  const names = new Map(sources.bought.map((row) => [row.id, planNameOf(catalog, row.planId, row.agreedTerms)]));
  const events: TimelineEvent[] = [];
  for (const row of sources.bought)
    events.push({
      at: row.createdAt.toISOString(),
      kind: 'purchase',
      subscription_id: row.id,
      plan_name: names.get(row.id) ?? null,
      amount_minor: row.agreedTerms?.firstAmountMinor ?? null,
      currency: row.agreedTerms?.currency ?? null,
      detail: row.status,
    });
  for (const charge of sources.ledger) {
    if (charge.status === 'pending') continue;
    const refund = charge.kind === 'refund';
    if (refund && charge.status !== 'succeeded') continue;
    events.push({
      at: charge.createdAt.toISOString(),
      kind: refund ? 'refund' : charge.status === 'succeeded' ? 'charge' : 'charge_failed',
      subscription_id: charge.subscriptionId,
      plan_name: charge.subscriptionId ? (names.get(charge.subscriptionId) ?? null) : null,
      amount_minor: charge.amountMinor,
      currency: charge.currency,
      detail: charge.status === 'failed' ? `${charge.kind}: ${charge.declineCode ?? 'declined'}` : charge.kind,
    });
  }
  for (const message of sources.mail)
    events.push({
      at: message.createdAt.toISOString(),
      kind: 'email',
      subscription_id: null,
      plan_name: null,
      amount_minor: null,
      currency: null,
      detail: message.kind,
    });
  for (const cancel of sources.cancels)
    events.push({
      at: cancel.createdAt.toISOString(),
      kind: 'cancel',
      subscription_id: cancel.subscriptionId,
      plan_name: names.get(cancel.subscriptionId) ?? null,
      amount_minor: null,
      currency: null,
      detail: `${cancel.channel}: ${cancel.reason}`,
    });
  for (const session of sources.signIns)
    events.push({
      at: session.createdAt.toISOString(),
      kind: 'sign_in',
      subscription_id: null,
      plan_name: null,
      amount_minor: null,
      currency: null,
      detail: 'signed in',
    });
  for (const declined of sources.declined)
    events.push({
      at: declined.failedAt.toISOString(),
      kind: 'declined_first_payment',
      subscription_id: null,
      plan_name: declined.planId ? planNameOf(catalog, declined.planId) : null,
      amount_minor: declined.amountMinor,
      currency: declined.currency,
      detail: `${declined.declineCode}: ${declined.declineReason}`,
    });
  const paidBy = new Map(
    sources.ledger.flatMap((charge) =>
      charge.kind !== 'refund' && charge.status === 'succeeded' && charge.executionId
        ? [[charge.executionId, charge.subscriptionId] as const]
        : [],
    ),
  );
  for (const dispute of sources.disputed) {
    const subscriptionId = dispute.subscriptionId ?? paidBy.get(dispute.executionId) ?? null;
    events.push({
      at: dispute.openedAt.toISOString(),
      kind: 'dispute_opened',
      subscription_id: subscriptionId,
      plan_name: subscriptionId ? (names.get(subscriptionId) ?? null) : null,
      amount_minor: dispute.amountMinor,
      currency: dispute.currency,
      detail: `${dispute.reason}, ${dispute.status}, evidence due by ${dispute.evidenceDueBy.toISOString()}`,
    });
  }
  // A stable sort: equal instants keep the sources' order (a purchase before its first charge).
  events.sort((a, b) => Date.parse(a.at) - Date.parse(b.at));
  return { email, events };
}
