import type { AdminSearchQuery, AdminSearchResult } from '@roots/contracts/admin-queues';
import type { BillingContext } from '../subscriptions/context';
import { planNameOf, sliceOf } from './queues';
import type { QueuesRepository } from './queues.repository';

/**
 * The console's search (issue 25): part of an email (case-insensitive), a prefix of a subscription
 * or customer id, a gateway execution id, or a card's last four; one page of purchases, newest first.
 */
export async function searchCustomers(
  deps: { context: BillingContext; repository: QueuesRepository },
  query: AdminSearchQuery,
): Promise<AdminSearchResult> {
  const { context, repository } = deps;
  const { rows, total } = await repository.search(context.db, query.q.trim(), sliceOf(query));
  return {
    items: rows.map(({ row, matched }) => ({
      subscription_id: row.id,
      email: row.email,
      plan_id: row.planId,
      plan_name: planNameOf(context.config.catalog, row.planId, row.agreedTerms),
      status: row.status,
      card_last4: row.cardLast4,
      created_at: row.createdAt.toISOString(),
      matched: matched as AdminSearchResult['items'][number]['matched'],
    })),
    page: query.page,
    page_size: query.page_size,
    total,
  };
}
