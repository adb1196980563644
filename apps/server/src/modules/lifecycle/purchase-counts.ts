import { sql } from 'drizzle-orm';
import type { Executor } from '../../db/executor';
import { rowsOf } from '../emails/emails.repository';

/** The columns a purchase is counted by in `subscription_counts` and `subscription_count_deltas` (ADR 200). */
export const PURCHASE_COUNT_KEY = sql.raw(
  'plan_id, agreed_terms, addon, status, current_period, created_day, ended_day, canceled_day, paid_periods, paid0_month, paid1_day, channel, reason',
);

/**
 * Folds what the database's triggers appended to `subscription_count_deltas` as purchases were
 * written into `subscription_counts` (ADR 200). The figures read both, so this only keeps the
 * deltas short: the billing tick folds them every pass, and the console before it reads. One
 * instance at a time (another one running already: this one skips).
 */
export async function foldPurchaseCounts(db: Executor): Promise<void> {
  await db.transaction(async (tx) => {
    const [lock] = rowsOf<{ locked: boolean }>(
      await tx.execute(sql`select pg_try_advisory_xact_lock(hashtext('subscription_counts_compact')) as locked`),
    );
    if (!lock?.locked) return;
    await tx.execute(sql`
      with moved as (delete from subscription_count_deltas returning ${PURCHASE_COUNT_KEY}, count)
      insert into subscription_counts (${PURCHASE_COUNT_KEY}, count)
      select ${PURCHASE_COUNT_KEY}, sum(count)::int from moved group by ${PURCHASE_COUNT_KEY}
      on conflict on constraint subscription_counts_key_unique do update set count = subscription_counts.count + excluded.count`);
    await tx.execute(sql`delete from subscription_counts where count = 0`);
  });
}
