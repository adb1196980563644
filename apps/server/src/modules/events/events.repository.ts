import { randomUUID } from 'node:crypto';
import type { Executor } from '../../db/executor';
import { funnelEvents } from '../../db/schema';

export class EventsRepository {
  async insert(db: Executor, event: Omit<typeof funnelEvents.$inferInsert, 'id'>): Promise<string> {
    const id = randomUUID();
    await db.insert(funnelEvents).values({ id, ...event });
    return id;
  }

  list(db: Executor, subscriptionId: string) {
    return db.query.funnelEvents.findMany({ where: (table, { eq }) => eq(table.subscriptionId, subscriptionId) });
  }
}
