import { ON_SCHEDULE_STATUSES, RENEWING_STATUSES } from '@roots/contracts/subscriptions';
import { and, asc, count, desc, eq, gte, inArray, isNull, lt, ne, or, sql, type SQL } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import type { Executor } from '../../db/executor';
import {
  authSessions,
  authUsers,
  cancellationChannels,
  charges,
  disputes,
  emails,
  failedFirstPayments,
  gatewayWebhookEvents,
  subscriptions,
  unmatchedPayments,
} from '../../db/schema';
import { rowsOf } from '../emails/emails.repository';
import type { Instants } from './admin.repository';

/** A page of a queue: `limit` rows from `offset`. */
export type Slice = { limit: number; offset: number };

export type SubscriptionRow = typeof subscriptions.$inferSelect;

/** Characters that are patterns in LIKE: matched literally in the search. */
function likeLiteral(text: string): string {
  return text.replace(/[\\%_]/g, (character) => `\\${character}`);
}

/** A page of `table`'s rows matching `where`, in `order` (a time, then an id that breaks ties), with how many match. */
async function pageOf<T extends PgTable>(
  db: Executor,
  table: T,
  where: SQL | undefined,
  order: [SQL, SQL],
  slice: Slice,
): Promise<{ rows: Array<T['$inferSelect']>; total: number }> {
  const [rows, [total]] = await Promise.all([
    db
      .select()
      .from(table as PgTable)
      .where(where)
      .orderBy(...order)
      .limit(slice.limit)
      .offset(slice.offset),
    db
      .select({ n: count() })
      .from(table as PgTable)
      .where(where),
  ]);
  return { rows: rows as Array<T['$inferSelect']>, total: total?.n ?? 0 };
}

/** SQL of the operator's queues, search, timeline and plan table (issue 25): reads only. */
export class QueuesRepository {
  /** Live top-level subscriptions whose next charge is due in [from, to), soonest first. */
  async upcomingRenewals(db: Executor, range: Instants, slice: Slice) {
    const where = and(
      inArray(subscriptions.status, [...ON_SCHEDULE_STATUSES]),
      isNull(subscriptions.parentId),
      gte(subscriptions.dueAt, range.from),
      lt(subscriptions.dueAt, range.to),
      // A purchase that never renews has its end due, not a charge.
      sql`coalesce((${subscriptions.agreedTerms} ->> 'recurring')::boolean, true)`,
    );
    return pageOf(db, subscriptions, where, [asc(subscriptions.dueAt), asc(subscriptions.id)], slice);
  }

  /** Subscriptions in dunning (soft-declined renewal, retries to come), next retry first. */
  async pastDue(db: Executor, slice: Slice) {
    const where = and(eq(subscriptions.status, 'past_due'), isNull(subscriptions.parentId));
    return pageOf(db, subscriptions, where, [asc(subscriptions.dueAt), asc(subscriptions.id)], slice);
  }

  /** The newest failed charge (refunds aside) of each subscription. */
  async lastDeclines(db: Executor, subscriptionIds: string[]) {
    if (subscriptionIds.length === 0) return [];
    const result = await db.execute(sql`
      select distinct on (subscription_id) subscription_id, decline_code, updated_at
      from charges
      where subscription_id in ${subscriptionIds} and kind <> 'refund' and status = 'failed'
      order by subscription_id, created_at desc`);
    return rowsOf<{ subscription_id: string; decline_code: string | null; updated_at: string | Date }>(result);
  }

  /** Declined first payments, newest first. */
  failedFirstPayments(db: Executor, slice: Slice) {
    return pageOf(db, failedFirstPayments, undefined, [desc(failedFirstPayments.failedAt), asc(failedFirstPayments.executionId)], slice);
  }

  /** Payments the sweep found with no purchase, newest first. */
  unclaimedPayments(db: Executor, slice: Slice) {
    return pageOf(db, unmatchedPayments, undefined, [desc(unmatchedPayments.paidAt), asc(unmatchedPayments.executionId)], slice);
  }

  /** Disputes the gateway announced, newest first. */
  disputes(db: Executor, slice: Slice) {
    return pageOf(db, disputes, undefined, [desc(disputes.openedAt), asc(disputes.disputeId)], slice);
  }

  /**
   * The purchases whose succeeded charge moved each of these executions' money, by execution id. A
   * dispute may arrive before the purchase it disputes is recorded (the gateway opens it at once,
   * the buyer's browser names the purchase a moment later): the queue and the timeline look again.
   */
  async chargedPurchases(db: Executor, executionIds: string[]): Promise<Map<string, SubscriptionRow>> {
    if (executionIds.length === 0) return new Map();
    const rows = await db
      .select({ executionId: charges.executionId, subscription: subscriptions })
      .from(charges)
      .innerJoin(subscriptions, eq(subscriptions.id, charges.subscriptionId))
      .where(and(inArray(charges.executionId, executionIds), eq(charges.status, 'succeeded'), ne(charges.kind, 'refund')));
    return new Map(rows.flatMap((row) => (row.executionId ? [[row.executionId, row.subscription] as const] : [])));
  }

  /** The subscriptions of these ids. */
  async subscriptionsByIds(db: Executor, ids: string[]): Promise<SubscriptionRow[]> {
    if (ids.length === 0) return [];
    return db.select().from(subscriptions).where(inArray(subscriptions.id, ids));
  }

  /** Received gateway webhooks, latest delivery first. */
  webhookEvents(db: Executor, slice: Slice) {
    return pageOf(
      db,
      gatewayWebhookEvents,
      undefined,
      [desc(gatewayWebhookEvents.lastReceivedAt), asc(gatewayWebhookEvents.eventId)],
      slice,
    );
  }

  // ----- search ---------------------------------------------------------------------------------

  /**
   * Subscriptions matching `text`: part of the email (case-insensitive), a prefix of the
   * subscription id or of the customer's (auth user) id, a gateway execution id of any of its
   * charges, or the card's last four. Newest first; `matched` says which.
   */
  async search(db: Executor, text: string, slice: Slice) {
    const lowered = text.toLowerCase();
    const contains = `%${likeLiteral(lowered)}%`;
    const prefix = `${likeLiteral(lowered)}%`;
    const byCharge = db
      .select({ id: charges.subscriptionId })
      .from(charges)
      .where(and(eq(charges.executionId, text), ne(charges.kind, 'refund')));
    const byUser = db
      .select({ email: authUsers.email })
      .from(authUsers)
      .where(sql`lower(${authUsers.id}) like ${prefix}`);
    const matched: SQL<string> = sql<string>`case
      when ${subscriptions.initialExecutionId} = ${text} or ${subscriptions.id} in ${byCharge} then 'execution_id'
      when ${subscriptions.id}::text like ${prefix} then 'subscription_id'
      when ${subscriptions.cardLast4} = ${text} then 'card_last4'
      when ${subscriptions.email} like ${contains} then 'email'
      else 'customer_id' end`;
    const where = or(
      sql`${subscriptions.email} like ${contains}`,
      sql`${subscriptions.id}::text like ${prefix}`,
      eq(subscriptions.initialExecutionId, text),
      sql`${subscriptions.id} in ${byCharge}`,
      /^\d{4}$/.test(text) ? eq(subscriptions.cardLast4, text) : sql`false`,
      sql`${subscriptions.userId} is not null and lower(${subscriptions.userId}) like ${prefix}`,
      sql`${subscriptions.email} in ${byUser}`,
    );
    const [rows, [total]] = await Promise.all([
      db
        .select({ row: subscriptions, matched })
        .from(subscriptions)
        .where(where)
        .orderBy(desc(subscriptions.createdAt), asc(subscriptions.id))
        .limit(slice.limit)
        .offset(slice.offset),
      db.select({ n: count() }).from(subscriptions).where(where),
    ]);
    return { rows, total: total?.n ?? 0 };
  }

  // ----- timeline -------------------------------------------------------------------------------

  /** What happened to one customer (email, normalized): every source of the timeline. */
  async timelineSources(db: Executor, email: string, maskedEmail: string) {
    const bought = await db.select().from(subscriptions).where(eq(subscriptions.email, email)).orderBy(asc(subscriptions.createdAt));
    const ids = bought.map((row) => row.id);
    const [ledger, mail, cancels, signIns, declined] = await Promise.all([
      ids.length > 0 ? db.select().from(charges).where(inArray(charges.subscriptionId, ids)).orderBy(asc(charges.createdAt)) : [],
      db
        .select({ kind: emails.kind, createdAt: emails.createdAt, status: emails.status })
        .from(emails)
        .where(eq(emails.to, email))
        .orderBy(asc(emails.createdAt)),
      ids.length > 0 ? db.select().from(cancellationChannels).where(inArray(cancellationChannels.subscriptionId, ids)) : [],
      db
        .select({ createdAt: authSessions.createdAt })
        .from(authSessions)
        .innerJoin(authUsers, eq(authUsers.id, authSessions.userId))
        .where(eq(authUsers.email, email)),
      db.select().from(failedFirstPayments).where(eq(failedFirstPayments.maskedEmail, maskedEmail)),
    ]);
    // Disputes of the customer's purchases, also those recorded before the purchase was (found by the charge's execution).
    const paidExecutions = ledger.flatMap((charge) =>
      charge.kind !== 'refund' && charge.status === 'succeeded' && charge.executionId ? [charge.executionId] : [],
    );
    const disputed =
      ids.length > 0
        ? await db
            .select()
            .from(disputes)
            .where(
              or(
                inArray(disputes.subscriptionId, ids),
                paidExecutions.length > 0 ? inArray(disputes.executionId, paidExecutions) : sql`false`,
              ),
            )
            .orderBy(asc(disputes.openedAt))
        : [];
    return { bought, ledger, mail, cancels, signIns, declined, disputed };
  }

  // ----- plans ----------------------------------------------------------------------------------

  /** Top-level subscriptions per plan and status now, among the renewing statuses. */
  async liveByPlanAndStatus(db: Executor) {
    const result = await db.execute(sql`
      select plan_id, status, count(*)::int as count from subscriptions
      where status in ${[...RENEWING_STATUSES]} and parent_id is null
      group by 1, 2`);
    return rowsOf<{ plan_id: string; status: string; count: number }>(result);
  }

  /** Succeeded charges and refunds of [from, to) per plan, minor units. */
  async moneyByPlan(db: Executor, range: Instants) {
    const result = await db.execute(sql`
      select plan_id,
             coalesce(sum(amount_minor) filter (where kind <> 'refund'), 0)::bigint as revenue_minor,
             coalesce(sum(amount_minor) filter (where kind = 'refund'), 0)::bigint as refunded_minor
      from charges
      where status = 'succeeded' and subscription_id is not null
        and created_at >= ${range.from.toISOString()} and created_at < ${range.to.toISOString()}
      group by 1`);
    return rowsOf<{ plan_id: string; revenue_minor: string | number; refunded_minor: string | number }>(result);
  }
}
