import { randomUUID } from 'node:crypto';
import { desc, sql } from 'drizzle-orm';
import type { Executor } from '../../db/executor';
import { emails } from '../../db/schema';
import type { RenderedEmail } from './email-templates';

export type EmailRow = typeof emails.$inferSelect;

/** Outbox SQL: an email is a row first (one per dedupe key), delivered afterwards by whoever claims it. */
export class EmailsRepository {
  /** Inserts the email unless one with the same key exists; true when inserted. */
  async enqueue(db: Executor, input: { dedupeKey: string; to: string; email: RenderedEmail; now: Date }): Promise<boolean> {
    const inserted = await db
      .insert(emails)
      .values({
        id: randomUUID(),
        dedupeKey: input.dedupeKey,
        kind: input.email.kind,
        to: input.to,
        subject: input.email.subject,
        text: input.email.text,
        html: input.email.html,
        status: 'pending',
        createdAt: input.now,
      })
      .onConflictDoNothing({ target: emails.dedupeKey })
      .returning({ id: emails.id });
    return inserted.length > 0;
  }

  /** Claims up to `limit` pending emails for `leaseMs` (other instances skip them). */
  async claimPending(db: Executor, now: Date, leaseMs: number, limit: number, maxAttempts: number): Promise<EmailRow[]> {
    const until = new Date(now.getTime() + leaseMs);
    const result = await db.execute(sql`
      update emails set claimed_until = ${until.toISOString()}, attempts = attempts + 1
      where id in (
        select id from emails
        where status = 'pending' and attempts < ${maxAttempts} and (claimed_until is null or claimed_until < ${now.toISOString()})
        order by created_at limit ${limit} for update skip locked
      )
      returning id`);
    const ids = rowsOf<{ id: string }>(result).map((row) => row.id);
    if (ids.length === 0) return [];
    return db.query.emails.findMany({ where: (table, { inArray }) => inArray(table.id, ids) });
  }

  async markDelivered(db: Executor, id: string, status: 'sent' | 'stored' | 'failed' | 'pending', now: Date): Promise<void> {
    await db.execute(
      sql`update emails set status = ${status}, sent_at = ${status === 'pending' ? null : now.toISOString()}, claimed_until = null where id = ${id}`,
    );
  }

  list(db: Executor, limit: number): Promise<EmailRow[]> {
    return db.select().from(emails).orderBy(desc(emails.createdAt)).limit(limit);
  }
}

/** Rows of a raw `execute` answer, whichever driver ran it (pg: `{ rows }`, PGlite: `{ rows }`). */
export function rowsOf<T>(result: unknown): T[] {
  if (Array.isArray(result)) return result as T[];
  return ((result as { rows?: T[] }).rows ?? []) as T[];
}
