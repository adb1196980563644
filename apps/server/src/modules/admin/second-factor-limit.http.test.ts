import { OPERATOR_REFUSALS, type AuditList, type OperatorMe } from '@roots/contracts/admin';
import type { MailboxMessage } from '@roots/contracts/emails';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, type RootsApp } from '../../app';
import { loadConfig } from '../../config/env';
import type { Database } from '../../db/database';
import { ManualClock } from '../../lib/clock';
import { makeWebDist, openTestDatabase, testDatabases } from '../../test/helpers';
import { signInAsOperator, totpCode, type SignedInOperator } from '../../test/operator';
import { signInWithEmailCode } from '../../test/sign-in';

const ORIGIN = 'http://127.0.0.1:3000';
const json = { origin: ORIGIN, 'content-type': 'application/json' };

/**
 * Issue 32 for the operator console, at the default limits (ADR 167–169): strangers asking for an
 * operator's codes do not lock the operator out; wrong authenticator codes stop at the operator's
 * limit whatever the addresses, are audited and counted, and the right code waits for the lock to
 * end; the identity library's own session endpoints refuse an operator session without the second factor.
 */
describe.each(testDatabases())('operator sign-in that strangers cannot lock on $name', ({ url }) => {
  let database: Database;
  let app: RootsApp;
  const clock = new ManualClock(new Date());
  const tag = url ? 'pg' : 'pglite';
  const ownerEmail = `owner.lock.${tag}@example.com`;
  let owner: SignedInOperator;

  beforeAll(async () => {
    database = await openTestDatabase(url);
    // Default sign-in and second-factor limits; the client address from X-Forwarded-For, as behind a proxy.
    const config = loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent', WEB_DIST_DIR: makeWebDist(), TRUST_PROXY: 'true' });
    app = await buildApp({ config, database, clock });
    owner = await signInAsOperator(app, ownerEmail, 'owner');
  });
  afterAll(async () => {
    await app?.close();
    await database?.close();
  });

  const askCode = (email: string, ip: string) =>
    app.inject({
      method: 'POST',
      url: '/api/auth/email-otp/send-verification-otp',
      headers: { ...json, 'x-forwarded-for': ip },
      payload: { email, type: 'sign-in' },
    });
  const latestCode = async (email: string) => {
    await app.roots.emails.idle();
    const { messages } = (await app.inject({ method: 'GET', url: '/dev/mailbox.json' })).json<{ messages: MailboxMessage[] }>();
    const mail = messages.filter((message) => message.kind === 'sign_in_code' && message.to === email).at(-1);
    return /code is (\d{6})\./.exec(mail?.text ?? '')?.[1] ?? '';
  };
  const verify = (cookie: string, code: string, ip: string) =>
    app.inject({
      method: 'POST',
      url: '/api/admin/second-factor/verify',
      headers: { cookie, origin: ORIGIN, 'x-forwarded-for': ip },
      payload: { code },
    });
  const wrongCode = (right: string) => String((Number(right) + 500_000) % 1_000_000).padStart(6, '0');

  it("strangers asking for an operator's codes from several addresses do not keep the operator out of the console", async () => {
    const email = `support.lock.${tag}@example.com`;
    const operator = await signInAsOperator(app, email, 'support');
    for (let index = 0; index < 7; index += 1) expect((await askCode(email, `198.51.100.${index + 10}`)).statusCode).toBe(200);
    // The operator's own request is answered; the code in their inbox signs them in; the authenticator completes it.
    expect((await askCode(email, '192.0.2.77')).statusCode).toBe(200);
    const signedIn = await app.inject({
      method: 'POST',
      url: '/api/auth/sign-in/email-otp',
      headers: { ...json, 'x-forwarded-for': '192.0.2.77' },
      payload: { email, otp: await latestCode(email) },
    });
    expect(signedIn.statusCode, signedIn.body).toBe(200);
    const setCookie = signedIn.headers['set-cookie'];
    const cookie = (Array.isArray(setCookie) ? setCookie : [setCookie ?? '']).map((item) => item.split(';')[0]).join('; ');
    clock.advance(30_000); // the next authenticator code (each is accepted once)
    expect((await verify(cookie, totpCode(app, operator.secret, email), '192.0.2.77')).statusCode).toBe(200);
    const me = await app.inject({ method: 'GET', url: '/api/admin/me', headers: { cookie } });
    expect(me.json<OperatorMe>().second_factor).toBe('passed');
  });

  it('wrong authenticator codes from several addresses stop at 5: audited, counted, and the right code waits 15 minutes', async () => {
    const cookie = await signInWithEmailCode(app, ownerEmail);
    clock.advance(30_000);
    const right = () => totpCode(app, owner.secret, ownerEmail);
    for (let index = 0; index < 5; index += 1) {
      const wrong = await verify(cookie, wrongCode(right()), `203.0.113.${index % 4}`);
      expect(wrong.statusCode, `wrong code ${index + 1}`).toBe(403);
    }
    // From a fresh address, the right code is refused while the step is locked.
    const locked = await verify(cookie, right(), '198.18.5.5');
    expect(locked.statusCode).toBe(429);
    expect(locked.json()).toMatchObject({ code: 'RATE_LIMITED' });
    expect(locked.json<{ error: string }>().error).toMatch(/15 minutes/);
    const me = await app.inject({ method: 'GET', url: '/api/admin/me', headers: { cookie } });
    expect(me.json<OperatorMe>().second_factor).toBe('verify');

    // Audited: five failures with their addresses, one lock.
    const audit = await app.inject({ method: 'GET', url: '/api/admin/audit?limit=50', headers: { cookie: owner.cookie } });
    const entries = audit.json<AuditList>().entries.filter((entry) => entry.operator_email === ownerEmail);
    const failures = entries.filter((entry) => entry.action === 'operator.second_factor_failed');
    expect(failures).toHaveLength(5);
    expect(failures.map((entry) => entry.detail['ip']).sort()).toEqual([
      '203.0.113.0',
      '203.0.113.0',
      '203.0.113.1',
      '203.0.113.2',
      '203.0.113.3',
    ]);
    expect(entries.filter((entry) => entry.action === 'operator.second_factor_locked')).toEqual([
      expect.objectContaining({ detail: expect.objectContaining({ minutes: 15, ip: '203.0.113.0' }) }),
    ]);
    // Counted for the alert rule (ops/prometheus: RootsOperatorSecondFactorLocked).
    const metrics = (await app.inject({ method: 'GET', url: '/metrics' })).body;
    expect(metrics).toMatch(/roots_operator_second_factor_failures_total\{service="server"\} 5/);
    expect(metrics).toMatch(/roots_operator_second_factor_lockouts_total\{service="server"\} 1/);

    // Still locked a minute before the end; then the right code passes.
    clock.advance(14 * 60_000);
    expect((await verify(cookie, right(), '198.18.5.5')).statusCode).toBe(429);
    clock.advance(61_000);
    expect((await verify(cookie, right(), '198.18.5.5')).statusCode).toBe(200);
    expect((await app.inject({ method: 'GET', url: '/api/admin/me', headers: { cookie } })).json<OperatorMe>().second_factor).toBe(
      'passed',
    );
  });

  it("the identity library's session endpoints refuse an operator session that has only the email code", async () => {
    const cookie = await signInWithEmailCode(app, ownerEmail);
    const identity = (method: 'GET' | 'POST', path: string, payload?: object) =>
      app.inject({ method, url: `/api/auth${path}`, headers: { cookie, ...(payload ? json : {}) }, ...(payload ? { payload } : {}) });
    for (const [method, path, payload] of [
      ['GET', '/list-sessions', undefined],
      ['POST', '/revoke-session', { token: 'anything' }],
      ['POST', '/revoke-sessions', {}],
      ['POST', '/revoke-other-sessions', {}],
      ['POST', '/update-user', { name: 'Mallory' }],
      ['GET', '/list-accounts', undefined],
    ] as const) {
      const refused = await identity(method, path, payload);
      expect(refused.statusCode, path).toBe(403);
      expect(refused.json(), path).toMatchObject({ code: 'FORBIDDEN', error: OPERATOR_REFUSALS.secondFactorRequired });
    }
    // What signing in needs still works: reading the session (the console asks for the second factor next).
    expect((await identity('GET', '/get-session')).statusCode).toBe(200);
    // An operator who never set up an authenticator is told to.
    const fresh = `fresh.lock.${tag}@example.com`;
    await app.roots.operatorAccounts.add({ email: 'test' }, fresh, 'viewer');
    const freshCookie = await signInWithEmailCode(app, fresh);
    const unenrolled = await app.inject({ method: 'GET', url: '/api/auth/list-sessions', headers: { cookie: freshCookie } });
    expect(unenrolled.json()).toMatchObject({ error: OPERATOR_REFUSALS.enrollmentRequired });

    // With the second factor, the same session may list its sessions; a customer always may.
    clock.advance(30_000);
    expect((await verify(cookie, totpCode(app, owner.secret, ownerEmail), '192.0.2.8')).statusCode).toBe(200);
    const listed = await identity('GET', '/list-sessions');
    expect(listed.statusCode).toBe(200);
    expect(listed.json<unknown[]>().length).toBeGreaterThan(0);
    const customer = await signInWithEmailCode(app, `customer.lock.${tag}@example.com`);
    expect((await app.inject({ method: 'GET', url: '/api/auth/list-sessions', headers: { cookie: customer } })).statusCode).toBe(200);
  });
});
