import { and, asc, eq, gt, isNull, ne } from 'drizzle-orm';
import type { Db } from '../../db/database';
import { instruments, vaultTokens, type ProcessorToken } from '../../db/schema';

export type VaultTokenRow = typeof vaultTokens.$inferSelect;
export type InstrumentRow = typeof instruments.$inferSelect;

export class VaultRepository {
  constructor(private readonly db: Db) {}

  async insertToken(row: typeof vaultTokens.$inferInsert): Promise<void> {
    await this.db.insert(vaultTokens).values(row);
  }

  /** Marks an unused, unexpired token of the session used and returns it; undefined otherwise. */
  async consumeToken(id: string, sessionId: string, now: Date): Promise<VaultTokenRow | undefined> {
    const [row] = await this.db
      .update(vaultTokens)
      .set({ usedAt: now })
      .where(and(eq(vaultTokens.id, id), eq(vaultTokens.sessionId, sessionId), isNull(vaultTokens.usedAt), gt(vaultTokens.expiresAt, now)))
      .returning();
    return row;
  }

  async insertInstrument(row: typeof instruments.$inferInsert): Promise<InstrumentRow> {
    const [inserted] = await this.db.insert(instruments).values(row).returning();
    if (!inserted) throw new Error('instrument insert returned nothing');
    return inserted;
  }

  async findInstrument(id: string): Promise<InstrumentRow | undefined> {
    const [row] = await this.db.select().from(instruments).where(eq(instruments.id, id));
    return row;
  }

  async setProcessorToken(id: string, processorToken: ProcessorToken): Promise<void> {
    await this.db.update(instruments).set({ processorToken, updatedAt: new Date() }).where(eq(instruments.id, id));
  }

  async setInstrumentStatus(id: string, status: string): Promise<void> {
    await this.db.update(instruments).set({ status, updatedAt: new Date() }).where(eq(instruments.id, id));
  }

  /** A holder's instruments except deleted and transient ones, oldest first. */
  async listForHolder(holderReference: string): Promise<InstrumentRow[]> {
    return this.db
      .select()
      .from(instruments)
      .where(and(eq(instruments.holderReference, holderReference), ne(instruments.status, 'deleted'), ne(instruments.status, 'transient')))
      .orderBy(asc(instruments.createdAt));
  }
}
