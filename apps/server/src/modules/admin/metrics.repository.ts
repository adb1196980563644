import { ACCESS_STATUSES } from '@roots/contracts/subscriptions';
import { eq, sql } from 'drizzle-orm';
import type { Executor } from '../../db/executor';
import { chargeRollupState, type AgreedTerms, type ChargeKind, type ChargeStatus } from '../../db/schema';
import { MAX_PERIOD_BIT } from '../lifecycle/lifecycle.repository';
import { PURCHASE_COUNT_KEY } from '../lifecycle/purchase-counts';
import { rowsOf } from '../emails/emails.repository';
import { dayStartingAt, nextDay, previousDay, ROLLUP_SETTLE_MS, type Instants } from './date-range';

export { MAX_PERIOD_BIT };

/** One group of charge attempts (refunds included) of a UTC day: what the revenue view counts. */
export type ChargeGroupRow = {
  day: string;
  kind: ChargeKind;
  plan_id: string;
  agreed_terms: AgreedTerms | null;
  /** An add-on purchase's charge. */
  addon: boolean;
  /** A refund of a payment no purchase claimed (the sweep's, ADR 127). */
  automatic: boolean;
  period: number;
  status: ChargeStatus;
  retry: boolean;
  count: number;
  amount_minor: string | number;
};

/** The attempts of [from, to) grouped per UTC day and everything the revenue view tells apart. */
function chargeGroups(span: Instants) {
  return sql`
    select (c.created_at at time zone 'UTC')::date as day, c.kind, coalesce(s.plan_id, c.plan_id) as plan_id, s.agreed_terms,
           (s.parent_id is not null) as addon, (c.subscription_id is null) as automatic, c.period, c.status,
           (c.attempt > 0) as retry, count(*)::int as count, coalesce(sum(c.amount_minor), 0)::bigint as amount_minor
    from charges c left join subscriptions s on s.id = c.subscription_id
    where c.created_at >= ${span.from.toISOString()} and c.created_at < ${span.to.toISOString()}
    group by 1, 2, 3, 4, 5, 6, 7, 8, 9`;
}

/**
 * One of the console's reads in a transaction of its own (each on its own connection, side by side), tuned for it (bench:admin on PostgreSQL: 100 000
 * purchases): their grouping sorts fit in memory instead of spilling to disk, and no JIT compiling,
 * which PostgreSQL's cost estimate of these joins switched on and which took longer than the query.
 */
export async function reading<T>(db: Executor, read: (tx: Executor) => Promise<T>): Promise<T> {
  // One snapshot for every statement of the read (repeatable read): a read in two steps sees one state.
  return db.transaction(
    async (tx) => {
      await tx.execute(sql`set local work_mem = '64MB'`);
      await tx.execute(sql`set local jit = off`);
      return read(tx);
    },
    { isolationLevel: 'repeatable read', accessMode: 'read only' },
  );
}

/** The counts of purchases (ADR 200): the folded ones and what the triggers added since, summed by each reader. */
const COUNTS = sql`(select ${PURCHASE_COUNT_KEY}, count from subscription_counts union all select ${PURCHASE_COUNT_KEY}, count from subscription_count_deltas) as counted`;

/** A group of main purchases as the range figures read them (see {@link MetricsRepository.purchases}). */
export type PurchaseGroupRow = {
  plan_id: string;
  agreed_terms: AgreedTerms | null;
  current_period: number;
  channel: string | null;
  created_day: string;
  ended_day: string | null;
  /** Bit n set: period n was paid. */
  periods: number;
  month0: string | null;
  month1: string | null;
  count: number;
};

const daysOfInstants = (range: Instants) => ({ from: dayStartingAt(range.from), to: dayStartingAt(range.to) });

/** Rows the revenue figures read (docs/metrics.md); each purchase comes with its agreed terms. */
export class MetricsRepository {
  /** Charge groups of [from, to) read from the ledger itself (the days not rolled up yet: normally today). */
  async charges(db: Executor, range: Instants): Promise<ChargeGroupRow[]> {
    const result = await db.execute(sql`
      select to_char(g.day, 'YYYY-MM-DD') as day, g.kind, g.plan_id, g.agreed_terms, g.addon, g.automatic, g.period, g.status,
             g.retry, g.count, g.amount_minor
      from (${chargeGroups(range)}) g`);
    return rowsOf<ChargeGroupRow>(result);
  }

  /**
   * The charge groups of the UTC days [fromDay, toDay] (YYYY-MM-DD, both included): what
   * {@link rollUpCharges} rolled (finished days, and the day after them up to `partial_through`)
   * from `charge_daily_groups`, the rest (normally the last minutes) from the ledger. The state, the
   * rolled groups and the ledger are read in one snapshot, so a roll-up committed meanwhile by
   * another request never counts a charge twice.
   */
  async chargeGroupsOfDays(db: Executor, fromDay: string, toDay: string): Promise<ChargeGroupRow[]> {
    return reading(db, async (tx) => {
      const [state] = await tx.select().from(chargeRollupState).where(eq(chargeRollupState.id, 1));
      const rolledThrough = state?.rolledThrough ?? null;
      const lastRolledDay = state?.partialDay ?? rolledThrough;
      const rolledTo = lastRolledDay && lastRolledDay < toDay ? lastRolledDay : toDay;
      const rangeStart = new Date(`${fromDay}T00:00:00Z`);
      const covered = state?.partialThrough ?? (rolledThrough ? new Date(`${nextDay(rolledThrough)}T00:00:00Z`) : rangeStart);
      const liveFrom = covered > rangeStart ? covered : rangeStart;
      const liveTo = new Date(`${nextDay(toDay)}T00:00:00Z`);
      const rolled = lastRolledDay && fromDay <= rolledTo ? await this.rolledCharges(tx, fromDay, rolledTo) : [];
      const live = liveFrom < liveTo ? await this.charges(tx, { from: liveFrom, to: liveTo }) : [];
      return [...rolled, ...live];
    });
  }

  /** Rolled-up charge groups of the days [fromDay, toDay]. */
  async rolledCharges(db: Executor, fromDay: string, toDay: string): Promise<ChargeGroupRow[]> {
    const result = await db.execute(sql`
      select to_char(day, 'YYYY-MM-DD') as day, kind, plan_id, agreed_terms, addon, automatic, period, status, retry, count, amount_minor
      from charge_daily_groups
      where day >= ${fromDay}::date and day <= ${toDay}::date`);
    return rowsOf<ChargeGroupRow>(result);
  }

  /**
   * Rolls the charge groups of every finished day after the last rolled one into
   * `charge_daily_groups`, through `throughDay` (YYYY-MM-DD) but never through a day that still
   * has a pending attempt (its outcome would change the day's groups; settled attempts never
   * change); re-rolling a day replaces its groups. Then the day after the last rolled one (normally
   * today) is rolled on from where it was left, up to {@link ROLLUP_SETTLE_MS} before `now` and
   * never past its first pending attempt: its groups are added as further rows of that day (every
   * reader sums them), and the whole day replaces them once it is finished (ADR 200). One instance
   * at a time (the state row is locked).
   */
  async rollUpCharges(db: Executor, throughDay: string, now: Date): Promise<void> {
    return db.transaction(async (tx) => {
      await tx.insert(chargeRollupState).values({ id: 1, rolledThrough: null, updatedAt: now }).onConflictDoNothing();
      const [state] = await tx.select().from(chargeRollupState).where(eq(chargeRollupState.id, 1)).for('update');
      let rolledThrough = state?.rolledThrough ?? null;
      const [bounds] = rowsOf<{ first: string | null; pending: string | null }>(
        await tx.execute(sql`
          select to_char(min(created_at) at time zone 'UTC', 'YYYY-MM-DD') as first,
                 (select to_char(min(created_at) at time zone 'UTC', 'YYYY-MM-DD') from charges where status = 'pending') as pending
          from charges`),
      );
      const fromDay = rolledThrough ? nextDay(rolledThrough) : bounds?.first;
      if (!fromDay) return;
      // The day before the first one with a pending attempt, at the latest.
      const pendingBefore = bounds?.pending ? previousDay(bounds.pending) : null;
      const lastDay = pendingBefore && pendingBefore < throughDay ? pendingBefore : throughDay;
      if (fromDay <= lastDay) {
        await tx.execute(sql`delete from charge_daily_groups where day >= ${fromDay}::date and day <= ${lastDay}::date`);
        await tx.execute(sql`
          insert into charge_daily_groups (day, kind, plan_id, agreed_terms, addon, automatic, period, status, retry, count, amount_minor)
          ${chargeGroups({ from: new Date(`${fromDay}T00:00:00Z`), to: new Date(`${nextDay(lastDay)}T00:00:00Z`) })}`);
        rolledThrough = lastDay;
      }
      // The day after the rolled ones, rolled on from where it was left.
      const partialDay = rolledThrough ? nextDay(rolledThrough) : fromDay;
      const dayStart = new Date(`${partialDay}T00:00:00Z`);
      const dayEnd = new Date(`${nextDay(partialDay)}T00:00:00Z`);
      const left = state?.partialDay === partialDay && state.partialThrough ? state.partialThrough : dayStart;
      const [pending] = rowsOf<{ at: string | Date | null }>(
        await tx.execute(
          sql`select min(created_at) as at from charges where status = 'pending' and created_at >= ${left.toISOString()} and created_at < ${dayEnd.toISOString()}`,
        ),
      );
      let until = new Date(Math.min(now.getTime() - ROLLUP_SETTLE_MS, dayEnd.getTime()));
      if (pending?.at && new Date(pending.at) < until) until = new Date(pending.at);
      if (until > left)
        await tx.execute(sql`
          insert into charge_daily_groups (day, kind, plan_id, agreed_terms, addon, automatic, period, status, retry, count, amount_minor)
          ${chargeGroups({ from: left, to: until })}`);
      const partialThrough = until > left ? until : left;
      await tx
        .update(chargeRollupState)
        .set({ rolledThrough, partialDay, partialThrough, updatedAt: now })
        .where(eq(chargeRollupState.id, 1));
    });
  }

  /** Main purchases that stopped renewing in the range, per day, channel, reason, plan and terms. */
  async stops(db: Executor, range: Instants) {
    const { from, to } = daysOfInstants(range);
    const result = await db.execute(sql`
      select to_char(canceled_day, 'YYYY-MM-DD') as day, plan_id, agreed_terms,
             coalesce(channel, 'by_id') as channel, coalesce(reason, 'not given') as reason, sum(count)::int as count
      from ${COUNTS}
      where not addon and canceled_day >= ${from}::date and canceled_day < ${to}::date
      group by canceled_day, plan_id, agreed_terms, channel, reason
      having sum(count) <> 0`);
    return rowsOf<{ day: string; plan_id: string; agreed_terms: AgreedTerms | null; channel: string; reason: string; count: number }>(
      result,
    );
  }

  /** Main purchases made before `at` (a midnight) and not ended by then, per plan and terms and whether period 1 was paid before `at`. */
  async startingAt(db: Executor, at: Date) {
    const day = dayStartingAt(at);
    const result = await db.execute(sql`
      select plan_id, agreed_terms, coalesce(paid1_day < ${day}::date, false) as past_first, sum(count)::int as count
      from ${COUNTS}
      where not addon and created_day < ${day}::date and (ended_day is null or ended_day >= ${day}::date)
      group by 1, 2, 3
      having sum(count) <> 0`);
    return rowsOf<{ plan_id: string; agreed_terms: AgreedTerms | null; past_first: boolean; count: number }>(result);
  }

  /** Purchases that give access now, per plan and terms, status, period and main/add-on purchase. */
  async holding(db: Executor) {
    const result = await db.execute(sql`
      select plan_id, agreed_terms, status, current_period, addon, sum(count)::int as count
      from ${COUNTS}
      where status in ${[...ACCESS_STATUSES]}
      group by 1, 2, 3, 4, 5
      having sum(count) <> 0`);
    return rowsOf<{
      plan_id: string;
      agreed_terms: AgreedTerms | null;
      status: string;
      current_period: number;
      addon: boolean;
      count: number;
    }>(result);
  }

  /**
   * Main purchases made in [since, until) (trials ending in the range, cohorts of its months), or
   * that ended in the range (churn), every bound a midnight, grouped so that every figure of
   * `metrics.ts` comes out as from each purchase alone: by terms, the day of purchase, the day it
   * ended, its period and churn channel, the periods it paid, and the months its first two periods
   * were paid in. Read from the counts (ADR 200); which of a day's purchases were made after now's
   * time of day is {@link madeAfterTimeOfDay}'s.
   */
  async purchases(db: Executor, range: Instants, since: Date, until: Date = range.to) {
    const span = daysOfInstants(range);
    const result = await db.execute(sql`
      select plan_id, agreed_terms, current_period, channel, to_char(created_day, 'YYYY-MM-DD') as created_day,
             to_char(ended_day, 'YYYY-MM-DD') as ended_day, paid_periods as periods, to_char(paid0_month, 'YYYY-MM') as month0,
             to_char(paid1_day, 'YYYY-MM') as month1, sum(count)::int as count
      from ${COUNTS}
      where not addon
        and ((created_day >= ${dayStartingAt(since)}::date and created_day < ${dayStartingAt(until)}::date)
          or (ended_day >= ${span.from}::date and ended_day < ${span.to}::date))
      group by plan_id, agreed_terms, current_period, channel, created_day, ended_day, paid_periods, paid0_month,
               to_char(paid1_day, 'YYYY-MM')
      having sum(count) <> 0`);
    return rowsOf<PurchaseGroupRow>(result);
  }

  /**
   * Of the main purchases of each plan made on each day given, those made after `timeOfDay` (ms
   * after midnight, UTC) that day, grouped as {@link purchases} groups them: the days whose purchases
   * have a period turning today, where whether it turned by now depends on the time of day (ADR 200).
   */
  async madeAfterTimeOfDay(db: Executor, days: ReadonlyArray<{ day: string; planId: string }>, timeOfDay: number) {
    if (days.length === 0) return [];
    const windows = sql.join(
      days.map(({ day, planId }) => {
        const start = new Date(Date.parse(`${day}T00:00:00Z`) + timeOfDay).toISOString();
        const end = new Date(`${nextDay(day)}T00:00:00Z`).toISOString();
        return sql`(s.plan_id = ${planId} and s.created_at > ${start}::timestamptz and s.created_at < ${end}::timestamptz)`;
      }),
      sql` or `,
    );
    const result = await db.execute(sql`
      select s.plan_id, s.agreed_terms, s.current_period, cc.channel, to_char((s.created_at at time zone 'UTC')::date, 'YYYY-MM-DD') as created_day,
             to_char((s.ended_at at time zone 'UTC')::date, 'YYYY-MM-DD') as ended_day, s.paid_periods as periods,
             to_char(date_trunc('month', s.period0_paid_at at time zone 'UTC'), 'YYYY-MM') as month0,
             to_char(date_trunc('month', s.period1_paid_at at time zone 'UTC'), 'YYYY-MM') as month1, count(*)::int as count
      from subscriptions s left join cancellation_channels cc on cc.subscription_id = s.id
      where s.parent_id is null and (${windows})
      group by 1, 2, 3, 4, 5, 6, 7, 8, 9`);
    return rowsOf<PurchaseGroupRow>(result);
  }
}
