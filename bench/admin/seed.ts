// The data bench:admin reads (issue 25, 36): funnel events, purchases with their charges, refunds,
// cancellation channels, reports, feedback, checkout sessions, declined first payments and
// received webhooks, spread over `days` days, all generated inside PostgreSQL by set-based inserts.
// The triggers that keep the purchase counts are off while the rows go in; the counts are then
// counted once from the rows (ADR 200).
// The indexes of the seeded tables are dropped first and built again, from the definitions the
// migrations gave them, once the rows are in (one sorted build instead of millions of random
// inserts into each index); the run checks the rebuilt schema is the migrated one.
import { performance } from 'node:perf_hooks';
import { sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../apps/server/src/db/database';
import { rowsOf } from '../../apps/server/src/modules/emails/emails.repository';

/** The tables the seed fills. */
const SEEDED_TABLES = [
  'funnel_events',
  'subscriptions',
  'charges',
  'cancellation_channels',
  'reports',
  'checkout_sessions',
  'failed_first_payments',
  'gateway_webhook_events',
];

type IndexDefinition = { table: string; name: string; index: string; constraint: string | null };

/** Every index of the seeded tables as the migrations made it, with the constraint it backs (primary key, unique). */
async function indexesOf(db: Db): Promise<IndexDefinition[]> {
  return rowsOf<IndexDefinition>(
    await db.execute(sql`
      select t.relname as table, i.relname as name, pg_get_indexdef(x.indexrelid) as index, pg_get_constraintdef(c.oid) as constraint
      from pg_index x
      join pg_class i on i.oid = x.indexrelid
      join pg_class t on t.oid = x.indrelid
      left join pg_constraint c on c.conindid = x.indexrelid and c.conrelid = x.indrelid
      where t.relnamespace = 'public'::regnamespace and t.relname in ${SEEDED_TABLES}
      order by 1, 2`),
  );
}

export type SeedSize = { events: number; subscriptions: number; days: number };

/** Seeds the migrated database `db`; returns how long each step took (ms), in order. */
export async function seedConsoleData(db: Db, size: SeedSize): Promise<Array<{ step: string; ms: number }>> {
  const { events, subscriptions, days } = size;
  const steps: Array<[string, SQL]> = [
    // Everything is generated inside PostgreSQL: the bench measures the reads, not the seeding.
    [
      'funnel events',
      sql`
      insert into funnel_events (id, name, attribution, country, created_at)
      select gen_random_uuid(),
             (array['intro','onboarding','selfie','selfie processing','e-mail screen','subscription offer','offers','account','payment modal'])[1 + (i % 9)],
             jsonb_build_object('campaign_name', 'campaign-' || (i % 25), 'media_source', (array['fb','google','tiktok'])[1 + (i % 3)],
                                'event_source_url', case when i % 5 = 0 then 'https://x/roots/quiz' else 'https://x/roots/' end,
                                -- about five events a visit, each visit in one variant
                                'visit_id', 'visit-' || (i / 5), 'visit_variant', case when (i / 5) % 5 = 0 then 'quiz' else 'walkthrough' end),
             (array['US','BR','CA','GB','MX','IN'])[1 + (i % 6)],
             now() - make_interval(secs => random() * ${days}::float8 * 86400)
      from generate_series(1, ${events}) as i`,
    ],
    [
      'subscriptions',
      sql`
      insert into subscriptions (id, email, plan_id, status, initial_execution_id, holder_reference, card_last4, current_period,
                                 current_period_start, current_period_end, canceled_at, ended_at, terms_text, terms_version, consent_at,
                                 consent_ip, consent_user_agent, created_at, updated_at)
      select gen_random_uuid(), 'buyer' || i || '@example.com',
             (array['roots_3d1_7d2499','roots_3m4800_3m4999','roots_7d1499_7d2499'])[1 + (i % 3)],
             (array['trialing','active','active','past_due','canceled','expired'])[1 + (i % 6)],
             -- up to three renewals, each a week after the last, none in the future
             'exe_bench_' || i, 'holder_' || i, '4242', least(i % 4, floor(extract(epoch from now() - c) / 604800))::int, c, c + interval '7 days',
             case when i % 6 = 4 then c + interval '1 day' end,
             -- the canceled and expired ones ended when their period did, if that has come
             case when i % 6 >= 4 and c + interval '7 days' < now() then c + interval '7 days' end,
             'terms', 'v1', c, '203.0.113.1', 'bench', c, c
      from (select i, now() - make_interval(secs => random() * ${days}::float8 * 86400) as c from generate_series(1, ${subscriptions}) as i) s`,
    ],
    [
      'purchase events',
      sql`
      insert into funnel_events (id, name, dedupe_key, subscription_id, value, attribution, created_at)
      select gen_random_uuid(), 'Purchase', 'Purchase:' || id, id, 0.75, '{}'::jsonb, created_at from subscriptions`,
    ],
    [
      'charges',
      sql`
      insert into charges (id, kind, subscription_id, plan_id, period, attempt, idempotency_key, amount_minor, currency, status,
                           execution_id, created_at, updated_at)
      select gen_random_uuid(), case when p = 0 then 'first' else 'renewal' end, s.id, s.plan_id, p, 0,
             'sub:' || s.id || ':period:' || p, case when p = 0 then 100 else 2499 end, 'USD',
             case when p > 0 and (hashtext(s.id::text) % 10) = 0 then 'failed' else 'succeeded' end, 'exe_' || s.id || '_' || p,
             s.created_at + (p * 7 || ' days')::interval, s.created_at
      from subscriptions s, generate_series(0, s.current_period) as p`,
    ],
    // The paid periods the lifecycle keeps on each purchase as its charges succeed (ADR 157).
    [
      'paid periods',
      sql`
      update subscriptions s set paid_periods = paid.periods, period0_paid_at = paid.at0, period1_paid_at = paid.at1
      from (select subscription_id, bit_or(1 << least(period, 30)) as periods,
                   min(created_at) filter (where period = 0) as at0, min(created_at) filter (where period = 1) as at1
            from charges where kind <> 'refund' and status = 'succeeded' group by 1) paid
      where paid.subscription_id = s.id`,
    ],
    // Refunds are rows of the same ledger (kind 'refund'), one per refunded charge.
    [
      'refunds',
      sql`
      insert into charges (id, kind, subscription_id, plan_id, period, attempt, refund_of_charge_id, idempotency_key, amount_minor,
                           currency, status, execution_id, gateway_refund_id, created_at, updated_at)
      select gen_random_uuid(), 'refund', c.subscription_id, c.plan_id, c.period, 0, c.id, 'refund:' || c.id, c.amount_minor,
             c.currency, 'succeeded', c.execution_id, 'rf_' || c.id, c.created_at + interval '1 day', c.created_at + interval '1 day'
      from charges c where c.kind <> 'refund' and c.status = 'succeeded' and (hashtext(c.id::text) % 30) = 0`,
    ],
    [
      'refunded amounts',
      sql`
      update charges c set refunded_minor = r.amount_minor from charges r where r.refund_of_charge_id = c.id`,
    ],
    [
      'cancellation channels',
      sql`
      insert into cancellation_channels (subscription_id, channel, reason, created_at)
      select id, (array['email_code','one_click_link','account','by_id'])[1 + (hashtext(id::text) & 3)], 'not asked', canceled_at
      from subscriptions where canceled_at is not null`,
    ],
    [
      'reports',
      sql`
      insert into reports (id, subscription_id, email, kind, status, result, error_code, deadline_at, created_at, updated_at)
      select gen_random_uuid(), id, email, 'extended', case when (hashtext(id::text) % 8) = 0 then 'failed' else 'completed' end,
             case when (hashtext(id::text) % 8) = 0 then null else '{"modelVersion":"roots-heritage-bench"}'::jsonb end,
             case when (hashtext(id::text) % 8) = 0 then 'NO_FACE' end, created_at, created_at, created_at
      from subscriptions`,
    ],
    [
      'report feedback',
      sql`
      insert into funnel_events (id, name, dedupe_key, subscription_id, payload, attribution, created_at)
      select gen_random_uuid(), 'report-feedback', 'report-feedback:' || id, subscription_id,
             json_build_object('report_id', id, 'looks_correct', (hashtext(id::text) % 4) <> 0, 'text', 'feedback ' || id)::text, '{}'::jsonb, created_at
      from reports where status = 'completed' and (hashtext(id::text) % 3) = 0`,
    ],
    // What the operator's queues read (issue 25): a checkout session per purchase, a declined first
    // payment for one shopper in ten, a received webhook per charge.
    [
      'checkout sessions',
      sql`
      insert into checkout_sessions (execution_id, plan_id, masked_email, created_at)
      select initial_execution_id, plan_id, 'b***' || substr(md5(email), 1, 4) || '@example.com', created_at from subscriptions`,
    ],
    [
      'declined first payments',
      sql`
      insert into failed_first_payments (execution_id, plan_id, masked_email, amount_minor, currency, decline_code, decline_reason,
                                         card_network, card_last4, failed_at, source, recorded_at)
      select 'exe_declined_' || i, 'roots_3d1_7d2499', 'd***' || i || '@example.com', 100, 'USD', 'card_declined', 'Your card was declined.',
             'visa', '0002', now() - make_interval(secs => random() * ${days}::float8 * 86400), 'webhook', now()
      from generate_series(1, ${Math.round(subscriptions / 10)}) as i`,
    ],
    [
      'webhooks',
      sql`
      insert into gateway_webhook_events (event_id, type, execution_id, outcome, deliveries, first_received_at, last_received_at)
      select 'evt_' || id, 'execution.authorized', execution_id, 'applied', 1, created_at, created_at from charges where kind <> 'refund'`,
    ],
  ];
  const timings: Array<{ step: string; ms: number }> = [];
  const timed = async (step: string, run: () => Promise<unknown>) => {
    const started = performance.now();
    await run();
    timings.push({ step, ms: Math.round(performance.now() - started) });
  };
  const migrated = await indexesOf(db);
  // The purchase counts' triggers (ADR 200) stay off during the bulk insert; the counts are counted
  // once afterwards, by the function the migration filled them with.
  await db.execute(sql`alter table subscriptions disable trigger user`);
  await db.execute(sql`alter table cancellation_channels disable trigger user`);
  await timed('drop indexes', async () => {
    for (const index of migrated)
      await db.execute(
        index.constraint
          ? sql`alter table ${sql.identifier(index.table)} drop constraint ${sql.identifier(index.name)}`
          : sql`drop index ${sql.identifier(index.name)}`,
      );
  });
  // The quality view's counts (ADR 199) are kept by triggers on reports and funnel_events: off for
  // the bulk insert, then built once from the rows as the migration's backfill builds them.
  const QUALITY_COUNTED_TABLES = ['reports', 'funnel_events'];
  for (const table of QUALITY_COUNTED_TABLES) await db.execute(sql`alter table ${sql.identifier(table)} disable trigger user`);
  for (const [step, statement] of steps) await timed(step, () => db.execute(statement));
  for (const table of QUALITY_COUNTED_TABLES) await db.execute(sql`alter table ${sql.identifier(table)} enable trigger user`);
  await timed('report quality counts', () => db.execute(sql`select rebuild_report_quality_counts()`));
  await timed('build indexes', () =>
    db.transaction(async (tx) => {
      // Memory for the index builds' sorts, in this transaction only (the dashboards never see it).
      await tx.execute(sql`set local maintenance_work_mem = '256MB'`);
      for (const index of migrated)
        await tx.execute(
          index.constraint
            ? sql.raw(`alter table "${index.table}" add constraint "${index.name}" ${index.constraint}`)
            : sql.raw(index.index),
        );
    }),
  );
  await timed('purchase counts', async () => {
    await db.execute(sql`alter table subscriptions enable trigger user`);
    await db.execute(sql`alter table cancellation_channels enable trigger user`);
    await db.execute(sql`select rebuild_subscription_counts()`);
  });
  const rebuilt = await indexesOf(db);
  if (JSON.stringify(rebuilt) !== JSON.stringify(migrated))
    throw new Error(`the seeded tables' indexes differ from the migrated ones:\n${JSON.stringify({ migrated, rebuilt }, null, 1)}`);
  await timed('analyze', () => db.execute(sql`analyze`));
  return timings;
}
