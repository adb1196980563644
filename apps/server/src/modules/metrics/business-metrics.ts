import { ACCESS_STATUSES } from '@roots/contracts/subscriptions';
import { Gauge, type Registry } from '@roots/observability';
import { sql } from 'drizzle-orm';
import type { Db } from '../../db/database';
import type { UnmatchedPaymentStatus } from '../../db/schema';
import type { Clock } from '../../lib/clock';
import { rowsOf } from '../emails/emails.repository';

/** Unmatched payments still holding a customer's money: neither tied to a purchase nor given back. */
const UNSETTLED_UNMATCHED_STATUSES: readonly UnmatchedPaymentStatus[] = ['waiting', 'refunding', 'refund_failed'];

/**
 * Gauges read from the database at scrape time, so every instance reports the same shared truth
 * (sum nothing across instances: take any one, or `max`): reports by status, recorded charges by
 * kind and status, the age of the oldest unsettled unmatched payment, the billing backlog (subscriptions due and not yet processed) with the age of the oldest,
 * and the email outbox backlog with the age of its oldest pending message.
 */
export function registerBusinessMetrics(registry: Registry, db: Db, clock: Clock): void {
  /** A gauge of a table's rows by status, counted at scrape time. */
  const countByStatus = (name: string, help: string, query: ReturnType<typeof sql>) =>
    new Gauge({
      name,
      help,
      labelNames: ['status'] as const,
      registers: [registry],
      async collect() {
        this.reset();
        for (const row of rowsOf<{ status: string; count: number | string }>(await db.execute(query))) {
          this.set({ status: row.status }, Number(row.count));
        }
      },
    });
  countByStatus(
    'roots_reports',
    'Reports by status (pending, processing, completed, failed, expired)',
    sql`select status, count(*) as count from reports group by status`,
  );
  new Gauge({
    name: 'roots_charges',
    help: 'Charge attempts recorded by the product, by kind (first, renewal, add-on, refund) and outcome (pending, succeeded, failed)',
    labelNames: ['kind', 'status'] as const,
    registers: [registry],
    async collect() {
      this.reset();
      const query = sql`select kind, status, count(*) as count from charges group by kind, status`;
      for (const row of rowsOf<{ kind: string; status: string; count: number | string }>(await db.execute(query))) {
        this.set({ kind: row.kind, status: row.status }, Number(row.count));
      }
    },
  });
  countByStatus(
    'roots_unmatched_payments',
    'Payments the gateway took that no subscription accounted for when the sweep saw them, by what became of them (ADR 127)',
    sql`select status, count(*) as count from unmatched_payments group by status`,
  );
  new Gauge({
    name: 'roots_unmatched_payment_age_seconds',
    help: 'Age of the oldest payment the gateway took that is neither tied to a purchase nor refunded yet (waiting, refunding, refund_failed; 0: none)',
    registers: [registry],
    async collect() {
      const [row] = rowsOf<{ oldest: string | Date | null }>(
        await db.execute(sql`select min(paid_at) as oldest from unmatched_payments where status in ${[...UNSETTLED_UNMATCHED_STATUSES]}`),
      );
      this.set(row?.oldest ? Math.max(0, (clock.now().getTime() - new Date(row.oldest).getTime()) / 1000) : 0);
    },
  });
  // Each lag gauge is registered after its backlog gauge, whose collect() sets it during the same scrape.
  new Gauge({
    name: 'roots_billing_backlog',
    help: 'Subscriptions due for billing (renewal, conversion, retry or expiry) and not processed yet',
    registers: [registry],
    async collect() {
      const now = clock.now();
      const [row] = rowsOf<{ count: number | string; oldest: string | Date | null }>(
        await db.execute(sql`
          select count(*) as count, min(due_at) as oldest from subscriptions
          where due_at is not null and due_at <= ${now.toISOString()} and status in ${[...ACCESS_STATUSES]}`),
      );
      this.set(Number(row?.count ?? 0));
      billingLag.set(row?.oldest ? Math.max(0, (now.getTime() - new Date(row.oldest).getTime()) / 1000) : 0);
    },
  });
  const billingLag = new Gauge({
    name: 'roots_billing_lag_seconds',
    help: 'Age of the oldest subscription due for billing and not processed yet (0: none due)',
    registers: [registry],
  });
  new Gauge({
    name: 'roots_email_outbox_backlog',
    help: 'Emails waiting in the outbox',
    registers: [registry],
    async collect() {
      const [row] = rowsOf<{ count: number | string; oldest: string | Date | null }>(
        await db.execute(sql`select count(*) as count, min(created_at) as oldest from emails where status = 'pending'`),
      );
      this.set(Number(row?.count ?? 0));
      outboxLag.set(row?.oldest ? Math.max(0, (clock.now().getTime() - new Date(row.oldest).getTime()) / 1000) : 0);
    },
  });
  const outboxLag = new Gauge({
    name: 'roots_email_outbox_lag_seconds',
    help: 'Age of the oldest email waiting in the outbox (0: none)',
    registers: [registry],
  });
}
