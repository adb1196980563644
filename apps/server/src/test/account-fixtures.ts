import { randomUUID } from 'node:crypto';
import type { Database } from '../db/database';
import { accessGrants, authAccounts, authUsers, reports, subscriptions } from '../db/schema';

/** Test data of the signed-in area's tests. */

/** A purchase as the subscription service leaves it (trialing weekly plan with its grant). */
export async function seedSubscription(
  database: Database,
  email: string,
  options: { planId?: string; userId?: string | null } = {},
): Promise<string> {
  const planId = options.planId ?? 'roots_3d1_7d2499';
  const id = randomUUID();
  const now = new Date();
  await database.db.insert(subscriptions).values({
    id,
    email,
    planId,
    userId: options.userId ?? null,
    status: 'trialing',
    initialExecutionId: `exe_${id}`,
    holderReference: `holder_${id}`,
    currentPeriodStart: now,
    currentPeriodEnd: new Date(now.getTime() + 7 * 86_400_000),
    dueAt: new Date(now.getTime() + 7 * 86_400_000),
    termsText: 'terms',
    termsVersion: 'v1',
    consentAt: now,
    consentIp: '127.0.0.1',
    consentUserAgent: 'test',
    createdAt: now,
    updatedAt: now,
  });
  await database.db.insert(accessGrants).values({ id: randomUUID(), subscriptionId: id, email, kind: 'subscription', createdAt: now });
  return id;
}

/** A user as a redirect sign-in leaves it: the user row and its provider account. Returns the user id. */
export async function seedRedirectUser(database: Database, email: string, providerId: 'google' | 'apple'): Promise<string> {
  const id = randomUUID();
  const now = new Date();
  await database.db.insert(authUsers).values({ id, name: email, email, emailVerified: true, createdAt: now, updatedAt: now });
  await database.db
    .insert(authAccounts)
    .values({ id: randomUUID(), accountId: `${providerId}-${id}`, providerId, userId: id, createdAt: now, updatedAt: now });
  return id;
}

/** A failed report (no content to build) of a subscription, linked to its user as report/update leaves it. Returns its id. */
export async function seedReport(
  database: Database,
  owner: { subscriptionId: string; email: string; userId: string | null },
): Promise<string> {
  const id = randomUUID();
  const now = new Date();
  await database.db.insert(reports).values({
    id,
    ...owner,
    kind: 'extended',
    status: 'failed',
    errorCode: 'NO_FACE',
    errorMessage: 'No face found',
    deadlineAt: now,
    createdAt: now,
    updatedAt: now,
  });
  return id;
}
