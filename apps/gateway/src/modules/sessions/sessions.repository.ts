import { eq } from 'drizzle-orm';
import type { Db } from '../../db/database';
import { sessions } from '../../db/schema';

export type SessionRow = typeof sessions.$inferSelect;

export class SessionsRepository {
  constructor(private readonly db: Db) {}

  async insert(row: typeof sessions.$inferInsert): Promise<void> {
    await this.db.insert(sessions).values(row);
  }

  async extend(id: string, expiresAt: Date): Promise<void> {
    await this.db.update(sessions).set({ expiresAt }).where(eq(sessions.id, id));
  }

  async find(id: string): Promise<SessionRow | undefined> {
    const [row] = await this.db.select().from(sessions).where(eq(sessions.id, id));
    return row;
  }
}
