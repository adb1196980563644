import { Gauge, type Registry } from '@roots/observability';
import { sql } from 'drizzle-orm';
import type { Db } from '../../db/database';

type Rows<T> = { rows?: T[] } | T[];
const rowsOf = <T>(result: Rows<T>): T[] => (Array.isArray(result) ? result : (result.rows ?? []));

/**
 * The webhook outbox at scrape time (issue 36): deliveries by status, those the receiver refused at
 * least once and still retried, and the age of the oldest still pending. Read from the database,
 * so every gateway instance reports the same (take `max`, never `sum`).
 */
export function registerWebhookMetrics(registry: Registry, db: Db): void {
  new Gauge({
    name: 'gateway_webhook_deliveries',
    help: 'Webhook deliveries by status: pending (not delivered yet), delivered, failed (given up after the last attempt)',
    labelNames: ['status'] as const,
    registers: [registry],
    async collect() {
      this.reset();
      // Every status always has a series (0 when none), so a rule's delta starts from a sample.
      for (const status of ['pending', 'delivered', 'failed']) this.set({ status }, 0);
      const result = await db.execute(sql`select status, count(*) as count from webhook_deliveries group by status`);
      for (const row of rowsOf(result as Rows<{ status: string; count: number | string }>))
        this.set({ status: row.status }, Number(row.count));
      const [pending] = rowsOf(
        (await db.execute(sql`
          select count(*) filter (where attempts > 0) as retrying, min(created_at) as oldest
          from webhook_deliveries where status = 'pending'`)) as Rows<{ retrying: number | string; oldest: string | Date | null }>,
      );
      retrying.set(Number(pending?.retrying ?? 0));
      pendingAge.set(pending?.oldest ? Math.max(0, (Date.now() - new Date(pending.oldest).getTime()) / 1000) : 0);
    },
  });
  const retrying = new Gauge({
    name: 'gateway_webhook_retrying',
    help: 'Webhook deliveries the receiver refused or did not answer at least once, still being retried',
    registers: [registry],
  });
  const pendingAge = new Gauge({
    name: 'gateway_webhook_pending_age_seconds',
    help: 'Age of the oldest webhook delivery not delivered yet (0: none pending)',
    registers: [registry],
  });
}
