import type { AdminAction, OperatorRole } from '@roots/contracts/admin';
import { and, asc, desc, eq, gte, inArray, lt, or, sql, type SQL } from 'drizzle-orm';
import type { Executor } from '../../db/executor';
import { adminAudit, authSessions, authUsers, operators, operatorSessionFactors } from '../../db/schema';

export type OperatorRow = typeof operators.$inferSelect;

/** A page of the audit trail: newest first, after the (created_at, id) of `before` when given. */
export type AuditPageQuery = {
  limit: number;
  before?: { at: Date; id: string };
  operatorEmail?: string;
  action?: AdminAction;
  from?: Date;
  to?: Date;
};

/** SQL of operator accounts (ADR 150–151): operators and their roles, second factor, sessions, the audit pages. */
export class OperatorsRepository {
  async find(db: Executor, email: string): Promise<OperatorRow | undefined> {
    const [row] = await db.select().from(operators).where(eq(operators.email, email)).limit(1);
    return row;
  }

  list(db: Executor): Promise<OperatorRow[]> {
    return db.select().from(operators).orderBy(asc(operators.email));
  }

  async count(db: Executor): Promise<number> {
    const [row] = await db.select({ count: sql<number>`count(*)::int` }).from(operators);
    return row?.count ?? 0;
  }

  /** Adds an operator; false when the email already is one (its role is left as it is). */
  async add(db: Executor, input: { email: string; role: OperatorRole; addedBy: string; now: Date }): Promise<boolean> {
    const inserted = await db
      .insert(operators)
      .values({ email: input.email, role: input.role, addedBy: input.addedBy, createdAt: input.now })
      .onConflictDoNothing()
      .returning({ email: operators.email });
    return inserted.length > 0;
  }

  /** Removes an operator (with their second factor); false when the email was none. */
  async remove(db: Executor, email: string): Promise<boolean> {
    const removed = await db.delete(operators).where(eq(operators.email, email)).returning({ email: operators.email });
    return removed.length > 0;
  }

  /** The role before the change; undefined when the email is no operator. */
  async setRole(db: Executor, email: string, role: OperatorRole): Promise<OperatorRole | undefined> {
    const [before] = await db.select({ role: operators.role }).from(operators).where(eq(operators.email, email)).for('update');
    if (!before) return undefined;
    await db.update(operators).set({ role }).where(eq(operators.email, email));
    return before.role;
  }

  /** Forgets the operator's authenticator (secret, last used code, enrollment). False when the email is no operator. */
  async resetSecondFactor(db: Executor, email: string): Promise<boolean> {
    const updated = await db
      .update(operators)
      .set({ totpSealed: null, totpLastStep: null, totpEnrolledAt: null })
      .where(eq(operators.email, email))
      .returning({ email: operators.email });
    return updated.length > 0;
  }

  /** Keeps a new, not yet confirmed, sealed secret (replacing an unconfirmed one; never a confirmed one). */
  async setPendingSecret(db: Executor, email: string, sealed: string): Promise<boolean> {
    const updated = await db
      .update(operators)
      .set({ totpSealed: sealed, totpLastStep: null })
      .where(and(eq(operators.email, email), sql`${operators.totpEnrolledAt} is null`))
      .returning({ email: operators.email });
    return updated.length > 0;
  }

  /**
   * Records `step` as used when it is later than the last used one (and confirms the enrollment);
   * false when a code of that step or later was accepted already (a replay).
   */
  async useStep(db: Executor, email: string, step: number, now: Date): Promise<boolean> {
    const updated = await db
      .update(operators)
      .set({ totpLastStep: step, totpEnrolledAt: sql`coalesce(${operators.totpEnrolledAt}, ${now.toISOString()}::timestamptz)` })
      .where(and(eq(operators.email, email), sql`(${operators.totpLastStep} is null or ${operators.totpLastStep} < ${step})`))
      .returning({ email: operators.email });
    return updated.length > 0;
  }

  // ----- sessions -------------------------------------------------------------------------------

  /** Ends every session of the user with this email (removal and role change). Returns how many. */
  async endSessionsOf(db: Executor, email: string): Promise<number> {
    const ended = await db
      .delete(authSessions)
      .where(inArray(authSessions.userId, db.select({ id: authUsers.id }).from(authUsers).where(eq(authUsers.email, email))))
      .returning({ id: authSessions.id });
    return ended.length;
  }

  async endSession(db: Executor, sessionId: string): Promise<void> {
    await db.delete(authSessions).where(eq(authSessions.id, sessionId));
  }

  factorOf(db: Executor, sessionId: string) {
    return db
      .select()
      .from(operatorSessionFactors)
      .where(eq(operatorSessionFactors.sessionId, sessionId))
      .then((rows) => rows[0]);
  }

  async recordFactor(db: Executor, input: { sessionId: string; operatorEmail: string; now: Date }): Promise<void> {
    await db
      .insert(operatorSessionFactors)
      .values({ sessionId: input.sessionId, operatorEmail: input.operatorEmail, verifiedAt: input.now, lastSeenAt: input.now })
      .onConflictDoUpdate({ target: operatorSessionFactors.sessionId, set: { verifiedAt: input.now, lastSeenAt: input.now } });
  }

  async touchFactor(db: Executor, sessionId: string, now: Date): Promise<void> {
    await db.update(operatorSessionFactors).set({ lastSeenAt: now }).where(eq(operatorSessionFactors.sessionId, sessionId));
  }

  /** Live sessions of operators (one operator's, or every operator's), newest first. */
  sessions(db: Executor, options: { email?: string; now: Date }) {
    const where = [gte(authSessions.expiresAt, options.now)];
    if (options.email) where.push(eq(authUsers.email, options.email));
    return db
      .select({
        id: authSessions.id,
        email: authUsers.email,
        createdAt: authSessions.createdAt,
        expiresAt: authSessions.expiresAt,
        ipAddress: authSessions.ipAddress,
        userAgent: authSessions.userAgent,
        verifiedAt: operatorSessionFactors.verifiedAt,
        lastSeenAt: operatorSessionFactors.lastSeenAt,
      })
      .from(authSessions)
      .innerJoin(authUsers, eq(authUsers.id, authSessions.userId))
      .innerJoin(operators, eq(operators.email, authUsers.email))
      .leftJoin(operatorSessionFactors, eq(operatorSessionFactors.sessionId, authSessions.id))
      .where(and(...where))
      .orderBy(desc(authSessions.createdAt));
  }

  /** The email of the user a session belongs to. */
  async sessionOwner(db: Executor, sessionId: string): Promise<string | undefined> {
    const [row] = await db
      .select({ email: authUsers.email })
      .from(authSessions)
      .innerJoin(authUsers, eq(authUsers.id, authSessions.userId))
      .where(eq(authSessions.id, sessionId));
    return row?.email;
  }

  // ----- the audit trail's pages ----------------------------------------------------------------

  auditPage(db: Executor, query: AuditPageQuery) {
    const where: SQL[] = [];
    if (query.operatorEmail) where.push(eq(adminAudit.operatorEmail, query.operatorEmail));
    if (query.action) where.push(eq(adminAudit.action, query.action));
    if (query.from) where.push(gte(adminAudit.createdAt, query.from));
    if (query.to) where.push(lt(adminAudit.createdAt, query.to));
    if (query.before) {
      const { at, id } = query.before;
      where.push(or(lt(adminAudit.createdAt, at), and(eq(adminAudit.createdAt, at), lt(adminAudit.id, id)))!);
    }
    return db
      .select()
      .from(adminAudit)
      .where(where.length > 0 ? and(...where) : undefined)
      .orderBy(desc(adminAudit.createdAt), desc(adminAudit.id))
      .limit(query.limit);
  }
}
