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
  // Declined first payments at our checkout (a broken checkout shows as their share rising, issue 36).
  new Gauge({
    name: 'roots_declined_first_payments',
    help: 'Declined first payments shoppers made at our checkout, recorded once per execution (ever)',
    registers: [registry],
    async collect() {
      const [row] = rowsOf<{ count: number | string }>(await db.execute(sql`select count(*) as count from failed_first_payments`));
      this.set(Number(row?.count ?? 0));
    },
  });
  // Card disputes (ADR 182): how many stand where, the nearest evidence deadline, and this month's rate.
  countByStatus(
    'roots_disputes',
    'Card disputes by status (needs_response, under_review, won, lost, accepted)',
    sql`select status, count(*) as count from disputes group by status`,
  );
  new Gauge({
    name: 'roots_dispute_answer_due_seconds',
    help: 'Time left before the nearest evidence deadline of a dispute still waiting for our answer (no series: none waits)',
    registers: [registry],
    async collect() {
      this.reset();
      const [row] = rowsOf<{ due: string | Date | null }>(
        await db.execute(sql`select min(evidence_due_by) as due from disputes where status = 'needs_response'`),
      );
      if (row?.due) this.set((new Date(row.due).getTime() - clock.now().getTime()) / 1000);
    },
  });
  new Gauge({
    name: 'roots_dispute_rate_month',
    help: "This UTC calendar month's disputes / its succeeded card payments (Visa's formula; 0 without payments)",
    registers: [registry],
    async collect() {
      const now = clock.now();
      const start = `${now.toISOString().slice(0, 7)}-01T00:00:00.000Z`;
      const [row] = rowsOf<{ disputes: number | string; payments: number | string }>(
        await db.execute(sql`
          select (select count(*) from disputes where opened_at >= ${start}) as disputes,
                 (select count(*) from charges where status = 'succeeded' and kind <> 'refund' and created_at >= ${start}) as payments`),
      );
      const payments = Number(row?.payments ?? 0);
      cardPayments.set(payments);
      this.set(payments > 0 ? Number(row?.disputes ?? 0) / payments : 0);
    },
  });
  const cardPayments = new Gauge({
    name: 'roots_card_payments_month',
    help: "This UTC calendar month's succeeded card payments (first payments, renewals, add-ons): the dispute rate's base",
    registers: [registry],
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
