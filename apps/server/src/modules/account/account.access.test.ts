import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RootsApp } from '../../app';
import type { Database } from '../../db/database';
import { authUsers, profiles, subscriptions } from '../../db/schema';
import { buildTestApp, openTestDatabase, testDatabases } from '../../test/helpers';
import { signInWithEmailCode } from '../../test/sign-in';
import { seedSubscription } from '../../test/account-fixtures';

/** The signed-in area with purchases not linked yet (owned through the verified email); the full matrix is access-control.matrix.test.ts. */
describe.each(testDatabases())('signed-in area and its access control on $name', ({ url }) => {
  let database: Database;
  let app: RootsApp;
  const alice = `alice.${url ? 'pg' : 'pglite'}@example.com`;
  const bob = `bob.${url ? 'pg' : 'pglite'}@example.com`;
  let aliceCookie: string;
  let bobCookie: string;
  let aliceSubscription: string;
  let bobSubscription: string;

  beforeAll(async () => {
    database = await openTestDatabase(url);
    app = await buildTestApp({ database });
    aliceSubscription = await seedSubscription(database, alice);
    bobSubscription = await seedSubscription(database, bob);
    [aliceCookie, bobCookie] = [await signInWithEmailCode(app, alice), await signInWithEmailCode(app, bob)];
  });
  afterAll(async () => {
    await app?.close();
    await database?.close();
  });

  const call = (method: 'GET' | 'PUT' | 'POST' | 'DELETE', path: string, cookie?: string, payload?: unknown) =>
    app.inject({ method, url: path, headers: cookie ? { cookie, origin: 'http://127.0.0.1:3000' } : {}, ...(payload ? { payload } : {}) });

  const profileBody = { name: 'Alice', birth_date: '1990-04-02', birth_time: '07:30' };

  it('signs in by email code and says whether the email has a purchase', async () => {
    const me = await call('GET', '/api/account/me', aliceCookie);
    expect(me.statusCode, me.body).toBe(200);
    expect(me.json()).toMatchObject({
      user: { email: alice, providerId: 'email', isAppleAuth: false, isGoogleAuth: false },
      has_purchase: true,
      access: ['subscription'],
    });
    const nobody = await signInWithEmailCode(app, `nobody.${url ? 'pg' : 'pglite'}@example.com`);
    expect((await call('GET', '/api/account/me', nobody)).json()).toMatchObject({ has_purchase: false, access: [] });
  });

  it('answers who is signed in on pages a visitor sees too: a visitor is 200 { me: null }, never a 401 (ADR 149)', async () => {
    const visitor = await call('GET', '/api/account/session');
    expect(visitor.statusCode).toBe(200);
    expect(visitor.json()).toEqual({ me: null });
    const signedIn = await call('GET', '/api/account/session', aliceCookie);
    expect(signedIn.json()).toEqual({ me: (await call('GET', '/api/account/me', aliceCookie)).json() });
  });

  it("never shows or changes another user's data", async () => {
    await call('PUT', '/api/account/profile', aliceCookie, profileBody);
    // Bob's view of every read endpoint holds nothing of Alice's.
    const bobMe = await call('GET', '/api/account/me', bobCookie);
    expect(bobMe.body).not.toContain(alice);
    expect((await call('GET', '/api/account/profile', bobCookie)).json()).toEqual({ name: null, birth_date: null, birth_time: null });
    const bobSubscriptions = (await call('GET', '/api/account/subscriptions', bobCookie)).json<{ subscriptions: Array<{ id: string }> }>();
    expect(bobSubscriptions.subscriptions.map((item) => item.id)).toEqual([bobSubscription]);
    // Acting on Alice's subscription answers as if it did not exist, and changes nothing.
    const cancel = await call('POST', `/api/account/subscriptions/${aliceSubscription}/cancel`, bobCookie);
    expect(cancel.statusCode).toBe(404);
    const [row] = await database.db.select().from(subscriptions).where(eq(subscriptions.id, aliceSubscription));
    expect(row?.status).toBe('trialing');
    // Finalizing Alice's subscription into Bob's account fails: it is not Bob's (ADR 085).
    const finalizeAlice = await call('POST', '/subs/finalize', aliceCookie, { subscription_id: aliceSubscription, email: alice });
    expect(finalizeAlice.statusCode, finalizeAlice.body).toBe(200);
    const finalizeBob = await call('POST', '/subs/finalize', bobCookie, { subscription_id: aliceSubscription, email: alice });
    expect(finalizeBob.statusCode).toBe(404);
    const spoofed = await call('POST', '/subs/finalize', bobCookie, {
      subscription_id: bobSubscription,
      email: bob,
      firebase_id: 'someone-else',
    });
    expect(spoofed.statusCode).toBe(401);
    expect((await call('POST', '/subs/finalize', undefined, { subscription_id: bobSubscription, email: bob })).statusCode).toBe(401);
    // A visitor cannot finalize either; Alice's linked subscription is still hers only.
    const aliceSubscriptions = (await call('GET', '/api/account/subscriptions', aliceCookie)).json<{
      subscriptions: Array<{ id: string }>;
    }>();
    expect(aliceSubscriptions.subscriptions.map((item) => item.id)).toEqual([aliceSubscription]);
  });

  it('updates the profile, cancels its own subscription', async () => {
    const bad = await call('PUT', '/api/account/profile', aliceCookie, { name: '', birth_date: 'x', birth_time: '25:00' });
    expect(bad.statusCode).toBe(400);
    expect((await call('GET', '/api/account/profile', aliceCookie)).json()).toEqual(profileBody);
    const cancel = await call('POST', `/api/account/subscriptions/${aliceSubscription}/cancel`, aliceCookie);
    expect(cancel.json()).toEqual({ message: 'Your subscription has been canceled' });
    const [row] = await database.db.select().from(subscriptions).where(eq(subscriptions.id, aliceSubscription));
    expect(row?.status).toBe('canceled');
  });

  it('signs out a disabled user', async () => {
    const carol = `carol.${url ? 'pg' : 'pglite'}@example.com`;
    const cookie = await signInWithEmailCode(app, carol);
    await database.db.update(authUsers).set({ disabled: true }).where(eq(authUsers.email, carol));
    const answer = await call('GET', '/api/account/me', cookie);
    expect(answer.json()).toEqual({ error: 'user-disabled', code: 'UNAUTHORIZED' });
    await expect(signInWithEmailCode(app, carol)).rejects.toThrow();
  });

  it('deletes my data: user, sessions, profile; the purchase record stays unlinked', async () => {
    const deleted = await call('DELETE', '/api/account', aliceCookie);
    expect(deleted.json()).toEqual({ deleted: true });
    expect((await call('GET', '/api/account/me', aliceCookie)).statusCode).toBe(401);
    expect(await database.db.select().from(authUsers).where(eq(authUsers.email, alice))).toEqual([]);
    expect(await database.db.select().from(profiles)).toEqual([]);
    const [row] = await database.db.select().from(subscriptions).where(eq(subscriptions.id, aliceSubscription));
    expect(row?.userId).toBeNull();
  });
});
