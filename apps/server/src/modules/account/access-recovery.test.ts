import type { MailboxMessage } from '@roots/contracts/emails';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { RootsApp } from '../../app';
import type { Database } from '../../db/database';
import { authUsers, subscriptions } from '../../db/schema';
import { buildTestApp, openTestDatabase, testDatabases } from '../../test/helpers';
import { signInWithEmailCode } from '../../test/sign-in';
import { seedRedirectUser, seedSubscription } from '../../test/account-fixtures';

describe.each(testDatabases())('access recovery (POST /api/account/access-recovery) on $name', ({ url }) => {
  let database: Database;
  let app: RootsApp;
  const tag = url ? 'pg' : 'pglite';
  const address = (label: string) => `${label}.${tag}@example.com`;

  beforeAll(async () => {
    database = await openTestDatabase(url);
    app = await buildTestApp({ database });
  });
  afterAll(async () => {
    await app?.close();
    await database?.close();
  });

  const recover = (email: string) => app.inject({ method: 'POST', url: '/api/account/access-recovery', payload: { email } });
  const codesTo = (email: string) => mailTo(email, 'sign_in_code');
  /** What went to `email` of `kind`, once the recoveries answered so far have done their work. */
  const mailTo = async (email: string, kind: MailboxMessage['kind']) => {
    await app.roots.account.idle();
    await app.roots.emails.idle();
    const mailbox = (await app.inject({ method: 'GET', url: '/dev/mailbox.json' })).json<{ messages: MailboxMessage[] }>();
    return mailbox.messages.filter((message) => message.kind === kind && message.to === email);
  };

  it('a purchase not linked yet: a sign-in code goes to the email, and signing in with it reaches the purchase', async () => {
    const email = address('paid');
    const subscriptionId = await seedSubscription(database, email);
    const answer = await recover(`  ${email.toUpperCase()} `);
    expect(answer.statusCode, answer.body).toBe(200);
    expect(answer.json()).toEqual({ outcome: 'sent' });
    expect(await codesTo(email)).toHaveLength(1);

    const cookie = await signInWithEmailCode(app, email);
    const me = await app.inject({ method: 'GET', url: '/api/account/me', headers: { cookie } });
    expect(me.json()).toMatchObject({ has_purchase: true, user: { email } });
    const mine = await app.inject({ method: 'GET', url: '/api/account/subscriptions', headers: { cookie } });
    expect(mine.json<{ subscriptions: Array<{ id: string }> }>().subscriptions.map((item) => item.id)).toEqual([subscriptionId]);
  });

  it('a purchase linked to the account of that same email: sent', async () => {
    const email = address('linked-same');
    await signInWithEmailCode(app, email);
    const [user] = await database.db.select().from(authUsers).where(eq(authUsers.email, email));
    await seedSubscription(database, email, { userId: user!.id });
    expect((await recover(email)).json()).toEqual({ outcome: 'sent' });
  });

  it('an account whose purchase was bought with another email and finalized into it: sent', async () => {
    const email = address('finalized-into');
    await signInWithEmailCode(app, email);
    const [user] = await database.db.select().from(authUsers).where(eq(authUsers.email, email));
    await seedSubscription(database, address('bought-with'), { userId: user!.id });
    expect((await recover(email)).json()).toEqual({ outcome: 'sent' });
  });

  it('answers before any of the work: the answer cannot wait on what the email bought (one answer, one timing)', async () => {
    const email = address('timing');
    await seedSubscription(database, email);
    let release: () => void = () => undefined;
    let asked = 0;
    const stalled = {
      sendSignInCode: () => {
        asked += 1;
        return new Promise<void>((resolve) => (release = resolve));
      },
    };
    // The code sender never answers until released: the answer still comes, the same as for no purchase.
    expect(await app.roots.account.recoverAccess(email, stalled)).toEqual({ outcome: 'sent' });
    expect(await app.roots.account.recoverAccess(address('timing-none'), stalled)).toEqual({ outcome: 'sent' });
    await vi.waitFor(() => expect(asked).toBe(1));
    release();
    await app.roots.account.idle();
  });

  it('nothing bought with the email: the same answer, and no email is sent', async () => {
    const email = address('never-paid');
    expect((await recover(email)).json()).toEqual({ outcome: 'sent' });
    expect(await codesTo(email)).toEqual([]);
    expect(await mailTo(email, 'access_help')).toEqual([]);
  });

  it('a purchase finalized into an account that signs in with Google: the same answer; the email names the way, never the address', async () => {
    const email = address('paid-then-google');
    const googleUser = await seedRedirectUser(database, address('google-owner'), 'google');
    await seedSubscription(database, email, { userId: googleUser });
    const answer = await recover(email);
    expect(answer.json()).toEqual({ outcome: 'sent' });
    expect(answer.body).not.toContain('google-owner');
    expect(await codesTo(email)).toEqual([]);
    const [help] = await mailTo(email, 'access_help');
    expect(help?.text).toContain('in an account that signs in with Google');
    expect(help?.text).not.toContain('google-owner');

    const byCodeOnly = address('paid-then-other-email');
    const [otherUser] = await database.db
      .select()
      .from(authUsers)
      .where(eq(authUsers.email, address('finalized-into')));
    const [row] = await database.db
      .update(subscriptions)
      .set({ email: byCodeOnly })
      .where(eq(subscriptions.userId, otherUser!.id))
      .returning();
    expect(row).toBeDefined();
    expect((await recover(byCodeOnly)).json()).toEqual({ outcome: 'sent' });
    const [otherWay] = await mailTo(byCodeOnly, 'access_help');
    expect(otherWay?.text).toContain('signs in with another email address');
    expect(otherWay?.text).not.toContain('finalized-into');
  });

  it('is never refused for the email, whoever asks (ADR 167): the emails it sends are bounded instead; 400 for a bad email', async () => {
    const email = address('hammered');
    await seedSubscription(database, email);
    for (let i = 0; i < 8; i += 1) {
      expect((await recover(email)).statusCode).toBe(200);
      await app.roots.account.idle();
    }
    // Every email carries the same code (re-sent, not replaced); how often it goes out is shaped with
    // the default limits in modules/auth/sign-in-limits.test.ts (this suite turns the spacing off).
    const codes = (await codesTo(email)).map((mail) => /code is (\d{6})\./.exec(mail.text)?.[1]);
    expect(codes.length).toBeGreaterThan(0);
    expect(new Set(codes)).toEqual(new Set([expect.stringMatching(/^\d{6}$/)]));
    const bad = await recover('not-an-email');
    expect(bad.statusCode).toBe(400);
    expect(bad.json<{ error: string }>().error).toContain('Please enter a valid email');
  });
});
