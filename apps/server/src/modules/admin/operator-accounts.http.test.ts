import { OPERATOR_REFUSALS, type AuditList, type OperatorMe, type OperatorSessionList, type TotpEnrollment } from '@roots/contracts/admin';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, type RootsApp } from '../../app';
import { loadConfig } from '../../config/env';
import type { Database } from '../../db/database';
import { adminAudit, authSessions, operators } from '../../db/schema';
import { HOUR_MS, ManualClock } from '../../lib/clock';
import { makeWebDist, openTestDatabase, testDatabases } from '../../test/helpers';
import { signInAsOperator, totpCode } from '../../test/operator';
import { signInWithEmailCode } from '../../test/sign-in';
import { OPERATOR_IDLE_MS } from './operator-accounts';

const ORIGIN = 'http://127.0.0.1:3000';

/** Operator accounts (issue 25): the second factor, sessions that end, and the audit trail's pages. */
describe.each(testDatabases())('operator accounts over HTTP on $name', ({ url }) => {
  let database: Database;
  let app: RootsApp;
  const clock = new ManualClock('2026-04-01T09:00:00.000Z');
  const tag = url ? 'pg' : 'pglite';
  const owner = `owner.accounts.${tag}@example.com`;
  let ownerCookie: string;

  beforeAll(async () => {
    database = await openTestDatabase(url);
    const config = loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent', WEB_DIST_DIR: makeWebDist(), RATE_LIMIT_PER_MINUTE: '100000' });
    app = await buildApp({ config, database, clock });
    ownerCookie = (await signInAsOperator(app, owner, 'owner')).cookie;
  });
  afterAll(async () => {
    await app?.close();
    await database?.close();
  });

  const call = (cookie: string, path: string, payload?: object) =>
    app.inject({
      method: payload ? 'POST' : 'GET',
      url: path,
      headers: { cookie, ...(payload ? { origin: ORIGIN } : {}) },
      ...(payload ? { payload } : {}),
    });

  it('an operator without an authenticator is led to enroll; every other endpoint refuses the session until a code passes', async () => {
    const email = `fresh.accounts.${tag}@example.com`;
    await app.roots.operatorAccounts.add({ email: 'test' }, email, 'support');
    const cookie = await signInWithEmailCode(app, email);
    expect((await call(cookie, '/api/admin/me')).json<OperatorMe>()).toMatchObject({ role: 'support', second_factor: 'enroll' });
    for (const path of [
      '/api/admin/funnel?from=2026-04-01&to=2026-04-01',
      '/api/admin/customers?q=someone@example.com',
      '/api/admin/sessions',
    ]) {
      const refused = await call(cookie, path);
      expect(refused.statusCode, path).toBe(403);
      expect(refused.json()).toMatchObject({ code: 'FORBIDDEN', error: OPERATOR_REFUSALS.enrollmentRequired });
    }

    const enrollment = (await call(cookie, '/api/admin/second-factor/enroll', {})).json<TotpEnrollment>();
    expect(enrollment.uri).toMatch(/^otpauth:\/\/totp\//);
    expect(enrollment.uri).toContain(`secret=${enrollment.secret}`);
    expect(enrollment.qr_svg).toContain('<svg');
    // The secret is sealed at rest: not in the row in any readable form.
    const [row] = await database.db.select().from(operators).where(eq(operators.email, email));
    expect(row!.totpSealed).toBeTruthy();
    expect(JSON.stringify(row)).not.toContain(enrollment.secret);
    expect(row!.totpEnrolledAt).toBeNull();

    // Still refused before the first code; a wrong code is refused too.
    expect((await call(cookie, '/api/admin/sessions')).statusCode).toBe(403);
    const wrong = String((Number(totpCode(app, enrollment.secret, email)) + 1) % 1_000_000).padStart(6, '0');
    expect((await call(cookie, '/api/admin/second-factor/verify', { code: wrong })).statusCode).toBe(403);
    expect((await call(cookie, '/api/admin/second-factor/verify', { code: totpCode(app, enrollment.secret, email) })).statusCode).toBe(200);
    expect((await call(cookie, '/api/admin/me')).json<OperatorMe>().second_factor).toBe('passed');
    expect((await call(cookie, '/api/admin/sessions')).statusCode).toBe(200);
    // Enrolled: no second secret can replace it from a session.
    expect((await call(cookie, '/api/admin/second-factor/enroll', {})).statusCode).toBe(409);

    // A new sign-in of the same operator must pass the code again; the code just used is refused (replay).
    const second = await signInWithEmailCode(app, email);
    const needsCode = await call(second, '/api/admin/funnel?from=2026-04-01&to=2026-04-01');
    expect(needsCode.statusCode).toBe(403);
    expect(needsCode.json()).toMatchObject({ error: OPERATOR_REFUSALS.secondFactorRequired });
    expect((await call(second, '/api/admin/second-factor/verify', { code: totpCode(app, enrollment.secret, email) })).statusCode).toBe(403);
    expect((await call(second, '/api/admin/second-factor/verify', { code: totpCode(app, enrollment.secret, email, 1) })).statusCode).toBe(
      200,
    );
    expect((await call(second, '/api/admin/funnel?from=2026-04-01&to=2026-04-01')).statusCode).toBe(200);

    const actions = (await call(ownerCookie, `/api/admin/audit?operator=${encodeURIComponent(email)}`)).json<AuditList>().entries;
    // The wrong code and the replayed one are audited too (ADR 168).
    expect(actions.map((entry) => entry.action).sort()).toEqual([
      'operator.second_factor_enrolled',
      'operator.second_factor_failed',
      'operator.second_factor_failed',
      'operator.sign_in',
      'operator.sign_in',
    ]);
    expect(actions.find((entry) => entry.action === 'operator.sign_in')!.detail).toMatchObject({ second_factor: 'totp' });
  });

  it('customers are not asked for a second factor', async () => {
    const customer = await signInWithEmailCode(app, `customer.accounts.${tag}@example.com`);
    expect((await call(customer, '/api/account/me')).statusCode).toBe(200);
  });

  it('removing an operator ends their open sessions at once, and it is audited', async () => {
    const support = await signInAsOperator(app, `removed.accounts.${tag}@example.com`, 'support');
    expect((await call(support.cookie, '/api/admin/customers?q=nobody@example.com')).statusCode).toBe(200);
    expect((await call(ownerCookie, '/api/admin/operators/remove', { email: support.email })).statusCode).toBe(200);
    const refused = await call(support.cookie, '/api/admin/customers?q=nobody@example.com');
    expect(refused.statusCode).toBe(401);
    const [left] = await database.db
      .select({ count: sql<number>`count(*)::int` })
      .from(authSessions)
      .where(sql`${authSessions.userId} in (select id from auth_users where email = ${support.email})`);
    expect(left!.count).toBe(0);
    const entries = (await call(ownerCookie, '/api/admin/audit?action=operator.remove')).json<AuditList>().entries;
    expect(entries[0]).toMatchObject({ operator_email: owner, detail: { operator: support.email, sessions_ended: 1 } });
  });

  it('a role change ends the operator’s sessions; the next sign-in has the new role', async () => {
    const email = `demoted.accounts.${tag}@example.com`;
    const support = await signInAsOperator(app, email, 'support');
    expect((await call(ownerCookie, '/api/admin/operators/role', { email, role: 'viewer' })).statusCode).toBe(200);
    expect((await call(support.cookie, '/api/admin/me')).statusCode).toBe(401);
    const again = await signInWithEmailCode(app, email);
    await call(again, '/api/admin/second-factor/verify', { code: totpCode(app, support.secret, email, 1) });
    expect((await call(again, '/api/admin/me')).json<OperatorMe>()).toMatchObject({ role: 'viewer', second_factor: 'passed' });
    const refund = await call(again, '/api/admin/customers/refund', { charge_id: crypto.randomUUID(), reason: 'no' });
    expect(refund.statusCode).toBe(403);
    expect(refund.json()).toMatchObject({ error: OPERATOR_REFUSALS.roleForbidden });
    const [change] = (await call(ownerCookie, '/api/admin/audit?action=operator.role_change')).json<AuditList>().entries;
    expect(change).toMatchObject({ detail: { operator: email, from: 'support', to: 'viewer' } });
    // The last owner cannot demote or remove themselves.
    expect((await call(ownerCookie, '/api/admin/operators/role', { email: owner, role: 'support' })).statusCode).toBe(409);
    expect((await call(ownerCookie, '/api/admin/operators/remove', { email: owner })).statusCode).toBe(409);
  });

  it('lists sessions (own for everyone, all for owners) and revokes one', async () => {
    const email = `sessions.accounts.${tag}@example.com`;
    const viewer = await signInAsOperator(app, email, 'viewer');
    const own = (await call(viewer.cookie, '/api/admin/sessions')).json<OperatorSessionList>().sessions;
    expect(own.map((row) => row.operator_email)).toEqual([email]);
    expect(own[0]).toMatchObject({ current: true, second_factor_passed: true });
    expect((await call(viewer.cookie, '/api/admin/sessions?all=true')).statusCode).toBe(403);
    const all = (await call(ownerCookie, '/api/admin/sessions?all=true')).json<OperatorSessionList>().sessions;
    expect(all.map((row) => row.operator_email)).toEqual(expect.arrayContaining([owner, email]));
    // A viewer cannot end another operator's session; an owner can.
    const ownersSession = all.find((row) => row.operator_email === owner)!.id;
    expect((await call(viewer.cookie, '/api/admin/sessions/revoke', { id: ownersSession })).statusCode).toBe(403);
    expect((await call(ownerCookie, '/api/admin/sessions/revoke', { id: own[0]!.id })).statusCode).toBe(200);
    expect((await call(viewer.cookie, '/api/admin/me')).statusCode).toBe(401);
  });

  it('an operator session idle past 12 hours is ended', async () => {
    const email = `idle.accounts.${tag}@example.com`;
    const viewer = await signInAsOperator(app, email, 'viewer');
    expect((await call(viewer.cookie, '/api/admin/me')).statusCode).toBe(200);
    clock.advance(OPERATOR_IDLE_MS - HOUR_MS);
    expect((await call(viewer.cookie, '/api/admin/me')).statusCode).toBe(200);
    clock.advance(OPERATOR_IDLE_MS + 1000);
    expect((await call(viewer.cookie, '/api/admin/me')).statusCode).toBe(401);
    // The owner (idle as long) signs in again for the tests after this one.
    ownerCookie = await signInWithEmailCode(app, owner);
  });

  it('pages the audit trail by cursor, filtered by operator, action and days', async () => {
    // A new sign-in must pass the second factor again.
    expect((await call(ownerCookie, '/api/admin/me')).json<OperatorMe>().second_factor).toBe('verify');
    // 7 exports by another owner on two days, newest first in pages of 3.
    const auditor = await signInAsOperator(app, `auditor.accounts.${tag}@example.com`, 'owner');
    for (let index = 0; index < 7; index += 1) {
      if (index === 4) {
        // The next day, in a new session (the first one is over after 24 hours).
        clock.advance(24 * HOUR_MS);
        auditor.cookie = await signInWithEmailCode(app, auditor.email);
        await call(auditor.cookie, '/api/admin/second-factor/verify', { code: totpCode(app, auditor.secret, auditor.email) });
      }
      expect((await call(auditor.cookie, '/api/admin/exports', { name: `table-${index}.csv`, rows: index })).statusCode).toBe(200);
      // Keep the session alive.
      clock.advance(60_000);
    }
    const day = (at: Date) => at.toISOString().slice(0, 10);
    const filter = `operator=${encodeURIComponent(auditor.email)}&action=operator.export`;
    const names: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const page: AuditList = (
        await call(auditor.cookie, `/api/admin/audit?${filter}&limit=3${cursor ? `&cursor=${cursor}` : ''}`)
      ).json<AuditList>();
      names.push(...page.entries.map((entry) => String(entry.detail.name)));
      expect(page.entries.every((entry) => entry.action === 'operator.export' && entry.operator_email === auditor.email)).toBe(true);
      cursor = page.next_cursor;
      pages += 1;
    } while (cursor);
    expect(pages).toBe(3);
    expect(names).toEqual(['table-6.csv', 'table-5.csv', 'table-4.csv', 'table-3.csv', 'table-2.csv', 'table-1.csv', 'table-0.csv']);

    const today = day(clock.now());
    const onlyToday = (await call(auditor.cookie, `/api/admin/audit?${filter}&from=${today}&to=${today}`)).json<AuditList>();
    expect(onlyToday.entries.map((entry) => entry.detail.name)).toEqual(['table-6.csv', 'table-5.csv', 'table-4.csv']);
    const yesterday = day(new Date(clock.now().getTime() - 24 * HOUR_MS));
    const onlyYesterday = (await call(auditor.cookie, `/api/admin/audit?${filter}&to=${yesterday}`)).json<AuditList>();
    expect(onlyYesterday.entries).toHaveLength(4);
    expect((await call(auditor.cookie, '/api/admin/audit?cursor=bm90LWEtY3Vyc29y')).statusCode).toBe(400);
    // Nothing of it can be changed in the database.
    await expect(database.db.delete(adminAudit)).rejects.toThrow();
  });
});
