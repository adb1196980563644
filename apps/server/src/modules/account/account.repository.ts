import { and, eq, isNull, or } from 'drizzle-orm';
import type { Executor } from '../../db/executor';
import { authAccounts, authUsers, profiles, subscriptions } from '../../db/schema';
import { normalizeEmail } from '../../lib/mask';
import type { SubscriptionRow } from '../subscriptions/subscriptions.repository';
import type { SessionUser } from '../auth/session';

export type ProfileRow = typeof profiles.$inferSelect;

/** SQL of the signed-in area. Ownership is decided by `isOwner`; this only narrows the rows read. */
export class AccountRepository {
  /** Subscriptions linked to the user, and unlinked ones bought with the user's verified email. */
  subscriptionsOf(db: Executor, user: SessionUser): Promise<SubscriptionRow[]> {
    const byEmail = user.emailVerified ? and(isNull(subscriptions.userId), eq(subscriptions.email, normalizeEmail(user.email))) : undefined;
    return db
      .select()
      .from(subscriptions)
      .where(byEmail ? or(eq(subscriptions.userId, user.id), byEmail) : eq(subscriptions.userId, user.id))
      .orderBy(subscriptions.createdAt);
  }

  /** Who each purchase made with `email` is linked to (null: not linked yet). */
  async purchaseLinksOf(db: Executor, email: string): Promise<Array<string | null>> {
    const rows = await db
      .select({ userId: subscriptions.userId })
      .from(subscriptions)
      .where(eq(subscriptions.email, normalizeEmail(email)));
    return rows.map((row) => row.userId);
  }

  async userIdByEmail(db: Executor, email: string): Promise<string | undefined> {
    const [row] = await db
      .select({ id: authUsers.id })
      .from(authUsers)
      .where(eq(authUsers.email, normalizeEmail(email)));
    return row?.id;
  }

  async hasLinkedPurchase(db: Executor, userId: string): Promise<boolean> {
    const [row] = await db.select({ id: subscriptions.id }).from(subscriptions).where(eq(subscriptions.userId, userId)).limit(1);
    return row !== undefined;
  }

  /** The sign-in providers of a user ('google', 'apple', better-auth's own for email codes…). */
  async providersOf(db: Executor, userId: string): Promise<string[]> {
    const rows = await db.select({ providerId: authAccounts.providerId }).from(authAccounts).where(eq(authAccounts.userId, userId));
    return rows.map((row) => row.providerId);
  }

  async profile(db: Executor, userId: string): Promise<ProfileRow | undefined> {
    const [row] = await db.select().from(profiles).where(eq(profiles.userId, userId));
    return row;
  }

  async upsertProfile(db: Executor, row: typeof profiles.$inferInsert): Promise<void> {
    await db
      .insert(profiles)
      .values(row)
      .onConflictDoUpdate({
        target: profiles.userId,
        set: { name: row.name, birthDate: row.birthDate, birthTime: row.birthTime, updatedAt: row.updatedAt },
      });
  }

  async setName(db: Executor, userId: string, name: string, now: Date): Promise<void> {
    await db.update(authUsers).set({ name, updatedAt: now }).where(eq(authUsers.id, userId));
  }

  /** Unlinks the user's subscriptions (financial records stay, ADR 071) and deletes the user; sessions, accounts and profile cascade. */
  async deleteUser(db: Executor, userId: string, now: Date): Promise<void> {
    await db.update(subscriptions).set({ userId: null, updatedAt: now }).where(eq(subscriptions.userId, userId));
    await db.delete(authUsers).where(eq(authUsers.id, userId));
  }
}
