import { ACCESS_STATUSES } from '@roots/contracts/subscriptions';
import { eq, sql } from 'drizzle-orm';
import type { Executor } from '../../db/executor';
import { chargeRollupState, type AgreedTerms, type ChargeKind, type ChargeStatus } from '../../db/schema';
import { DAY_MS } from '../../lib/clock';
import { MAX_PERIOD_BIT } from '../lifecycle/lifecycle.repository';
import { rowsOf } from '../emails/emails.repository';
import type { Instants } from './admin.repository';

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
  return db.transaction(async (tx) => {
    await tx.execute(sql`set local work_mem = '64MB'`);
    await tx.execute(sql`set local jit = off`);
    return read(tx);
  });
}

const nextDay = (day: string) => new Date(Date.parse(`${day}T00:00:00Z`) + DAY_MS).toISOString().slice(0, 10);

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
   * The charge groups of the UTC days [fromDay, toDay] (YYYY-MM-DD, both included): the days
   * through `rolledThrough` (what {@link rollUpCharges} returned) from their daily groups, the
   * others (normally today, or days waiting on a pending attempt) from the ledger.
   */
  async chargeGroupsOfDays(db: Executor, rolledThrough: string | null, fromDay: string, toDay: string): Promise<ChargeGroupRow[]> {
    const rolledTo = rolledThrough && rolledThrough < toDay ? rolledThrough : toDay;
    const liveFrom = new Date(`${rolledThrough && rolledThrough >= fromDay ? nextDay(rolledThrough) : fromDay}T00:00:00Z`);
    const liveTo = new Date(`${nextDay(toDay)}T00:00:00Z`);
    const [rolled, live] = await Promise.all([
      rolledThrough && fromDay <= rolledTo ? this.rolledCharges(db, fromDay, rolledTo) : [],
      liveFrom < liveTo ? reading(db, (tx) => this.charges(tx, { from: liveFrom, to: liveTo })) : [],
    ]);
    return [...rolled, ...live];
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
   * change). One instance at a time (the state row is locked); re-rolling a day replaces its
   * groups. Returns the last rolled day (null: nothing rolled yet).
   */
  async rollUpCharges(db: Executor, throughDay: string, now: Date): Promise<string | null> {
    return db.transaction(async (tx) => {
      await tx.insert(chargeRollupState).values({ id: 1, rolledThrough: null, updatedAt: now }).onConflictDoNothing();
      const [state] = await tx.select().from(chargeRollupState).where(eq(chargeRollupState.id, 1)).for('update');
      const rolledThrough = state?.rolledThrough ?? null;
      const [bounds] = rowsOf<{ first: string | null; pending: string | null }>(
        await tx.execute(sql`
          select to_char(min(created_at) at time zone 'UTC', 'YYYY-MM-DD') as first,
                 (select to_char(min(created_at) at time zone 'UTC', 'YYYY-MM-DD') from charges where status = 'pending') as pending
          from charges`),
      );
      const fromDay = rolledThrough ? nextDay(rolledThrough) : bounds?.first;
      if (!fromDay) return rolledThrough;
      // The day before the first one with a pending attempt, at the latest.
      const pendingBefore = bounds?.pending
        ? new Date(Date.parse(`${bounds.pending}T00:00:00Z`) - DAY_MS).toISOString().slice(0, 10)
        : null;
      const lastDay = pendingBefore && pendingBefore < throughDay ? pendingBefore : throughDay;
      if (fromDay > lastDay) return rolledThrough;
      await tx.execute(sql`delete from charge_daily_groups where day >= ${fromDay}::date and day <= ${lastDay}::date`);
      await tx.execute(sql`
        insert into charge_daily_groups (day, kind, plan_id, agreed_terms, addon, automatic, period, status, retry, count, amount_minor)
        ${chargeGroups({ from: new Date(`${fromDay}T00:00:00Z`), to: new Date(`${nextDay(lastDay)}T00:00:00Z`) })}`);
      await tx.update(chargeRollupState).set({ rolledThrough: lastDay, updatedAt: now }).where(eq(chargeRollupState.id, 1));
      return lastDay;
    });
  }

  /** Main purchases that stopped renewing in the range, per day, channel, reason, plan and terms. */
  async stops(db: Executor, range: Instants) {
    const result = await db.execute(sql`
      select to_char(s.canceled_at at time zone 'UTC', 'YYYY-MM-DD') as day, s.plan_id, s.agreed_terms,
             coalesce(cc.channel, 'by_id') as channel, coalesce(cc.reason, 'not given') as reason, count(*)::int as count
      from subscriptions s left join cancellation_channels cc on cc.subscription_id = s.id
      where s.parent_id is null and s.canceled_at >= ${range.from.toISOString()} and s.canceled_at < ${range.to.toISOString()}
      group by 1, 2, 3, 4, 5`);
    return rowsOf<{ day: string; plan_id: string; agreed_terms: AgreedTerms | null; channel: string; reason: string; count: number }>(
      result,
    );
  }

  /** Main purchases made before `at` and not ended by then, per plan and terms and whether period 1 was paid before `at`. */
  async startingAt(db: Executor, at: Date) {
    const result = await db.execute(sql`
      select plan_id, agreed_terms, coalesce(period1_paid_at < ${at.toISOString()}, false) as past_first, count(*)::int as count
      from subscriptions
      where parent_id is null and created_at < ${at.toISOString()} and (ended_at is null or ended_at >= ${at.toISOString()})
      group by 1, 2, 3`);
    return rowsOf<{ plan_id: string; agreed_terms: AgreedTerms | null; past_first: boolean; count: number }>(result);
  }

  /** Purchases that give access now, per plan and terms, status, period and main/add-on purchase. */
  async holding(db: Executor) {
    const result = await db.execute(sql`
      select plan_id, agreed_terms, status, current_period, (parent_id is not null) as addon, count(*)::int as count
      from subscriptions
      where status in ${[...ACCESS_STATUSES]}
      group by 1, 2, 3, 4, 5`);
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
   * Main purchases made since `since` (trials ending in the range, cohorts of its months), or that
   * ended in the range (churn), grouped so that every figure of `metrics.ts` comes out as from each
   * purchase alone (bench:admin: 100 000 purchases read one by one took seconds). A group shares the
   * terms, the day of purchase and whether its time of day is after `now`'s (the periods of the terms
   * keep the time of day, and the range's bounds are midnights, so each comparison with a bound or
   * with `now` is the same for every member), the day it ended, its period and churn channel, the
   * periods it paid, and the months its first two periods were paid in.
   */
  async purchases(db: Executor, range: Instants, since: Date, now: Date, until: Date = range.to) {
    // Days and months are grouped as dates and printed once per group; the paid periods are the
    // lifecycle's record on the row (ADR 157).
    const result = await db.execute(sql`
      select s.plan_id, s.agreed_terms, s.current_period, cc.channel,
             to_char((s.created_at at time zone 'UTC')::date, 'YYYY-MM-DD') as created_day,
             (s.created_at at time zone 'UTC')::time > (${now.toISOString()}::timestamptz at time zone 'UTC')::time as after_now,
             to_char((s.ended_at at time zone 'UTC')::date, 'YYYY-MM-DD') as ended_day,
             s.paid_periods as periods,
             to_char(date_trunc('month', s.period0_paid_at at time zone 'UTC'), 'YYYY-MM') as month0,
             to_char(date_trunc('month', s.period1_paid_at at time zone 'UTC'), 'YYYY-MM') as month1,
             count(*)::int as count
      from subscriptions s
      left join cancellation_channels cc on cc.subscription_id = s.id
      where s.parent_id is null
        and ((s.created_at >= ${since.toISOString()} and s.created_at < ${until.toISOString()})
          or (s.ended_at >= ${range.from.toISOString()} and s.ended_at < ${range.to.toISOString()}))
      group by s.plan_id, s.agreed_terms, s.current_period, cc.channel, (s.created_at at time zone 'UTC')::date, 6,
               (s.ended_at at time zone 'UTC')::date, s.paid_periods, date_trunc('month', s.period0_paid_at at time zone 'UTC'),
               date_trunc('month', s.period1_paid_at at time zone 'UTC')`);
    return rowsOf<{
      plan_id: string;
      agreed_terms: AgreedTerms | null;
      current_period: number;
      channel: string | null;
      created_day: string;
      after_now: boolean;
      ended_day: string | null;
      /** Bit n set: period n was paid. */
      periods: number;
      month0: string | null;
      month1: string | null;
      count: number;
    }>(result);
  }
}
