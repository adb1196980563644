import { and, eq, lt, isNull } from 'drizzle-orm';
import type { Db } from '../../db/database';
import { idempotencyRecords } from '../../db/schema';

export type IdempotencyRecord = typeof idempotencyRecords.$inferSelect;

export class IdempotencyRepository {
  constructor(private readonly db: Db) {}

  /** Inserts an in-progress record; false when (scope, key) already exists. */
  async claim(scope: string, key: string, requestHash: string): Promise<boolean> {
    const rows = await this.db
      .insert(idempotencyRecords)
      .values({ scope, key, requestHash })
      .onConflictDoNothing()
      .returning({ key: idempotencyRecords.key });
    return rows.length === 1;
  }

  async find(scope: string, key: string): Promise<IdempotencyRecord | undefined> {
    const [row] = await this.db
      .select()
      .from(idempotencyRecords)
      .where(and(eq(idempotencyRecords.scope, scope), eq(idempotencyRecords.key, key)));
    return row;
  }

  /** Takes over an in-progress record older than `staleBefore` (its request died); true when taken. */
  async takeOverStale(scope: string, key: string, requestHash: string, staleBefore: Date): Promise<boolean> {
    const rows = await this.db
      .update(idempotencyRecords)
      .set({ createdAt: new Date(), requestHash })
      .where(
        and(
          eq(idempotencyRecords.scope, scope),
          eq(idempotencyRecords.key, key),
          isNull(idempotencyRecords.statusCode),
          lt(idempotencyRecords.createdAt, staleBefore),
        ),
      )
      .returning({ key: idempotencyRecords.key });
    return rows.length === 1;
  }

  async complete(scope: string, key: string, statusCode: number, responseBody: string): Promise<void> {
    await this.db
      .update(idempotencyRecords)
      .set({ statusCode, responseBody })
      .where(and(eq(idempotencyRecords.scope, scope), eq(idempotencyRecords.key, key)));
  }

  async remove(scope: string, key: string): Promise<void> {
    await this.db.delete(idempotencyRecords).where(and(eq(idempotencyRecords.scope, scope), eq(idempotencyRecords.key, key)));
  }
}
