import { buildPlanCatalog } from '@roots/contracts';
import { COHORT_PERIODS } from '@roots/contracts/admin';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../db/database';
import { DAY_MS, HOUR_MS } from '../../lib/clock';
import { openTestDatabase, testDatabases } from '../../test/helpers';
import { rowsOf } from '../emails/emails.repository';
import { churn, cohorts, metricTermsOf, trialCohort, type PurchaseFacts } from './metrics';
import { foldPurchaseCounts } from '../lifecycle/purchase-counts';
import { revenueReport } from './revenue-report';

/**
 * The purchase counts the revenue and Plans views read (ADR 200) are kept by triggers: whatever
 * writes a purchase or its cancellation channel, the counts must equal a count of the purchases
 * themselves; and the revenue figures read from them must equal the figures of each purchase alone.
 */

const catalog = buildPlanCatalog('roots');
const PLANS = ['roots_3d1_7d2499', 'roots_3m4800_3m4999', 'roots_7d1499_7d2499', 'roots_ultimate_pack_4999_otp'];
const STATUSES = ['trialing', 'active', 'past_due', 'canceled', 'expired', 'refunded'];
const CHANNELS = ['by_id', 'email_code', 'operator', 'payment_failed', 'refund'];

/** A small deterministic generator (mulberry32), so a failure can be replayed. */
function random(seed: number) {
  let state = seed;
  const next = () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return { next, int: (n: number) => Math.floor(next() * n), pick: <T>(list: readonly T[]) => list[Math.floor(next() * list.length)]! };
}

const KEY = sql.raw(
  'plan_id, agreed_terms, addon, status, current_period, created_day, ended_day, canceled_day, paid_periods, paid0_month, paid1_day, channel, reason',
);

/** Rows where the kept counts and a count of the purchases themselves differ (none when they agree). */
async function disagreements(db: Database['db']) {
  const kept = sql`select ${KEY}, sum(count)::int as count
    from (select ${KEY}, count from subscription_counts union all select ${KEY}, count from subscription_count_deltas) k
    group by ${KEY} having sum(count) <> 0`;
  const counted = sql`select s.plan_id, s.agreed_terms, s.parent_id is not null as addon, s.status, s.current_period,
      (s.created_at at time zone 'UTC')::date as created_day, (s.ended_at at time zone 'UTC')::date as ended_day,
      (s.canceled_at at time zone 'UTC')::date as canceled_day, s.paid_periods,
      date_trunc('month', s.period0_paid_at at time zone 'UTC')::date as paid0_month, (s.period1_paid_at at time zone 'UTC')::date as paid1_day,
      cc.channel, cc.reason, count(*)::int as count
    from subscriptions s left join cancellation_channels cc on cc.subscription_id = s.id
    group by 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13`;
  return rowsOf<Record<string, unknown>>(await db.execute(sql`(${kept} except all ${counted}) union all (${counted} except all ${kept})`));
}

let sequence = 0;
async function insertPurchase(db: Database['db'], row: { planId: string; createdAt: Date; status?: string; parentId?: string | null }) {
  sequence += 1;
  const id = `00000000-0000-4000-8000-${String(sequence).padStart(12, '0')}`;
  await db.execute(sql`
    insert into subscriptions (id, email, plan_id, status, parent_id, initial_execution_id, holder_reference, current_period_start,
                               terms_text, terms_version, consent_at, consent_ip, consent_user_agent, created_at, updated_at)
    values (${id}, ${`c${sequence}@example.com`}, ${row.planId}, ${row.status ?? 'active'}, ${row.parentId ?? null}, ${`exe_${id}`},
            'holder', ${row.createdAt.toISOString()}, 'terms', 'v1', ${row.createdAt.toISOString()}, '203.0.113.1', 'test',
            ${row.createdAt.toISOString()}, ${row.createdAt.toISOString()})`);
  return id;
}

describe.each(testDatabases())('the purchase counts, on $name', ({ url }) => {
  let database: Database;
  beforeAll(async () => {
    database = await openTestDatabase(url);
  });
  afterAll(async () => {
    await database?.close();
  });

  it('follow every write of a purchase and of its cancellation channel, folded or not', async () => {
    const db = database.db;
    const rng = random(36);
    const day0 = Date.parse('2026-09-01T00:00:00Z');
    const ids: string[] = [];
    for (let index = 0; index < 40; index += 1)
      ids.push(await insertPurchase(db, { planId: rng.pick(PLANS), createdAt: new Date(day0 + rng.int(60 * 24) * HOUR_MS) }));
    // An add-on of the first purchase.
    ids.push(await insertPurchase(db, { planId: PLANS[3]!, createdAt: new Date(day0 + 5 * DAY_MS), parentId: ids[0]! }));
    expect(await disagreements(db)).toEqual([]);
    for (let step = 0; step < 160; step += 1) {
      const id = rng.pick(ids);
      const at = new Date(day0 + rng.int(90 * 24) * HOUR_MS).toISOString();
      const change = rng.int(9);
      if (change === 0) await db.execute(sql`update subscriptions set status = ${rng.pick(STATUSES)} where id = ${id}`);
      else if (change === 1)
        await db.execute(
          sql`update subscriptions set current_period = current_period + 1, paid_periods = paid_periods | (1 << least(current_period + 1, 30)),
              period1_paid_at = coalesce(period1_paid_at, ${at}::timestamptz) where id = ${id}`,
        );
      else if (change === 2) await db.execute(sql`update subscriptions set canceled_at = ${at}, period0_paid_at = ${at} where id = ${id}`);
      else if (change === 3) await db.execute(sql`update subscriptions set ended_at = ${rng.next() < 0.3 ? null : at} where id = ${id}`);
      else if (change === 4)
        await db.execute(sql`
          insert into cancellation_channels (subscription_id, channel, reason, created_at) values (${id}, ${rng.pick(CHANNELS)}, 'not asked', ${at})
          on conflict (subscription_id) do update set channel = excluded.channel, reason = 'changed'`);
      else if (change === 5) await db.execute(sql`delete from cancellation_channels where subscription_id = ${id}`);
      else if (change === 6)
        await db.execute(sql`update subscriptions set due_at = ${at}, lease_until = ${at} where id = ${id}`); // nothing counted changes
      else if (change === 7) await foldPurchaseCounts(db);
      else if (rng.next() < 0.2) {
        await db.execute(sql`delete from subscriptions where id = ${id}`);
        ids.splice(ids.indexOf(id), 1, await insertPurchase(db, { planId: rng.pick(PLANS), createdAt: new Date(at) }));
      }
      if (step % 20 === 19) expect(await disagreements(db), `after step ${step}`).toEqual([]);
    }
    await foldPurchaseCounts(db);
    expect(await disagreements(db)).toEqual([]);
    // Folded, nothing is left to fold and no count is zero.
    const [left] = rowsOf<{ deltas: number; zeros: number }>(
      await db.execute(
        sql`select (select count(*)::int from subscription_count_deltas) as deltas, (select count(*)::int from subscription_counts where count = 0) as zeros`,
      ),
    );
    expect(left).toEqual({ deltas: 0, zeros: 0 });
  });

  it('stay true when a purchase and its cancellation channel are written at the same time', async () => {
    const db = database.db;
    const made = new Date('2026-10-01T08:00:00Z');
    const ids = await Promise.all(Array.from({ length: 12 }, () => insertPurchase(db, { planId: PLANS[0]!, createdAt: made })));
    await Promise.all(
      ids.flatMap((id, index) => [
        db.execute(
          sql`update subscriptions set status = 'canceled', canceled_at = ${made.toISOString()}, ended_at = ${made.toISOString()} where id = ${id}`,
        ),
        db.execute(sql`insert into cancellation_channels (subscription_id, channel, reason, created_at)
                       values (${id}, ${CHANNELS[index % CHANNELS.length]}, 'raced', ${made.toISOString()})`),
      ]),
    );
    expect(await disagreements(db)).toEqual([]);
  });
});

describe.each(testDatabases())('revenue figures from the counts equal the figures of each purchase alone, on $name', ({ url }) => {
  let database: Database;
  beforeAll(async () => {
    database = await openTestDatabase(url);
  });
  afterAll(async () => {
    await database?.close();
  });

  it('whether a trial ended or a period came due by now is told by the time of day each purchase was made', async () => {
    const db = database.db;
    const now = new Date('2026-11-20T12:00:00Z');
    const dayMs = (daysAgo: number, hour: number) => new Date(Date.parse('2026-11-20T00:00:00Z') - daysAgo * DAY_MS + hour * HOUR_MS);
    const rng = random(200);
    // Purchases made at 06:00 and at 18:00 of days whose trial ends today (3 days ago), whose
    // period 2 comes due today (10 days ago), whose next weekly period comes due today (7, 14 days ago), and others.
    for (const daysAgo of [3, 10, 17, 7, 14, 5, 40, 61, 92])
      for (const hour of [6, 18])
        for (const planId of PLANS.slice(0, 3)) {
          const created = dayMs(daysAgo, hour);
          const id = await insertPurchase(db, { planId, createdAt: created });
          const trial = planId !== 'roots_3m4800_3m4999';
          const paidPeriods = Math.min(Math.floor(daysAgo / 7) + 1, rng.int(4));
          const firstPaid = new Date(created.getTime() + (trial ? 3 * DAY_MS : 0));
          const ended = rng.next() < 0.3 ? new Date(created.getTime() + rng.int(daysAgo + 1) * DAY_MS) : null;
          await db.execute(sql`
            update subscriptions set current_period = ${paidPeriods}, paid_periods = ${(1 << (paidPeriods + 1)) - 1},
                   period0_paid_at = ${created.toISOString()},
                   period1_paid_at = ${paidPeriods >= 1 ? firstPaid.toISOString() : null},
                   status = ${ended ? 'canceled' : 'active'},
                   ended_at = ${ended && ended <= now ? ended.toISOString() : null},
                   canceled_at = ${ended && ended <= now ? ended.toISOString() : null}
            where id = ${id}`);
          if (ended && ended <= now && rng.next() < 0.5)
            await db.execute(sql`insert into cancellation_channels (subscription_id, channel, reason, created_at)
                                 values (${id}, 'payment_failed', 'card_declined', ${ended.toISOString()})`);
        }
    const range = { from: '2026-10-01', to: '2026-11-20' };
    const report = await revenueReport({ db, catalog, now }, range);

    // Each purchase alone, with the instant it was made.
    const purchases = rowsOf<{
      plan_id: string;
      current_period: number;
      created_at: string | Date;
      ended_at: string | Date | null;
      paid_periods: number;
      period0_paid_at: string | Date | null;
      period1_paid_at: string | Date | null;
      channel: string | null;
    }>(
      await db.execute(sql`select s.plan_id, s.current_period, s.created_at, s.ended_at, s.paid_periods, s.period0_paid_at, s.period1_paid_at, cc.channel
                           from subscriptions s left join cancellation_channels cc on cc.subscription_id = s.id where s.parent_id is null`),
    );
    const facts: PurchaseFacts[] = purchases.map((row) => {
      const paid: PurchaseFacts['paid'] = [];
      for (let period = 0; period <= 30; period += 1)
        if (Number(row.paid_periods) & (1 << period))
          paid.push({
            period,
            at: new Date(
              period === 0 && row.period0_paid_at
                ? row.period0_paid_at
                : period === 1 && row.period1_paid_at
                  ? row.period1_paid_at
                  : row.created_at,
            ),
          });
      return {
        terms: metricTermsOf(catalog, row.plan_id, null),
        currentPeriod: row.current_period,
        createdAt: new Date(row.created_at),
        endedAt: row.ended_at === null ? null : new Date(row.ended_at),
        channel: row.channel,
        paid,
        count: 1,
      };
    });
    const span = { from: new Date('2026-10-01T00:00:00Z'), to: new Date('2026-11-21T00:00:00Z') };
    const trials = trialCohort(facts, span, now);
    const churned = churn(facts, span);
    expect(trials.ended).toBeGreaterThan(0);
    expect({ ended: report.totals.trials_ended, converted: report.totals.trials_converted }).toEqual(trials);
    expect(report.totals.churned_subscribers).toEqual(churned.subscribers);
    expect(report.cohorts).toEqual(cohorts(facts, '2026-10', '2026-11', now));
    // The periods turning today at 18:00 are not due yet: a reading by day alone would count them.
    const byDay = facts.map((row) => ({ ...row, createdAt: new Date(Date.parse(row.createdAt.toISOString().slice(0, 10))) }));
    expect(trialCohort(byDay, span, now)).not.toEqual(trials);
    expect(cohorts(byDay, '2026-10', '2026-11', now)).not.toEqual(report.cohorts);
    expect(report.cohorts.every((cohort) => cohort.retained.length === COHORT_PERIODS)).toBe(true);
  });

  it('a purchase made before the read window, whose period turns today, is read for its end alone', async () => {
    const db = database.db;
    const now = new Date('2026-11-20T12:00:00Z');
    // Two 3-month purchases of 2026-05-20 at 18:00 (period 2 starts today at 18:00): one ended in
    // the range (churn), one still paying. Neither is in the cohort window of a November range.
    const range = { from: '2026-11-10', to: '2026-11-20' };
    const before = await revenueReport({ db, catalog, now }, range);
    const made = new Date('2026-05-20T18:00:00Z');
    const ended = await insertPurchase(db, { planId: 'roots_3m4800_3m4999', createdAt: made });
    await insertPurchase(db, { planId: 'roots_3m4800_3m4999', createdAt: made });
    await db.execute(sql`update subscriptions set current_period = 1, paid_periods = 3, period0_paid_at = ${made.toISOString()},
                           status = 'canceled', canceled_at = '2026-11-15T10:00:00Z', ended_at = '2026-11-15T10:00:00Z' where id = ${ended}`);
    const report = await revenueReport({ db, catalog, now }, range);
    expect(report.totals.churned_subscribers.voluntary).toBe(before.totals.churned_subscribers.voluntary + 1);
    expect(report.cohorts).toEqual(before.cohorts);
  });
});
