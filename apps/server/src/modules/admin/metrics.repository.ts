import { ACCESS_STATUSES } from '@roots/contracts/subscriptions';
import { sql } from 'drizzle-orm';
import type { Executor } from '../../db/executor';
import type { AgreedTerms, ChargeKind } from '../../db/schema';
import { rowsOf } from '../emails/emails.repository';
import type { Instants } from './admin.repository';

/** Rows the revenue figures read (docs/metrics.md); each purchase comes with its agreed terms. */
export class MetricsRepository {
  /** Charges (refunds apart) of the range per day, kind, plan and terms, period, status, retry and main/add-on purchase. */
  async charges(db: Executor, range: Instants) {
    const result = await db.execute(sql`
      select to_char(c.created_at at time zone 'UTC', 'YYYY-MM-DD') as day, c.kind, s.plan_id, s.agreed_terms,
             (s.parent_id is not null) as addon, c.period, c.status, (c.attempt > 0) as retry,
             count(*)::int as count, coalesce(sum(c.amount_minor), 0)::bigint as amount_minor
      from charges c join subscriptions s on s.id = c.subscription_id
      where c.kind <> 'refund' and c.created_at >= ${range.from.toISOString()} and c.created_at < ${range.to.toISOString()}
      group by 1, 2, 3, 4, 5, 6, 7, 8`);
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
   * ended or stopped renewing in the range (churn), each with the periods it paid.
   */
  async purchases(db: Executor, range: Instants, since: Date) {
    const result = await db.execute(sql`
      select s.id, s.plan_id, s.agreed_terms, s.status, s.current_period, s.created_at, s.canceled_at, s.ended_at,
             cc.channel,
             coalesce((select json_agg(json_build_object('period', c.period, 'at', c.created_at) order by c.period)
                       from charges c
                       where c.subscription_id = s.id and c.kind <> 'refund' and c.status = 'succeeded'), '[]'::json) as paid
      from subscriptions s left join cancellation_channels cc on cc.subscription_id = s.id
      where s.parent_id is null
        and ((s.created_at >= ${since.toISOString()} and s.created_at < ${range.to.toISOString()})
          or (s.ended_at >= ${range.from.toISOString()} and s.ended_at < ${range.to.toISOString()}))`);
    return rowsOf<{
      id: string;
      plan_id: string;
      agreed_terms: AgreedTerms | null;
      status: string;
      current_period: number;
      created_at: string | Date;
      canceled_at: string | Date | null;
      ended_at: string | Date | null;
      channel: string | null;
      paid: Array<{ period: number; at: string }> | string;
    }>(result);
  }
}
