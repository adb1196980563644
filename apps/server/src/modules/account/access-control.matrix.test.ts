import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RootsApp } from '../../app';
import type { Database } from '../../db/database';
import { adminAudit, authUsers, profiles, reports, subscriptions } from '../../db/schema';
import { OPERATOR_REFUSALS, OPERATOR_ROLES, ROLE_PERMISSIONS, type OperatorRole } from '@roots/contracts/admin';
import { ADMIN_ENDPOINT_ACCESS, ADMIN_ENDPOINTS } from '../admin/admin.routes';
import { buildTestApp, openTestDatabase, testDatabases } from '../../test/helpers';
import { signInAsOperator } from '../../test/operator';
import { signInWithEmailCode } from '../../test/sign-in';
import { seedReport, seedSubscription } from '../../test/account-fixtures';
import { facelessPng } from '../reports/report-fixtures';

/**
 * The access-control matrix of issue 8 (ADR 071, 075): every account, profile, subscription and
 * report endpoint, called by the owner of the resource (allowed), by another signed-in user and by a
 * visitor (both refused, and nothing of the owner's changes). Rows run in order; the last one
 * deletes the owner.
 */

type Caller = 'owner' | 'other user' | 'visitor';
type Method = 'GET' | 'PUT' | 'POST' | 'DELETE';
type Call = { method: Method; url: string; payload?: object };
type World = {
  alice: { email: string; uid: string; cookie: string; subscription: string; report: string };
  bob: { email: string; uid: string; cookie: string; subscription: string; report: string };
};
type Row = {
  endpoint: string;
  /** The request each caller sends (by default the same one, aimed at Alice's resource). */
  call: (world: World, caller: Caller) => Call;
  /** What each caller must get; checks may read the database to see nothing changed. */
  expect: Record<Caller, (answer: LightMyRequestResponse, world: World) => void | Promise<void>>;
  /** Who sends it: by default the owner is Alice's session, the other user Bob's, the visitor no cookie. */
  cookieOf?: (world: World, caller: Caller) => string | undefined;
};

const CALLERS_IN_ORDER: readonly Caller[] = ['visitor', 'other user', 'owner'];

describe.each(testDatabases())('access-control matrix on $name', ({ url }) => {
  let database: Database;
  let app: RootsApp;
  const tag = url ? 'pg' : 'pglite';
  const world = {} as World;

  async function customer(label: string) {
    const email = `${label}.matrix.${tag}@example.com`;
    const cookie = await signInWithEmailCode(app, email);
    const uid = (await app.inject({ method: 'GET', url: '/api/account/me', headers: { cookie } })).json<{ user: { uid: string } }>().user
      .uid;
    const subscription = await seedSubscription(database, email, { userId: uid });
    const report = await seedReport(database, { subscriptionId: subscription, email, userId: uid });
    return { email, uid, cookie, subscription, report };
  }

  beforeAll(async () => {
    database = await openTestDatabase(url);
    app = await buildTestApp({ database });
    // Alice signs in before she has a purchase (the matrix is about her resources, not has_purchase).
    world.alice = await customer('alice');
    world.bob = await customer('bob');
  });
  afterAll(async () => {
    await app?.close();
    await database?.close();
  });

  const statusOfAlicesSubscription = async () =>
    (await database.db.select().from(subscriptions).where(eq(subscriptions.id, world.alice.subscription)))[0]?.status;
  const reportsUnder = async (subscriptionId: string) =>
    database.db.select({ id: reports.id }).from(reports).where(eq(reports.subscriptionId, subscriptionId));
  const aliceProfileName = async () =>
    (await database.db.select().from(profiles).where(eq(profiles.userId, world.alice.uid)))[0]?.name ?? null;

  const status = (code: number) => (answer: LightMyRequestResponse) => expect(answer.statusCode, answer.body).toBe(code);
  const signInRequired = (answer: LightMyRequestResponse) => {
    expect(answer.statusCode, answer.body).toBe(401);
    expect(answer.json()).toMatchObject({ error: 'user-token-expired', code: 'UNAUTHORIZED' });
  };
  /** Another user's view of a self-scoped endpoint: their own answer, nothing of Alice's in it. */
  const nothingOfAlices = (answer: LightMyRequestResponse, { alice }: World) => {
    expect(answer.statusCode, answer.body).toBe(200);
    for (const secret of [alice.email, alice.uid, alice.subscription, alice.report, 'Alice Matrix'])
      expect(answer.body).not.toContain(secret);
  };
  const profileBody = (name: string) => ({ name, birth_date: '1990-04-02', birth_time: '07:30' });

  const rows: Row[] = [
    {
      endpoint: 'GET /api/account/me',
      call: () => ({ method: 'GET', url: '/api/account/me' }),
      expect: {
        owner: (answer, { alice }) => expect(answer.json()).toMatchObject({ user: { uid: alice.uid, email: alice.email } }),
        'other user': nothingOfAlices,
        visitor: signInRequired,
      },
    },
    {
      endpoint: 'PUT /api/account/profile',
      call: (_world, caller) => ({
        method: 'PUT',
        url: '/api/account/profile',
        payload: profileBody(caller === 'owner' ? 'Alice Matrix' : 'Someone Else'),
      }),
      expect: {
        owner: async (answer) => {
          status(200)(answer);
          expect(await aliceProfileName()).toBe('Alice Matrix');
        },
        'other user': async () => expect(await aliceProfileName()).toBeNull(),
        visitor: async (answer) => {
          signInRequired(answer);
          expect(await aliceProfileName()).toBeNull();
        },
      },
    },
    {
      endpoint: 'GET /api/account/profile',
      call: () => ({ method: 'GET', url: '/api/account/profile' }),
      expect: {
        owner: (answer) => expect(answer.json()).toEqual(profileBody('Alice Matrix')),
        'other user': (answer, current) => {
          nothingOfAlices(answer, current);
          expect(answer.json()).toMatchObject({ name: 'Someone Else' });
        },
        visitor: signInRequired,
      },
    },
    {
      endpoint: 'GET /api/account/subscriptions',
      call: () => ({ method: 'GET', url: '/api/account/subscriptions' }),
      expect: {
        owner: (answer, { alice }) =>
          expect(answer.json<{ subscriptions: Array<{ id: string }> }>().subscriptions.map((item) => item.id)).toEqual([
            alice.subscription,
          ]),
        'other user': nothingOfAlices,
        visitor: signInRequired,
      },
    },
    {
      endpoint: 'POST /report/list-reports (signed in, all)',
      call: () => ({ method: 'POST', url: '/report/list-reports', payload: {} }),
      expect: {
        owner: (answer, { alice }) =>
          expect(answer.json<{ reports: Array<{ report_id: string }> }>().reports.map((item) => item.report_id)).toEqual([alice.report]),
        'other user': nothingOfAlices,
        visitor: signInRequired,
      },
    },
    {
      endpoint: 'POST /report/list-reports (signed in, one subscription)',
      call: ({ alice }) => ({ method: 'POST', url: '/report/list-reports', payload: { subscription_id: alice.subscription } }),
      expect: { owner: status(200), 'other user': status(404), visitor: signInRequired },
    },
    {
      endpoint: 'POST /report/get-report (signed in)',
      call: ({ alice }) => ({ method: 'POST', url: '/report/get-report', payload: { report_id: alice.report } }),
      expect: {
        owner: (answer, { alice }) => expect(answer.json()).toMatchObject({ report: { report_id: alice.report, status: 'failed' } }),
        'other user': status(404),
        visitor: signInRequired,
      },
    },
    {
      // The funnel's way (ADR 060, ADR 085): no session; the buyer's browser holds the purchase's
      // proof. The owner holds Alice's; the other user names their own purchase with its proof; the
      // visitor names Alice's purchase and email without the proof.
      endpoint: 'POST /report/get-report (naming a purchase)',
      call: ({ alice, bob }, caller) => ({
        method: 'POST',
        url: '/report/get-report',
        payload: {
          report_id: alice.report,
          subscription_id: caller === 'other user' ? bob.subscription : alice.subscription,
          email: caller === 'other user' ? bob.email : alice.email,
        },
      }),
      cookieOf: ({ alice, bob }, caller) =>
        caller === 'owner'
          ? app.roots.proof.cookieHeader([alice.subscription])
          : caller === 'other user'
            ? app.roots.proof.cookieHeader([bob.subscription])
            : undefined,
      expect: { owner: status(200), 'other user': status(404), visitor: status(403) },
    },
    {
      // A failed report has no PDF: the owner passes the ownership check and hears 'not ready'.
      endpoint: 'POST /pdf-report/content (signed in)',
      call: ({ alice }) => ({ method: 'POST', url: '/pdf-report/content', payload: { report_id: alice.report } }),
      expect: { owner: status(409), 'other user': status(404), visitor: signInRequired },
    },
    {
      endpoint: 'POST /report/update (feedback on a report)',
      call: ({ alice, bob }, caller) => ({
        method: 'POST',
        url: '/report/update',
        payload: {
          subscription_id: alice.subscription,
          userId: caller === 'other user' ? bob.uid : alice.uid,
          feedback: { report_id: alice.report, looks_correct: false, text: `from ${caller}` },
        },
      }),
      expect: {
        owner: (answer) => expect(answer.json()).toMatchObject({ feedback_saved: true }),
        'other user': status(403),
        visitor: signInRequired,
      },
    },
    {
      // The signed-in app's 'Take a selfie' (ADR 145): no email, the session is the proof. Another
      // user naming Alice's purchase is refused, a visitor must sign in, and nothing is made under it.
      endpoint: 'POST /report/create (signed in, naming a purchase without its email)',
      call: ({ alice }) => ({
        method: 'POST',
        url: '/report/create',
        payload: { subscription_id: alice.subscription, image: facelessPng(64, 64).toString('base64') },
      }),
      expect: {
        owner: async (answer, { alice }) => {
          expect(answer.json()).toMatchObject({ status: 'pending' });
          expect(await reportsUnder(alice.subscription)).toHaveLength(2);
        },
        'other user': async (answer, { alice }) => {
          status(403)(answer);
          expect(await reportsUnder(alice.subscription)).toHaveLength(1);
        },
        visitor: async (answer, { alice }) => {
          signInRequired(answer);
          expect(await reportsUnder(alice.subscription)).toHaveLength(1);
        },
      },
    },
    {
      // A signed-in purchase may only be made as oneself: another user's id in the body is refused
      // before any payment is looked at; the owner's identity is accepted (the unknown execution then fails).
      endpoint: 'POST /subs/create (firebase_id)',
      call: ({ alice }) => ({
        method: 'POST',
        url: '/subs/create',
        payload: {
          plan_id: 'roots_3d1_7d2499',
          email: alice.email,
          firebase_id: alice.uid,
          card: { execution_id: 'exe_matrix_unknown' },
          consent: { terms_text: 'terms', terms_version: 'v1' },
        },
      }),
      expect: {
        owner: (answer) => expect(answer.statusCode, answer.body).not.toBe(401),
        'other user': status(401),
        visitor: status(401),
      },
    },
    {
      endpoint: 'POST /subs/finalize (Alice’s linked subscription)',
      call: ({ alice }) => ({
        method: 'POST',
        url: '/subs/finalize',
        payload: { subscription_id: alice.subscription, email: alice.email },
      }),
      expect: {
        owner: (answer, { alice }) => expect(answer.json()).toEqual({ id: alice.subscription }),
        'other user': status(404),
        visitor: status(401),
      },
    },
    {
      // By id: the signed-in owner (or the buyer's browser) sees it; an id alone proves nothing (ADR 085).
      endpoint: 'POST /rec/subscriptions/{id}',
      call: ({ alice }) => ({ method: 'POST', url: `/rec/subscriptions/${alice.subscription}` }),
      expect: {
        owner: (answer, { alice }) =>
          expect(answer.json<{ subscriptions: Array<{ id: string }> }>().subscriptions.map((item) => item.id)).toEqual([
            alice.subscription,
          ]),
        'other user': (answer, { alice }) => {
          status(404)(answer);
          expect(answer.body).not.toContain(alice.subscription);
        },
        visitor: status(404),
      },
    },
    {
      // A one-click add-on on Alice's stored card: only Alice may ask (her seeded purchase has no
      // stored card, so her own ask gets past the ownership check and stops there).
      endpoint: 'POST /subs/create-no-user (add-on on Alice’s subscription)',
      call: ({ alice }) => ({
        method: 'POST',
        url: '/subs/create-no-user',
        payload: { plan_id: 'roots_ultimate_pack_4999_otp', email: alice.email, subscription_id: alice.subscription },
      }),
      expect: {
        owner: (answer) => expect([404, 200]).not.toContain(answer.statusCode),
        'other user': status(404),
        visitor: status(404),
      },
    },
    {
      endpoint: 'POST /api/account/subscriptions/{id}/cancel',
      call: ({ alice }) => ({ method: 'POST', url: `/api/account/subscriptions/${alice.subscription}/cancel` }),
      expect: {
        owner: async (answer) => {
          expect(answer.json()).toEqual({ message: 'Your subscription has been canceled' });
          expect(await statusOfAlicesSubscription()).toBe('canceled');
        },
        'other user': async (answer) => {
          status(404)(answer);
          expect(await statusOfAlicesSubscription()).toBe('trialing');
        },
        visitor: async (answer) => {
          signInRequired(answer);
          expect(await statusOfAlicesSubscription()).toBe('trialing');
        },
      },
    },
    {
      // Self-scoped: the other user deletes only their own account; Alice's is untouched until she asks.
      endpoint: 'DELETE /api/account',
      call: () => ({ method: 'DELETE', url: '/api/account' }),
      expect: {
        owner: async (answer, { alice }) => {
          expect(answer.json()).toEqual({ deleted: true });
          expect(await database.db.select().from(authUsers).where(eq(authUsers.id, alice.uid))).toEqual([]);
          expect(await database.db.select().from(reports).where(eq(reports.id, alice.report))).toEqual([]);
        },
        'other user': async (answer, { alice, bob }) => {
          expect(answer.json()).toEqual({ deleted: true });
          expect(await database.db.select().from(authUsers).where(eq(authUsers.id, bob.uid))).toEqual([]);
          expect(await database.db.select().from(authUsers).where(eq(authUsers.id, alice.uid))).toHaveLength(1);
          expect(await database.db.select().from(reports).where(eq(reports.id, alice.report))).toHaveLength(1);
          expect(await aliceProfileName()).toBe('Alice Matrix');
        },
        visitor: async (answer, { alice }) => {
          signInRequired(answer);
          expect(await database.db.select().from(authUsers).where(eq(authUsers.id, alice.uid))).toHaveLength(1);
        },
      },
    },
  ];

  it.each(rows)('$endpoint: the owner is allowed; another user and a visitor are refused', async (row) => {
    for (const caller of CALLERS_IN_ORDER) {
      const request = row.call(world, caller);
      const cookie = row.cookieOf
        ? row.cookieOf(world, caller)
        : caller === 'owner'
          ? world.alice.cookie
          : caller === 'other user'
            ? world.bob.cookie
            : undefined;
      const answer = await app.inject({
        method: request.method,
        url: request.url,
        headers: cookie ? { cookie, origin: 'http://127.0.0.1:3000' } : {},
        ...(request.payload ? { payload: request.payload } : {}),
      });
      try {
        await row.expect[caller](answer, world);
      } catch (error) {
        throw new Error(`${row.endpoint} as ${caller}: ${answer.statusCode} ${answer.body}\n${String(error)}`, { cause: error });
      }
    }
  });

  it('a forged session cookie is a visitor', async () => {
    const forged = await app.inject({
      method: 'GET',
      url: '/api/account/me',
      headers: { cookie: 'better-auth.session_token=forged.value' },
    });
    signInRequired(forged);
  });

  it("POST /api/cancel by subscription id: the buyer's browser or the owner, never an id alone (ADR 085)", async () => {
    const email = `visitor-cancel.matrix.${tag}@example.com`;
    const id = await seedSubscription(database, email);
    const statusOf = async (subscriptionId: string) =>
      (await database.db.select().from(subscriptions).where(eq(subscriptions.id, subscriptionId)))[0]?.status;
    // A visitor, another signed-in user, and a browser holding proof of another purchase: refused, nothing changes.
    for (const cookie of [undefined, world.bob.cookie, app.roots.proof.cookieHeader([world.bob.subscription])]) {
      const refused = await app.inject({
        method: 'POST',
        url: '/api/cancel',
        payload: { id, refund: true },
        headers: cookie ? { cookie, origin: 'http://127.0.0.1:3000' } : {},
      });
      expect(refused.statusCode, refused.body).toBe(404);
      expect(refused.json()).toMatchObject({ error: 'No subscriptions', code: 'NOT_FOUND' });
      expect(await statusOf(id)).toBe('trialing');
    }
    // A forged proof is no proof.
    const forged = app.roots.proof.cookieHeader([id]).replace(/.$/, (last) => (last === 'A' ? 'B' : 'A'));
    expect(
      (
        await app.inject({
          method: 'POST',
          url: '/api/cancel',
          payload: { id },
          headers: { cookie: forged, origin: 'http://127.0.0.1:3000' },
        })
      ).statusCode,
    ).toBe(404);
    // The browser that bought it cancels in one call (cancelling is as easy as buying).
    const canceled = await app.inject({
      method: 'POST',
      url: '/api/cancel',
      payload: { id },
      headers: { cookie: app.roots.proof.cookieHeader([id]), origin: 'http://127.0.0.1:3000' },
    });
    expect(canceled.statusCode, canceled.body).toBe(200);
    expect(canceled.json()).toMatchObject({ message: 'Your subscription has been canceled' });
    expect(await statusOf(id)).toBe('canceled');
    const unknown = await app.inject({ method: 'POST', url: '/api/cancel', payload: { id: randomUUID() } });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toMatchObject({ error: 'No subscriptions' });
  });
});

/**
 * The operator console (issue 13, issue 25): every `/api/admin/*` endpoint answers 401 to a visitor
 * and 403 to a signed-in customer, and changes nothing; each operator role gets through exactly the
 * endpoints the role table (ROLE_PERMISSIONS) allows, and 403 'operator-role-forbidden' elsewhere.
 */
describe.each(testDatabases())('operator endpoints in the access-control matrix on $name', ({ url }) => {
  let database: Database;
  let app: RootsApp;
  const tag = url ? 'pg' : 'pglite';
  const customerEmail = `customer.admin-matrix.${tag}@example.com`;
  let customerCookie: string;
  const operatorCookies = {} as Record<OperatorRole, string>;
  const subscriptionOf = {} as Record<OperatorRole, string>;

  beforeAll(async () => {
    database = await openTestDatabase(url);
    app = await buildTestApp({ database });
    customerCookie = await signInWithEmailCode(app, customerEmail);
    for (const role of OPERATOR_ROLES) {
      operatorCookies[role] = (await signInAsOperator(app, `${role}.admin-matrix.${tag}@example.com`, role)).cookie;
      subscriptionOf[role] = await seedSubscription(database, customerEmail);
    }
  });
  afterAll(async () => {
    await app?.close();
    await database?.close();
  });

  const range = 'from=2026-01-01&to=2026-01-31';
  /**
   * Each endpoint of ADMIN_ENDPOINTS with a request an operator may send (on the role's own
   * subscription), and the status an operator the role table allows gets.
   */
  const calls = (
    role: OperatorRole,
  ): Array<{ endpoint: (typeof ADMIN_ENDPOINTS)[number]; url: string; payload?: object; allowedStatus: number }> => [
    { endpoint: 'GET /api/admin/me', url: '/api/admin/me', allowedStatus: 200 },
    // Already enrolled: a second authenticator is refused.
    { endpoint: 'POST /api/admin/second-factor/enroll', url: '/api/admin/second-factor/enroll', allowedStatus: 409 },
    // A wrong code.
    {
      endpoint: 'POST /api/admin/second-factor/verify',
      url: '/api/admin/second-factor/verify',
      payload: { code: '000000' },
      allowedStatus: 403,
    },
    { endpoint: 'GET /api/admin/sessions', url: '/api/admin/sessions', allowedStatus: 200 },
    { endpoint: 'POST /api/admin/sessions/revoke', url: '/api/admin/sessions/revoke', payload: { id: randomUUID() }, allowedStatus: 404 },
    { endpoint: 'GET /api/admin/operators', url: '/api/admin/operators', allowedStatus: 200 },
    {
      endpoint: 'POST /api/admin/operators/role',
      url: '/api/admin/operators/role',
      payload: { email: `nobody.admin-matrix.${tag}@example.com`, role: 'viewer' },
      allowedStatus: 404,
    },
    {
      endpoint: 'POST /api/admin/operators/remove',
      url: '/api/admin/operators/remove',
      payload: { email: `nobody.admin-matrix.${tag}@example.com` },
      allowedStatus: 404,
    },
    { endpoint: 'POST /api/admin/exports', url: '/api/admin/exports', payload: { name: 'funnel.csv', rows: 3 }, allowedStatus: 200 },
    { endpoint: 'GET /api/admin/audit', url: '/api/admin/audit', allowedStatus: 200 },
    { endpoint: 'GET /api/admin/funnel', url: `/api/admin/funnel?${range}`, allowedStatus: 200 },
    { endpoint: 'GET /api/admin/revenue', url: `/api/admin/revenue?${range}`, allowedStatus: 200 },
    { endpoint: 'GET /api/admin/revenue/reconciliation', url: `/api/admin/revenue/reconciliation?${range}`, allowedStatus: 200 },
    { endpoint: 'GET /api/admin/quality', url: `/api/admin/quality?${range}`, allowedStatus: 200 },
    { endpoint: 'GET /api/admin/customers', url: `/api/admin/customers?q=${encodeURIComponent(customerEmail)}`, allowedStatus: 200 },
    {
      endpoint: 'POST /api/admin/customers/refund',
      url: '/api/admin/customers/refund',
      payload: { charge_id: randomUUID(), reason: 'matrix' },
      allowedStatus: 404,
    },
    {
      endpoint: 'POST /api/admin/customers/cancel',
      url: '/api/admin/customers/cancel',
      payload: { subscription_id: subscriptionOf[role], when: 'period_end', reason: 'matrix' },
      allowedStatus: 200,
    },
    {
      endpoint: 'POST /api/admin/customers/resend',
      url: '/api/admin/customers/resend',
      payload: { subscription_id: subscriptionOf[role], what: 'cancel_link' },
      allowedStatus: 200,
    },
    {
      endpoint: 'POST /api/admin/customers/delete',
      url: '/api/admin/customers/delete',
      payload: { email: `nobody.admin-matrix.${tag}@example.com` },
      allowedStatus: 200,
    },
    {
      endpoint: 'POST /api/admin/disputes/evidence',
      url: '/api/admin/disputes/evidence',
      payload: { dispute_id: 'dp_matrix', text: 'matrix' },
      allowedStatus: 404,
    },
    {
      endpoint: 'POST /api/admin/disputes/accept',
      url: '/api/admin/disputes/accept',
      payload: { dispute_id: 'dp_matrix' },
      allowedStatus: 404,
    },
    { endpoint: 'GET /api/admin/queues/renewals', url: '/api/admin/queues/renewals?days=7', allowedStatus: 200 },
    { endpoint: 'GET /api/admin/queues/past-due', url: '/api/admin/queues/past-due', allowedStatus: 200 },
    { endpoint: 'GET /api/admin/queues/failed-payments', url: '/api/admin/queues/failed-payments', allowedStatus: 200 },
    { endpoint: 'GET /api/admin/queues/unclaimed', url: '/api/admin/queues/unclaimed', allowedStatus: 200 },
    { endpoint: 'GET /api/admin/queues/disputes', url: '/api/admin/queues/disputes', allowedStatus: 200 },
    { endpoint: 'GET /api/admin/queues/webhooks', url: '/api/admin/queues/webhooks', allowedStatus: 200 },
    { endpoint: 'GET /api/admin/search', url: `/api/admin/search?q=${encodeURIComponent(customerEmail.slice(0, 5))}`, allowedStatus: 200 },
    {
      endpoint: 'GET /api/admin/customers/timeline',
      url: `/api/admin/customers/timeline?email=${encodeURIComponent(customerEmail)}`,
      allowedStatus: 200,
    },
    { endpoint: 'GET /api/admin/plans', url: `/api/admin/plans?${range}`, allowedStatus: 200 },
  ];

  it('covers every operator endpoint', () => {
    expect(calls('owner').map((call) => call.endpoint)).toEqual([...ADMIN_ENDPOINTS]);
  });

  const send = (call: ReturnType<typeof calls>[number], cookie: string | undefined) => {
    const method = call.endpoint.split(' ')[0] as 'GET' | 'POST';
    return app.inject({
      method,
      url: call.url,
      // State changes with a cookie name our origin, as a browser on our pages does (ADR 111).
      headers: cookie ? { cookie, ...(method === 'POST' ? { origin: 'http://127.0.0.1:3000' } : {}) } : {},
      ...(call.payload ? { payload: call.payload } : {}),
    });
  };
  const auditCount = async () => (await database.db.select().from(adminAudit)).length;

  it.each(ADMIN_ENDPOINTS.map((endpoint) => ({ endpoint })))('$endpoint: a visitor gets 401, a customer 403', async ({ endpoint }) => {
    const call = calls('owner').find((candidate) => candidate.endpoint === endpoint)!;
    const auditBefore = await auditCount();
    const statusNow = async () =>
      (await database.db.select().from(subscriptions).where(eq(subscriptions.id, subscriptionOf.owner)))[0]?.status;
    const statusBefore = await statusNow();

    const visitor = await send(call, undefined);
    expect(visitor.statusCode, visitor.body).toBe(401);
    expect(visitor.json()).toMatchObject({ error: 'user-token-expired', code: 'UNAUTHORIZED' });
    const customer = await send(call, customerCookie);
    expect(customer.statusCode, customer.body).toBe(403);
    expect(customer.json()).toMatchObject({ code: 'FORBIDDEN', error: OPERATOR_REFUSALS.notOperator });
    expect(customer.body).not.toContain(customerEmail);
    // Neither left a trace nor changed the customer's subscription.
    expect(await auditCount()).toBe(auditBefore);
    expect(await statusNow()).toBe(statusBefore);
  });

  it.each(OPERATOR_ROLES.flatMap((role) => ADMIN_ENDPOINTS.map((endpoint) => ({ role, endpoint }))))(
    '$role × $endpoint: through when the role table allows it, else 403 operator-role-forbidden',
    async ({ role, endpoint }) => {
      const call = calls(role).find((candidate) => candidate.endpoint === endpoint)!;
      const access = ADMIN_ENDPOINT_ACCESS[endpoint];
      const allowed = access === 'second-factor' || access === 'operator' || ROLE_PERMISSIONS[role].includes(access);
      const auditBefore = await auditCount();
      const answer = await send(call, operatorCookies[role]);
      if (allowed) {
        expect(answer.statusCode, answer.body).toBe(call.allowedStatus);
        if (answer.statusCode === 403) expect(answer.json<{ error: string }>().error).not.toBe(OPERATOR_REFUSALS.roleForbidden);
      } else {
        expect(answer.statusCode, answer.body).toBe(403);
        expect(answer.json()).toMatchObject({ code: 'FORBIDDEN', error: OPERATOR_REFUSALS.roleForbidden });
        expect(await auditCount()).toBe(auditBefore);
      }
    },
  );

  it('the role table: viewers read, support also cares for customers, owners also manage, export and audit', () => {
    const endpointsOf = (role: OperatorRole) =>
      ADMIN_ENDPOINTS.filter((endpoint) => {
        const access = ADMIN_ENDPOINT_ACCESS[endpoint];
        return access !== 'second-factor' && access !== 'operator' && ROLE_PERMISSIONS[role].includes(access);
      });
    expect(endpointsOf('viewer')).toEqual([
      'GET /api/admin/funnel',
      'GET /api/admin/revenue',
      'GET /api/admin/revenue/reconciliation',
      'GET /api/admin/quality',
      'GET /api/admin/customers',
      'GET /api/admin/queues/renewals',
      'GET /api/admin/queues/past-due',
      'GET /api/admin/queues/failed-payments',
      'GET /api/admin/queues/unclaimed',
      'GET /api/admin/queues/disputes',
      'GET /api/admin/queues/webhooks',
      'GET /api/admin/search',
      'GET /api/admin/customers/timeline',
      'GET /api/admin/plans',
    ]);
    expect(endpointsOf('support').sort()).toEqual(
      [
        ...endpointsOf('viewer'),
        'POST /api/admin/customers/refund',
        'POST /api/admin/customers/cancel',
        'POST /api/admin/customers/resend',
        'POST /api/admin/disputes/evidence',
        'POST /api/admin/disputes/accept',
      ].sort(),
    );
    expect(endpointsOf('owner')).toHaveLength(ADMIN_ENDPOINTS.length - 5);
  });

  it('a forged cookie is a visitor on the operator endpoints too', async () => {
    const forged = await app.inject({ method: 'GET', url: '/api/admin/me', headers: { cookie: 'better-auth.session_token=forged.value' } });
    expect(forged.statusCode).toBe(401);
  });
});
