import type { MailboxMessage } from '@roots/contracts/emails';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RootsApp } from '../../app';
import type { Database } from '../../db/database';
import { authSessions, authUsers } from '../../db/schema';
import { buildTestApp, openTestDatabase, testDatabases } from '../../test/helpers';

const ORIGIN = 'http://127.0.0.1:3000';
const TTL_SECONDS = 3_600;

/** `name=value` pairs of a response's Set-Cookie headers, merged over `jar`. */
function mergeCookies(jar: Map<string, string>, setCookie: string | string[] | undefined): Map<string, string> {
  for (const line of Array.isArray(setCookie) ? setCookie : setCookie ? [setCookie] : []) {
    const [pair = ''] = line.split(';');
    const [name = '', ...value] = pair.split('=');
    if (/max-age=0/i.test(line)) jar.delete(name);
    else jar.set(name, value.join('='));
  }
  return jar;
}
const cookieHeader = (jar: Map<string, string>) => [...jar].map(([name, value]) => `${name}=${value}`).join('; ');

describe.each(testDatabases())('session persistence and refresh on $name', ({ url }) => {
  let database: Database;
  let app: RootsApp;
  const tag = url ? 'pg' : 'pglite';

  beforeAll(async () => {
    database = await openTestDatabase(url);
    app = await buildTestApp({ database, env: { AUTH_SESSION_TTL_SECONDS: String(TTL_SECONDS) } });
  });
  afterAll(async () => {
    await app?.close();
    await database?.close();
  });

  const post = (path: string, jar: Map<string, string>, payload: unknown = {}) =>
    app.inject({
      method: 'POST',
      url: `/api/auth${path}`,
      headers: { origin: ORIGIN, cookie: cookieHeader(jar) },
      payload: payload as object,
    });

  /** Signs in by email code as the browser does, choosing the persistence first; returns the cookie jar and the raw session cookie line. */
  async function signIn(email: string, persistence: 'session' | 'local') {
    const jar = new Map<string, string>();
    mergeCookies(jar, (await post('/session-persistence', jar, { persistence })).headers['set-cookie']);
    expect((await post('/email-otp/send-verification-otp', jar, { email, type: 'sign-in' })).statusCode).toBe(200);
    await app.roots.emails.idle();
    const mailbox = (await app.inject({ method: 'GET', url: '/dev/mailbox.json' })).json<{ messages: MailboxMessage[] }>();
    const code = /\b(\d{6})\b/.exec(mailbox.messages.find((message) => message.to === email)?.text ?? '')?.[1] ?? '';
    const signedIn = await post('/sign-in/email-otp', jar, { email, otp: code });
    expect(signedIn.statusCode, signedIn.body).toBe(200);
    mergeCookies(jar, signedIn.headers['set-cookie']);
    const setCookie = [signedIn.headers['set-cookie']].flat().find((line) => line?.startsWith('better-auth.session_token=')) ?? '';
    return { jar, sessionCookieLine: setCookie };
  }

  const sessionRow = async (email: string) => {
    const [user] = await database.db.select().from(authUsers).where(eq(authUsers.email, email));
    const [session] = await database.db.select().from(authSessions).where(eq(authSessions.userId, user!.id));
    return session!;
  };

  it('session-only persistence: the session cookie has no Max-Age; remembered: it lasts the session lifetime', async () => {
    const browserOnly = await signIn(`browser-only.${tag}@example.com`, 'session');
    expect(browserOnly.sessionCookieLine).not.toMatch(/max-age/i);
    const remembered = await signIn(`remembered.${tag}@example.com`, 'local');
    expect(remembered.sessionCookieLine).toMatch(new RegExp(`Max-Age=${TTL_SECONDS}`, 'i'));
    expect((await post('/session-persistence', new Map(), { persistence: 'forever' })).statusCode).toBe(400);
  });

  it('refresh gives a session near its end a new lifetime, keeping a session-only cookie session-only', async () => {
    const email = `refresh.${tag}@example.com`;
    const { jar } = await signIn(email, 'session');
    const nearlyOver = new Date(Date.now() + 4 * 60_000);
    await database.db
      .update(authSessions)
      .set({ expiresAt: nearlyOver })
      .where(eq(authSessions.id, (await sessionRow(email)).id));

    const refreshed = await post('/refresh-session', jar);
    expect(refreshed.statusCode, refreshed.body).toBe(200);
    const newEnd = Date.parse(refreshed.json<{ session_expires_at: string }>().session_expires_at);
    expect(newEnd).toBeGreaterThan(nearlyOver.getTime() + (TTL_SECONDS - 10 * 60) * 1000);
    expect((await sessionRow(email)).expiresAt.getTime()).toBe(newEnd);
    const cookie = [refreshed.headers['set-cookie']].flat().find((line) => line?.startsWith('better-auth.session_token='));
    expect(cookie).toBeDefined();
    expect(cookie).not.toMatch(/max-age/i);
    const me = await app.inject({ method: 'GET', url: '/api/account/me', headers: { cookie: cookieHeader(jar) } });
    expect(Date.parse(me.json<{ session_expires_at: string }>().session_expires_at)).toBe(newEnd);
  });

  it('an expired session is not refreshed: 401, and the account endpoints say user-token-expired', async () => {
    const email = `expired.${tag}@example.com`;
    const { jar } = await signIn(email, 'local');
    await database.db
      .update(authSessions)
      .set({ expiresAt: new Date(Date.now() - 1_000) })
      .where(eq(authSessions.id, (await sessionRow(email)).id));
    expect((await post('/refresh-session', jar)).statusCode).toBe(401);
    const me = await app.inject({ method: 'GET', url: '/api/account/me', headers: { cookie: cookieHeader(jar) } });
    expect(me.statusCode).toBe(401);
    expect(me.json()).toEqual({ error: 'user-token-expired', code: 'UNAUTHORIZED' });
    expect((await post('/refresh-session', new Map())).statusCode).toBe(401);
  });

  it('a disabled user is signed out at the next refresh: 401 user-disabled, every session gone', async () => {
    const email = `disabled.${tag}@example.com`;
    const { jar } = await signIn(email, 'session');
    await database.db.update(authUsers).set({ disabled: true }).where(eq(authUsers.email, email));
    const refused = await post('/refresh-session', jar);
    expect(refused.statusCode).toBe(401);
    expect(refused.json()).toMatchObject({ code: 'user-disabled' });
    const [user] = await database.db.select().from(authUsers).where(eq(authUsers.email, email));
    expect(await database.db.select().from(authSessions).where(eq(authSessions.userId, user!.id))).toEqual([]);
  });
});
