import { RENEWING_STATUSES } from '@roots/contracts/subscriptions';
import { randomUUID } from 'node:crypto';
import type { AdminAction } from '@roots/contracts/admin';
import { and, desc, eq, inArray, ne, or, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/database';
import type { Executor } from '../../db/executor';
import {
  adminAudit,
  authUsers,
  cancellationChannels,
  charges,
  type ChargeKind,
  emails,
  funnelRollupState,
  reports,
  subscriptions,
} from '../../db/schema';
import { isSubscriptionCharge } from '../charges/charges.repository';
import { rowsOf } from '../emails/emails.repository';

/** The purchase event the server records itself, once per subscription (dedupe key `Purchase:{id}`). */
const PURCHASE_EVENT = 'Purchase';

export type AuditRow = typeof adminAudit.$inferSelect;
export type AuditInput = {
  operatorEmail: string;
  action: AdminAction;
  customerEmail: string | null;
  subscriptionId: string | null;
  detail: Record<string, string | number | boolean | null>;
  now: Date;
};

export type FunnelCountRow = {
  name: string;
  dimension: 'day' | 'campaign' | 'media_source' | 'country' | 'variant';
  value: string;
  count: number;
};

/** The day after `day` (YYYY-MM-DD). */
export function nextDay(day: string): string {
  return new Date(Date.parse(`${day}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
}

/**
 * Funnel events of [from, to) with their UTC day and attribution values. A purchase counts once
 * per subscription: the server records its own 'Purchase' row under a dedupe key, so the page's
 * report of the same subscription (no key) is left out; every other event counts once per row.
 */
function funnelEventRows(range: Instants, events: readonly string[]) {
  return sql`
    select name,
           to_char(created_at at time zone 'UTC', 'YYYY-MM-DD') as day,
           coalesce(nullif(attribution->>'campaign_name', ''), nullif(attribution->>'campaign_id', ''), '(none)') as campaign,
           coalesce(nullif(attribution->>'media_source', ''), '(none)') as media_source,
           coalesce(nullif(country, ''), nullif(attribution->>'country_code', ''), '(unknown)') as country,
           case when attribution->>'event_source_url' like '%/quiz%' then 'quiz' else 'walkthrough' end as variant
    from funnel_events
    where name in ${events} and created_at >= ${range.from.toISOString()} and created_at < ${range.to.toISOString()}
      and not (name = ${PURCHASE_EVENT} and dedupe_key is null and subscription_id is not null)`;
}

/** Which grouping set a row of the funnel's grouping-sets queries belongs to. */
const DIMENSION_OF_SET = sql`case when grouping(campaign) = 0 then 'campaign' when grouping(media_source) = 0 then 'media_source'
  when grouping(country) = 0 then 'country' when grouping(variant) = 0 then 'variant' else 'day' end`;

/** Half-open range of instants [from, to) the dashboards read. */
export type Instants = { from: Date; to: Date };

/** SQL of the operator console: operators, the audit trail, customer records and dashboard aggregates. */
export class AdminRepository {
  // ----- audit (append-only: insert and read, nothing else) -------------------------------------

  async appendAudit(db: Executor, input: AuditInput): Promise<AuditRow> {
    const [row] = await db
      .insert(adminAudit)
      .values({
        id: randomUUID(),
        operatorEmail: input.operatorEmail,
        action: input.action,
        customerEmail: input.customerEmail,
        subscriptionId: input.subscriptionId,
        detail: input.detail,
        createdAt: input.now,
      })
      .returning();
    return row!;
  }

  audit(db: Executor, options: { limit: number; customerEmails?: string[] }): Promise<AuditRow[]> {
    const query = db.select().from(adminAudit);
    const filtered =
      options.customerEmails && options.customerEmails.length > 0
        ? query.where(inArray(adminAudit.customerEmail, options.customerEmails))
        : query;
    return filtered.orderBy(desc(adminAudit.createdAt)).limit(options.limit);
  }

  // ----- customer records -----------------------------------------------------------------------

  /** Subscriptions bought with `email`, or the one with id `id` (and its add-ons and parent's siblings by email). */
  async subscriptionsMatching(db: Executor, query: { email?: string; id?: string }) {
    if (query.id) {
      const [found] = await db.select().from(subscriptions).where(eq(subscriptions.id, query.id));
      if (!found) return [];
      return db.select().from(subscriptions).where(eq(subscriptions.email, found.email)).orderBy(subscriptions.createdAt);
    }
    if (!query.email) return [];
    return db.select().from(subscriptions).where(eq(subscriptions.email, query.email)).orderBy(subscriptions.createdAt);
  }

  /** Charge attempts of the subscriptions (the ledger's refund rows are {@link refundsOf}). */
  chargesOf(db: Executor, subscriptionIds: string[]) {
    if (subscriptionIds.length === 0) return Promise.resolve([]);
    return db
      .select()
      .from(charges)
      .where(and(inArray(charges.subscriptionId, subscriptionIds), ne(charges.kind, 'refund')))
      .orderBy(charges.createdAt)
      .then((rows) => rows.filter(isSubscriptionCharge));
  }

  /** A charge (never a refund row) by id. */
  async chargeById(db: Executor, id: string) {
    const [row] = await db
      .select()
      .from(charges)
      .where(and(eq(charges.id, id), ne(charges.kind, 'refund')));
    return row;
  }

  /** Refunds the gateway made for the subscriptions: the ledger's succeeded refund rows. */
  refundsOf(db: Executor, subscriptionIds: string[]) {
    if (subscriptionIds.length === 0) return Promise.resolve([]);
    return db
      .select()
      .from(charges)
      .where(and(inArray(charges.subscriptionId, subscriptionIds), eq(charges.kind, 'refund'), eq(charges.status, 'succeeded')))
      .orderBy(charges.createdAt)
      .then((rows) => rows.filter(isSubscriptionCharge));
  }

  emailsTo(db: Executor, address: string) {
    return db
      .select({
        id: emails.id,
        kind: emails.kind,
        subject: emails.subject,
        status: emails.status,
        createdAt: emails.createdAt,
        text: emails.text,
        html: emails.html,
      })
      .from(emails)
      .where(eq(emails.to, address))
      .orderBy(emails.createdAt);
  }

  /** The newest receipt (first purchase or renewal) of one subscription, by the outbox keys its receipts carry. */
  async latestReceiptOf(db: Executor, subscriptionId: string) {
    const [row] = await db
      .select()
      .from(emails)
      .where(
        sql`${emails.kind} in ('receipt', 'renewal_receipt') and (${emails.dedupeKey} = ${`receipt:${subscriptionId}`} or ${emails.dedupeKey} like ${`renewal:${subscriptionId}:%`})`,
      )
      .orderBy(desc(emails.createdAt))
      .limit(1);
    return row;
  }

  /** Reports of a customer's email (status and estimate, never an image), or of their purchases. */
  reportsOf(db: Executor, email: string, subscriptionIds: string[]) {
    return this.reportsWhere(db, eq(reports.email, email), subscriptionIds);
  }

  /** Reports of a signed-in user: linked to them, or of their purchases. */
  reportsOfUser(db: Executor, userId: string, subscriptionIds: string[]) {
    return this.reportsWhere(db, eq(reports.userId, userId), subscriptionIds);
  }

  private reportsWhere(db: Executor, owner: SQL, subscriptionIds: string[]) {
    return db
      .select({
        id: reports.id,
        subscriptionId: reports.subscriptionId,
        status: reports.status,
        errorCode: reports.errorCode,
        groups: sql<Array<{ id?: string; share?: number }> | null>`${reports.result}->'heritage'->'groups'`,
        createdAt: reports.createdAt,
      })
      .from(reports)
      .where(subscriptionIds.length > 0 ? or(owner, inArray(reports.subscriptionId, subscriptionIds)) : owner)
      .orderBy(reports.createdAt);
  }

  async userByEmail(db: Executor, email: string) {
    const [row] = await db.select().from(authUsers).where(eq(authUsers.email, email));
    return row;
  }

  async recordCancellation(db: Executor, input: { subscriptionId: string; channel: string; reason: string; now: Date }): Promise<void> {
    await db
      .insert(cancellationChannels)
      .values({ subscriptionId: input.subscriptionId, channel: input.channel, reason: input.reason, createdAt: input.now })
      .onConflictDoNothing();
  }

  /** Subscriptions canceled since `since` among `ids`, or of `email` (the cancel routes' channel recorder). */
  async canceledSince(db: Executor, since: Date, match: { ids?: string[]; email?: string }): Promise<string[]> {
    const where =
      match.ids && match.ids.length > 0
        ? sql`${subscriptions.id} in ${match.ids}`
        : match.email
          ? sql`${subscriptions.email} = ${match.email}`
          : undefined;
    if (!where) return [];
    const rows = await db
      .select({ id: subscriptions.id })
      .from(subscriptions)
      .where(sql`${where} and ${subscriptions.canceledAt} >= ${since.toISOString()}`);
    return rows.map((row) => row.id);
  }

  // ----- dashboards -----------------------------------------------------------------------------

  /**
   * Funnel step counts per UTC day and per value of each attribution dimension from the raw
   * events of [from, to) (the days not rolled up yet: normally today), in one hashed scan.
   */
  async funnelCounts(db: Executor, range: Instants, events: readonly string[]): Promise<FunnelCountRow[]> {
    const result = await db.execute(sql`
      select name, ${DIMENSION_OF_SET} as dimension, coalesce(day, campaign, media_source, country, variant) as value, count(*)::int as count
      from (${funnelEventRows(range, events)}) as e
      group by grouping sets ((name, day), (name, campaign), (name, media_source), (name, country), (name, variant))`);
    return rowsOf<FunnelCountRow>(result);
  }

  /**
   * Rolls the raw events of every finished day after the last rolled one, through `throughDay`
   * (YYYY-MM-DD), into `funnel_daily_counts`. One instance at a time (the state row is locked);
   * re-rolling a day replaces its counts. Returns the last rolled day (null: no event yet).
   */
  async rollUpFunnel(db: Db, throughDay: string, events: readonly string[], now: Date): Promise<string | null> {
    return db.transaction(async (tx) => {
      await tx.insert(funnelRollupState).values({ id: 1, rolledThrough: null, updatedAt: now }).onConflictDoNothing();
      const [state] = await tx.select().from(funnelRollupState).where(eq(funnelRollupState.id, 1)).for('update');
      let fromDay = state?.rolledThrough ? nextDay(state.rolledThrough) : null;
      if (fromDay === null) {
        const [first] = rowsOf<{ day: string | null }>(
          await tx.execute(sql`select to_char(min(created_at) at time zone 'UTC', 'YYYY-MM-DD') as day from funnel_events`),
        );
        if (!first?.day) return state?.rolledThrough ?? null;
        fromDay = first.day;
      }
      if (fromDay > throughDay) return state?.rolledThrough ?? null;
      const span = { from: new Date(`${fromDay}T00:00:00Z`), to: new Date(`${nextDay(throughDay)}T00:00:00Z`) };
      await tx.execute(sql`
        insert into funnel_daily_counts (day, name, dimension, value, count)
        select day::date, name, ${DIMENSION_OF_SET}, coalesce(campaign, media_source, country, variant, day), count(*)::int
        from (${funnelEventRows(span, events)}) as e
        group by grouping sets ((day, name), (day, name, campaign), (day, name, media_source), (day, name, country), (day, name, variant))
        on conflict (day, dimension, value, name) do update set count = excluded.count`);
      await tx.update(funnelRollupState).set({ rolledThrough: throughDay, updatedAt: now }).where(eq(funnelRollupState.id, 1));
      return throughDay;
    });
  }

  /** Rolled-up counts of the days [fromDay, toDay]: per day for dimension `day`, summed over the days for the others. */
  async funnelRolledCounts(db: Executor, fromDay: string, toDay: string): Promise<FunnelCountRow[]> {
    const result = await db.execute(sql`
      select name, dimension, case when dimension = 'day' then to_char(day, 'YYYY-MM-DD') else value end as value, sum(count)::int as count
      from funnel_daily_counts
      where day >= ${fromDay}::date and day <= ${toDay}::date
      group by 1, 2, 3`);
    return rowsOf<FunnelCountRow>(result);
  }

  /** Charges (refunds excluded) per day, kind, plan, period, status and whether they were a retry. */
  async chargesByDay(db: Executor, range: Instants) {
    const result = await db.execute(sql`
      select to_char(date_trunc('day', c.created_at at time zone 'UTC'), 'YYYY-MM-DD') as day, c.kind, s.plan_id, c.period,
             c.status, (c.attempt > 0) as retry, count(*)::int as count, coalesce(sum(c.amount_minor), 0)::bigint as amount_minor
      from charges c join subscriptions s on s.id = c.subscription_id
      where c.kind <> 'refund' and c.created_at >= ${range.from.toISOString()} and c.created_at < ${range.to.toISOString()}
      group by 1, 2, 3, 4, 5, 6`);
    return rowsOf<{
      day: string;
      kind: Exclude<ChargeKind, 'refund'>;
      plan_id: string;
      period: number;
      status: string;
      retry: boolean;
      count: number;
      amount_minor: string | number;
    }>(result);
  }

  /** Refunds the gateway made (the ledger's succeeded refund rows) per day. */
  async refundsByDay(db: Executor, range: Instants) {
    const result = await db.execute(sql`
      select to_char(date_trunc('day', created_at at time zone 'UTC'), 'YYYY-MM-DD') as day, count(*)::int as count,
             coalesce(sum(amount_minor), 0)::bigint as amount_minor
      from charges
      where kind = 'refund' and status = 'succeeded'
        and created_at >= ${range.from.toISOString()} and created_at < ${range.to.toISOString()}
      group by 1`);
    return rowsOf<{ day: string; count: number; amount_minor: string | number }>(result);
  }

  async cancellationsByDay(db: Executor, range: Instants) {
    const result = await db.execute(sql`
      select to_char(date_trunc('day', s.canceled_at at time zone 'UTC'), 'YYYY-MM-DD') as day,
             coalesce(cc.channel, 'by_id') as channel, coalesce(cc.reason, 'not given') as reason, count(*)::int as count
      from subscriptions s left join cancellation_channels cc on cc.subscription_id = s.id
      where s.canceled_at >= ${range.from.toISOString()} and s.canceled_at < ${range.to.toISOString()}
      group by 1, 2, 3`);
    return rowsOf<{ day: string; channel: string; reason: string; count: number }>(result);
  }

  /**
   * Live top-level subscriptions per plan, status and agreed renewal terms (price and period as
   * recorded at purchase; null for purchases made before terms were recorded), now.
   */
  async liveByPlan(db: Executor) {
    const result = await db.execute(sql`
      select plan_id, status, agreed_terms -> 'renewalAmountMinor' as agreed_renewal_minor,
             agreed_terms -> 'renewalPeriod' as agreed_renewal_period, count(*)::int as count
      from subscriptions
      where status in ${[...RENEWING_STATUSES]} and parent_id is null
      group by 1, 2, 3, 4`);
    return rowsOf<{
      plan_id: string;
      status: string;
      agreed_renewal_minor: number | null;
      agreed_renewal_period: { unit: 'day' | 'month'; count: number } | null;
      count: number;
    }>(result);
  }

  /** Succeeded charges (refunds excluded: they name the execution they refunded) of the range with their gateway execution (reconciliation). */
  chargesToReconcile(db: Executor, range: Instants, limit: number) {
    return db
      .select()
      .from(charges)
      .where(
        sql`${charges.status} = 'succeeded' and ${charges.kind} <> 'refund' and ${charges.executionId} is not null and ${charges.createdAt} >= ${range.from.toISOString()} and ${charges.createdAt} < ${range.to.toISOString()}`,
      )
      .orderBy(charges.createdAt)
      .limit(limit);
  }

  async reportsByStatus(db: Executor, range: Instants) {
    const result = await db.execute(sql`
      select status, error_code, result->>'modelVersion' as model_version, count(*)::int as count
      from reports where created_at >= ${range.from.toISOString()} and created_at < ${range.to.toISOString()}
      group by 1, 2, 3`);
    return rowsOf<{ status: string; error_code: string | null; model_version: string | null; count: number }>(result);
  }

  async feedback(db: Executor, range: Instants, event: string, limit: number) {
    const result = await db.execute(sql`
      select created_at, payload from funnel_events
      where name = ${event} and created_at >= ${range.from.toISOString()} and created_at < ${range.to.toISOString()}
      order by created_at desc limit ${limit}`);
    const counts = await db.execute(sql`
      select count(*)::int as answered, count(*) filter (where (payload::jsonb->>'looks_correct') = 'true')::int as looks_correct
      from funnel_events
      where name = ${event} and created_at >= ${range.from.toISOString()} and created_at < ${range.to.toISOString()}`);
    return {
      rows: rowsOf<{ created_at: string | Date; payload: string | null }>(result),
      counts: rowsOf<{ answered: number; looks_correct: number }>(counts)[0] ?? { answered: 0, looks_correct: 0 },
    };
  }
}
