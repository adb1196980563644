import { randomUUID } from 'node:crypto';
import { and, desc, eq, gt, isNull, sql } from 'drizzle-orm';
import type { Executor } from '../../db/executor';
import { cancelCodes } from '../../db/schema';

export type CancelCodeRow = typeof cancelCodes.$inferSelect;

export class CancellationRepository {
  async insertCode(db: Executor, input: { email: string; codeHash: string; expiresAt: Date; now: Date }): Promise<string> {
    const id = randomUUID();
    await db
      .insert(cancelCodes)
      .values({ id, email: input.email, codeHash: input.codeHash, expiresAt: input.expiresAt, createdAt: input.now });
    return id;
  }

  /** The newest unused, unexpired code of an email. */
  latestUsable(db: Executor, email: string, now: Date): Promise<CancelCodeRow | undefined> {
    return db.query.cancelCodes.findFirst({
      where: and(eq(cancelCodes.email, email), isNull(cancelCodes.usedAt), gt(cancelCodes.expiresAt, now)),
      orderBy: desc(cancelCodes.createdAt),
    });
  }

  async countAttempt(db: Executor, id: string): Promise<void> {
    await db
      .update(cancelCodes)
      .set({ attempts: sql`${cancelCodes.attempts} + 1` })
      .where(eq(cancelCodes.id, id));
  }

  /** Marks the code used; false when another request used it first. */
  async use(db: Executor, id: string, now: Date): Promise<boolean> {
    const rows = await db
      .update(cancelCodes)
      .set({ usedAt: now })
      .where(and(eq(cancelCodes.id, id), isNull(cancelCodes.usedAt)))
      .returning({ id: cancelCodes.id });
    return rows.length > 0;
  }
}
