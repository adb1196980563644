import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RootsApp } from '../../app';
import type { Database } from '../../db/database';
import { adminAudit, authUsers, subscriptions } from '../../db/schema';
import { buildTestApp, openTestDatabase, testDatabases } from '../../test/helpers';
import { signInWithEmailCode } from '../../test/sign-in';
import { seedSubscription } from '../../test/account-fixtures';

/**
 * Issue 23: cancel means one thing. Only a plan that renews has a cancel; a one-time pack is ended by
 * a refund; an ended subscription is left alone, and the operator is told so (nothing is audited).
 */
describe.each(testDatabases())('cancel by kind on $name', ({ url }) => {
  let database: Database;
  let app: RootsApp;
  const tag = url ? 'pg' : 'pglite';
  const ULTIMATE = 'roots_ultimate_pack_4999_otp';

  beforeAll(async () => {
    database = await openTestDatabase(url);
    app = await buildTestApp({ database });
  });
  afterAll(async () => {
    await app?.close();
    await database?.close();
  });

  const status = async (id: string) => (await database.db.select().from(subscriptions).where(eq(subscriptions.id, id)))[0]!.status;

  it('the account lists a pack as one that never renews, and refuses to cancel it', async () => {
    const email = `pack.${tag}@example.com`;
    const cookie = await signInWithEmailCode(app, email);
    const [user] = await database.db.select().from(authUsers).where(eq(authUsers.email, email));
    const weekly = await seedSubscription(database, email, { userId: user!.id });
    const pack = await seedSubscription(database, email, { userId: user!.id, planId: ULTIMATE });
    const listed = await app.inject({ url: '/api/account/subscriptions', headers: { cookie } });
    const renews = Object.fromEntries(
      listed.json<{ subscriptions: Array<{ id: string; renews: boolean }> }>().subscriptions.map((s) => [s.id, s.renews]),
    );
    expect(renews).toEqual({ [weekly]: true, [pack]: false });

    const refused = await app.inject({
      method: 'POST',
      url: `/api/account/subscriptions/${pack}/cancel`,
      headers: { cookie, origin: 'http://127.0.0.1:3000' },
    });
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toEqual({ code: 'CONFLICT', error: 'A one-time purchase has no renewal to cancel; a refund ends it' });
    expect(await status(pack)).toBe('trialing');
    const canceled = await app.inject({
      method: 'POST',
      url: `/api/account/subscriptions/${weekly}/cancel`,
      headers: { cookie, origin: 'http://127.0.0.1:3000' },
    });
    expect(canceled.statusCode).toBe(200);
    expect(await status(weekly)).toBe('canceled');
  });

  it('the buyer’s browser cannot "cancel" a pack by its id either; asking for the money back is not refused', async () => {
    const pack = await seedSubscription(database, `browser-pack.${tag}@example.com`, { planId: ULTIMATE });
    const cancel = (refund: boolean) =>
      app.inject({
        method: 'POST',
        url: '/api/cancel',
        headers: { cookie: app.roots.proof.cookieHeader([pack]), origin: 'http://127.0.0.1:3000' },
        payload: { id: pack, refund },
      });
    const refused = await cancel(false);
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toEqual({ code: 'CONFLICT', error: 'A one-time purchase has no renewal to cancel; a refund ends it' });
    expect(await status(pack)).toBe('trialing');
    // With the refund asked for, the pack is not "canceled" (its seeded charge-less row has nothing to refund).
    expect((await cancel(true)).statusCode).toBe(200);
    expect(await status(pack)).toBe('trialing');
  });

  it('the operator cannot "cancel now" a pack or an ended subscription, and nothing is audited', async () => {
    const operator = { email: `operator.${tag}@example.com` };
    const pack = await seedSubscription(database, `op-pack.${tag}@example.com`, { planId: ULTIMATE });
    const ended = await seedSubscription(database, `op-ended.${tag}@example.com`);
    await database.db.update(subscriptions).set({ status: 'expired' }).where(eq(subscriptions.id, ended));
    const auditRows = async () => (await database.db.select().from(adminAudit)).length;
    const before = await auditRows();
    await expect(app.roots.admin.cancel(operator, { subscription_id: pack, when: 'now', reason: 'test' })).rejects.toMatchObject({
      code: 'CONFLICT',
      message: 'A one-time purchase has no renewal to cancel; a refund ends it',
    });
    await expect(app.roots.admin.cancel(operator, { subscription_id: ended, when: 'now', reason: 'test' })).rejects.toMatchObject({
      code: 'CONFLICT',
      message: 'This subscription has already ended',
    });
    expect(await auditRows()).toBe(before);
    expect(await status(pack)).toBe('trialing');
  });
});
