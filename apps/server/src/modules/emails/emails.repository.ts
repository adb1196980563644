import { randomUUID } from 'node:crypto';
import { desc, eq, sql } from 'drizzle-orm';
import type { Executor } from '../../db/executor';
import { devMailbox, emails } from '../../db/schema';

/** An email as the outbox stores it: redacted copies, and the sendable email sealed (or null). */
export type StoredEmail = { kind: string; subject: string; text: string; html: string; sealed: string | null };

export type EmailRow = typeof emails.$inferSelect;

/** Outbox SQL: an email is a row first (one per dedupe key), delivered afterwards by whoever claims it. */
export class EmailsRepository {
  /** Inserts the email unless one with the same key exists; true when inserted. */
  async enqueue(db: Executor, input: { dedupeKey: string; to: string; email: StoredEmail; now: Date }): Promise<boolean> {
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
        sealed: input.email.sealed,
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

  /** Records a delivery attempt's outcome; a final one (sent, stored, failed) drops the sealed copy. */
  async markDelivered(db: Executor, id: string, status: 'sent' | 'stored' | 'failed' | 'pending', now: Date): Promise<void> {
    const final = status !== 'pending';
    await db
      .update(emails)
      .set({ status, sentAt: final ? now : null, claimedUntil: null, ...(final ? { sealed: null } : {}) })
      .where(eq(emails.id, id));
  }

  list(db: Executor, limit: number): Promise<EmailRow[]> {
    return db.select().from(emails).orderBy(desc(emails.createdAt)).limit(limit);
  }

  /** The dev mailer's delivery: the email in full, in the development inbox (never in production). */
  async deliverToDevMailbox(
    db: Executor,
    mail: { id: string; to: string; subject: string; text: string; html: string },
    now: Date,
  ): Promise<void> {
    await db
      .insert(devMailbox)
      .values({ ...mail, deliveredAt: now })
      .onConflictDoUpdate({ target: devMailbox.id, set: { subject: mail.subject, text: mail.text, html: mail.html, deliveredAt: now } });
  }

  /** The newest outbox emails as the development inbox shows them: delivered ones in full. */
  async devInbox(db: Executor, limit: number): Promise<Array<EmailRow & { delivered: { subject: string; text: string } | null }>> {
    const rows = await db
      .select({ email: emails, subject: devMailbox.subject, text: devMailbox.text })
      .from(emails)
      .leftJoin(devMailbox, eq(devMailbox.id, emails.id))
      .orderBy(desc(emails.createdAt))
      .limit(limit);
    return rows.map((row) => ({
      ...row.email,
      delivered: row.subject !== null && row.text !== null ? { subject: row.subject, text: row.text } : null,
    }));
  }
}

/** Rows of a raw `execute` answer, whichever driver ran it (pg: `{ rows }`, PGlite: `{ rows }`). */
export function rowsOf<T>(result: unknown): T[] {
  if (Array.isArray(result)) return result as T[];
  return ((result as { rows?: T[] }).rows ?? []) as T[];
}
