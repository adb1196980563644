import { ACCESS_STATUSES } from '@roots/contracts/subscriptions';
import { sql } from 'drizzle-orm';
import type { Executor } from '../../db/executor';
import type { AgreedTerms, ChargeKind } from '../../db/schema';
import { rowsOf } from '../emails/emails.repository';
import type { Instants } from './admin.repository';

/** The highest period told apart in a purchase's paid periods (the figures read periods 0 to 6). */
export const MAX_PERIOD_BIT = 30;

/** Rows the revenue figures read (docs/metrics.md); each purchase comes with its agreed terms. */
export class MetricsRepository {
  /** Charges (refunds apart) of the range per day, kind, plan and terms, period, status, retry and main/add-on purchase. */
  async charges(db: Executor, range: Instants) {
    const result = await db.execute(sql`
      select to_char((c.created_at at time zone 'UTC')::date, 'YYYY-MM-DD') as day, c.kind, s.plan_id, s.agreed_terms,
             (s.parent_id is not null) as addon, c.period, c.status, (c.attempt > 0) as retry,
             count(*)::int as count, coalesce(sum(c.amount_minor), 0)::bigint as amount_minor
      from charges c join subscriptions s on s.id = c.subscription_id
      where c.kind <> 'refund' and c.created_at >= ${range.from.toISOString()} and c.created_at < ${range.to.toISOString()}
      group by (c.created_at at time zone 'UTC')::date, 2, 3, 4, 5, 6, 7, 8`);
    return rowsOf<{
      day: string;
      kind: Exclude<ChargeKind, 'refund'>;
      plan_id: string;
      agreed_terms: AgreedTerms | null;
      addon: boolean;
      period: number;
      status: string;
      retry: boolean;
      count: number;
      amount_minor: string | number;
    }>(result);
  }

  /** Succeeded refunds of the range per day: to a customer's purchase, or automatic (a payment no purchase claimed). */
  async refunds(db: Executor, range: Instants) {
    const result = await db.execute(sql`
      select to_char(created_at at time zone 'UTC', 'YYYY-MM-DD') as day, (subscription_id is null) as automatic,
             count(*)::int as count, coalesce(sum(amount_minor), 0)::bigint as amount_minor
      from charges
      where kind = 'refund' and status = 'succeeded'
        and created_at >= ${range.from.toISOString()} and created_at < ${range.to.toISOString()}
      group by 1, 2`);
    return rowsOf<{ day: string; automatic: boolean; count: number; amount_minor: string | number }>(result);
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
  async purchases(db: Executor, range: Instants, since: Date, now: Date) {
    // Days and months are grouped as dates and printed once per group; the paid periods are read
    // per purchase from all charges at once (a hash aggregate), then joined.
    const result = await db.execute(sql`
      select s.plan_id, s.agreed_terms, s.current_period, cc.channel,
             to_char((s.created_at at time zone 'UTC')::date, 'YYYY-MM-DD') as created_day,
             (s.created_at at time zone 'UTC')::time > (${now.toISOString()}::timestamptz at time zone 'UTC')::time as after_now,
             to_char((s.ended_at at time zone 'UTC')::date, 'YYYY-MM-DD') as ended_day,
             coalesce(paid.periods, 0) as periods,
             to_char(date_trunc('month', paid.at0 at time zone 'UTC'), 'YYYY-MM') as month0,
             to_char(date_trunc('month', paid.at1 at time zone 'UTC'), 'YYYY-MM') as month1,
             count(*)::int as count
      from subscriptions s
      left join cancellation_channels cc on cc.subscription_id = s.id
      left join (
        -- The periods paid, as bits (see MAX_PERIOD_BIT).
        select c.subscription_id, bit_or(1 << least(c.period, ${MAX_PERIOD_BIT}::int)) as periods,
               min(c.created_at) filter (where c.period = 0) as at0,
               min(c.created_at) filter (where c.period = 1) as at1
        from charges c
        where c.kind <> 'refund' and c.status = 'succeeded' and c.subscription_id is not null
        group by 1
      ) paid on paid.subscription_id = s.id
      where s.parent_id is null
        and ((s.created_at >= ${since.toISOString()} and s.created_at < ${range.to.toISOString()})
          or (s.ended_at >= ${range.from.toISOString()} and s.ended_at < ${range.to.toISOString()}))
      group by s.plan_id, s.agreed_terms, s.current_period, cc.channel, (s.created_at at time zone 'UTC')::date, 6,
               (s.ended_at at time zone 'UTC')::date, 8, date_trunc('month', paid.at0 at time zone 'UTC'),
               date_trunc('month', paid.at1 at time zone 'UTC')`);
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
