import { randomUUID } from 'node:crypto';
import type { AdminAction } from '@roots/contracts/admin';
import { and, desc, eq, inArray, ne, or, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/database';
import type { Executor } from '../../db/executor';
import {
  adminAudit,
  authSessions,
  authUsers,
  cancellationChannels,
  charges,
  emails,
  funnelDailyCounts,
  funnelRollupState,
  reports,
  subscriptions,
} from '../../db/schema';
import { isSubscriptionCharge } from '../charges/charges.repository';
import { rowsOf } from '../emails/emails.repository';
import { dayStartingAt, nextDay, type Instants } from './date-range';

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

/** How far before a range the funnel looks for a visit's earlier arrival at a step (a visit is a browser session). */
const VISIT_LOOKBACK = '1 day';

/**
 * Each visit's first arrival at each step in [from, to), with its UTC day and attribution values
 * (docs/metrics.md): a visit is the id the page carries with every event (`visit_id`, kept through
 * reloads); an event without one (an older page) is a visit of its own. An arrival at a step the
 * visit reached in the day before `from` is not a first one. The variant is the one the visit
 * started in (`visit_variant`), or for an older page the path the event was sent from.
 * `countFrom` (>= `from`): only the first arrivals from then on (today's counts past a watermark, ADR 198).
 */
function funnelEventRows(range: Instants, events: readonly string[], countFrom: Date = range.from) {
  return sql`
    select name, day, campaign, media_source, country, variant from (
      select name, created_at,
             to_char(created_at at time zone 'UTC', 'YYYY-MM-DD') as day,
             coalesce(nullif(attribution->>'campaign_name', ''), nullif(attribution->>'campaign_id', ''), '(none)') as campaign,
             coalesce(nullif(attribution->>'media_source', ''), '(none)') as media_source,
             coalesce(nullif(country, ''), nullif(attribution->>'country_code', ''), '(unknown)') as country,
             coalesce(nullif(attribution->>'visit_variant', ''),
                      case when attribution->>'event_source_url' like '%/quiz%' then 'quiz' else 'walkthrough' end) as variant,
             row_number() over (partition by coalesce(attribution->>'visit_id', id::text), name order by created_at, id) as arrival
      from funnel_events
      where name in ${events}
        and created_at >= ${range.from.toISOString()}::timestamptz - ${VISIT_LOOKBACK}::interval
        and created_at < ${range.to.toISOString()}
    ) as arrivals
    where arrival = 1 and created_at >= ${countFrom.toISOString()}`;
}

/**
 * The first arrivals (as `funnelEventRows` defines them for a range starting at `dayStart`) among
 * the events of [from, to), where `dayStart` <= `from`: an event is one when no event of the same
 * visit and step lies in [dayStart − VISIT_LOOKBACK, the event) ordered by (created_at, id), the
 * window's order. Each event is looked up by the visit index (ADR 198), so the cost follows the
 * events of [from, to), not the lookback's.
 */
function firstArrivalRows(dayStart: Date, range: Instants, events: readonly string[]) {
  return sql`
    select name,
           to_char(created_at at time zone 'UTC', 'YYYY-MM-DD') as day,
           coalesce(nullif(attribution->>'campaign_name', ''), nullif(attribution->>'campaign_id', ''), '(none)') as campaign,
           coalesce(nullif(attribution->>'media_source', ''), '(none)') as media_source,
           coalesce(nullif(country, ''), nullif(attribution->>'country_code', ''), '(unknown)') as country,
           coalesce(nullif(attribution->>'visit_variant', ''),
                    case when attribution->>'event_source_url' like '%/quiz%' then 'quiz' else 'walkthrough' end) as variant
    from funnel_events e
    where e.name in ${events}
      and e.created_at >= ${range.from.toISOString()}
      and e.created_at < ${range.to.toISOString()}
      and not exists (
        select 1 from funnel_events earlier
        where coalesce(earlier.attribution->>'visit_id', earlier.id::text) = coalesce(e.attribution->>'visit_id', e.id::text)
          and earlier.name = e.name
          and earlier.created_at >= ${dayStart.toISOString()}::timestamptz - ${VISIT_LOOKBACK}::interval
          and earlier.created_at <= e.created_at
          and (earlier.created_at, earlier.id) < (e.created_at, e.id))`;
}

/**
 * The longest step of today's counts (ADR 198) that looks each event's visit up (`firstArrivalRows`);
 * a longer one reads the day's events with the window, which costs about as much whatever the step.
 */
const FUNNEL_LOOKUP_MAX_MS = 2 * 3_600_000;

/** Which grouping set a row of the funnel's grouping-sets queries belongs to. */
const DIMENSION_OF_SET = sql`case when grouping(campaign) = 0 then 'campaign' when grouping(media_source) = 0 then 'media_source'
  when grouping(country) = 0 then 'country' when grouping(variant) = 0 then 'variant' else 'day' end`;

export type { Instants } from './date-range';

/** SQL of the operator console: operators, the audit trail, customer records and dashboard aggregates. */
export class AdminRepository {
  // ----- audit (append-only: insert and read, nothing else) -------------------------------------

  /**
   * Appends an audit entry once per `key` (kept in its detail as `once`): under a transaction lock
   * on the key, a second entry with the same action and key is not written (a replayed action).
   */
  async appendAuditOnce(db: Db, input: AuditInput, key: string): Promise<void> {
    await db.transaction(async (tx) => {
      await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`audit:${key}`}))`);
      const [seen] = await tx
        .select({ id: adminAudit.id })
        .from(adminAudit)
        .where(and(eq(adminAudit.action, input.action), sql`${adminAudit.detail}->>'once' = ${key}`))
        .limit(1);
      if (!seen) await this.appendAudit(tx, { ...input, detail: { ...input.detail, once: key } });
    });
  }

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

  /** When the account of this email signed in (its sessions' starts), oldest first. */
  async signInsOf(db: Executor, email: string): Promise<Date[]> {
    const rows = await db
      .select({ createdAt: authSessions.createdAt })
      .from(authSessions)
      .innerJoin(authUsers, eq(authUsers.id, authSessions.userId))
      .where(eq(authUsers.email, email))
      .orderBy(authSessions.createdAt);
    return rows.map((row) => row.createdAt);
  }

  /** The purchase whose succeeded charge has this execution, if any. */
  async subscriptionOfExecution(db: Executor, executionId: string): Promise<string | null> {
    const [row] = await db
      .select({ id: charges.subscriptionId })
      .from(charges)
      .where(and(eq(charges.executionId, executionId), eq(charges.status, 'succeeded'), ne(charges.kind, 'refund')))
      .limit(1);
    return row?.id ?? null;
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
      // The days' counts so far (today's partial counts of a day that is finished now, ADR 198) are replaced whole.
      await tx.execute(sql`delete from funnel_daily_counts where day >= ${fromDay}::date and day <= ${throughDay}::date`);
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

  /**
   * Today's funnel counts up to a watermark (ADR 198). Under the state row's lock, adds to the
   * counts of `today` (YYYY-MM-DD) the first arrivals of the events between the stored watermark
   * (today's start when it is from another day) and `through` (an instant of today: the events
   * before it are all committed), moves the watermark there, and returns it with today's counts
   * as they stand at it. The first arrivals of [watermark, later) are the caller's to count.
   * Run after `rollUpFunnel` through yesterday, which replaces a finished day's counts.
   */
  async rollUpFunnelToday(
    db: Db,
    today: string,
    through: Date,
    events: readonly string[],
    now: Date,
  ): Promise<{ watermark: Date; rows: FunnelCountRow[] }> {
    return db.transaction(async (tx) => {
      await tx.insert(funnelRollupState).values({ id: 1, rolledThrough: null, updatedAt: now }).onConflictDoNothing();
      const [state] = await tx.select().from(funnelRollupState).where(eq(funnelRollupState.id, 1)).for('update');
      const dayStart = new Date(`${today}T00:00:00Z`);
      const fresh = state?.partialDay !== today || !state.partialThrough;
      // A watermark of another day restarts at today's start, with no counts for today yet.
      if (fresh) await tx.delete(funnelDailyCounts).where(eq(funnelDailyCounts.day, today));
      let watermark = fresh ? dayStart : state.partialThrough!;
      const target = through > dayStart ? through : dayStart;
      if (target > watermark) {
        // A short step looks each event's visit up; a long one (the day's first, or after a quiet
        // spell) reads the day and its lookback once, as the finished day's roll-up does.
        const arrivals =
          target.getTime() - watermark.getTime() > FUNNEL_LOOKUP_MAX_MS
            ? funnelEventRows({ from: dayStart, to: target }, events, watermark)
            : firstArrivalRows(dayStart, { from: watermark, to: target }, events);
        await tx.execute(sql`
          insert into funnel_daily_counts (day, name, dimension, value, count)
          select day::date, name, ${DIMENSION_OF_SET}, coalesce(campaign, media_source, country, variant, day), count(*)::int
          from (${arrivals}) as e
          group by grouping sets ((day, name), (day, name, campaign), (day, name, media_source), (day, name, country), (day, name, variant))
          on conflict (day, dimension, value, name) do update set count = funnel_daily_counts.count + excluded.count`);
        watermark = target;
      }
      if (fresh || watermark !== state.partialThrough)
        await tx
          .update(funnelRollupState)
          .set({ partialDay: today, partialThrough: watermark, updatedAt: now })
          .where(eq(funnelRollupState.id, 1));
      return { watermark, rows: await this.funnelRolledCounts(tx, today, today) };
    });
  }

  /**
   * Funnel step counts, as `funnelCounts` gives them, of the first arrivals among the events of
   * [from, to) for a range that started at `dayStart` (ADR 198: the events after today's watermark).
   */
  async funnelCountsSince(db: Executor, dayStart: Date, range: Instants, events: readonly string[]): Promise<FunnelCountRow[]> {
    const result = await db.execute(sql`
      select name, ${DIMENSION_OF_SET} as dimension, coalesce(day, campaign, media_source, country, variant) as value, count(*)::int as count
      from (${firstArrivalRows(dayStart, range, events)}) as e
      group by grouping sets ((name, day), (name, campaign), (name, media_source), (name, country), (name, variant))`);
    return rowsOf<FunnelCountRow>(result);
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

  /**
   * Reports made in the range by status, error code and model version, from the counts the
   * database keeps (ADR 199): the range is whole UTC days, so the days' rows are exactly the
   * reports made in it (the report sweep compacts the rows now and then).
   */
  async reportsByStatus(db: Executor, range: Instants) {
    const result = await db.execute(sql`
      select status, error_code, model_version, sum(count)::int as count
      from report_status_counts where day >= ${dayStartingAt(range.from)}::date and day < ${dayStartingAt(range.to)}::date
      group by 1, 2, 3 having sum(count) <> 0`);
    return rowsOf<{ status: string; error_code: string | null; model_version: string | null; count: number }>(result);
  }

  /** The range's feedback: the latest `limit` answers, and the answers counted from the counts the database keeps (ADR 199). */
  async feedback(db: Executor, range: Instants, event: string, limit: number) {
    const result = await db.execute(sql`
      select created_at, payload from funnel_events
      where name = ${event} and created_at >= ${range.from.toISOString()} and created_at < ${range.to.toISOString()}
      order by created_at desc limit ${limit}`);
    const counts = await db.execute(sql`
      select coalesce(sum(count), 0)::int as answered, coalesce(sum(count) filter (where looks_correct), 0)::int as looks_correct
      from report_feedback_counts
      where day >= ${dayStartingAt(range.from)}::date and day < ${dayStartingAt(range.to)}::date`);
    return {
      rows: rowsOf<{ created_at: string | Date; payload: string | null }>(result),
      counts: rowsOf<{ answered: number; looks_correct: number }>(counts)[0] ?? { answered: 0, looks_correct: 0 },
    };
  }
}
