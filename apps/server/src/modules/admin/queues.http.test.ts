import { createHmac } from 'node:crypto';
import type { CustomerRecord, RevenueReport } from '@roots/contracts/admin';
import type {
  AdminSearchResult,
  CustomerTimeline,
  FailedFirstPayments,
  PastDueList,
  PlanBreakdown,
  UnclaimedPayments,
  UpcomingRenewals,
  WebhookEvents,
} from '@roots/contracts/admin-queues';
import type { Execution } from '@roots/contracts/gateway';
import type { InitSessionResponse } from '@roots/contracts/subscriptions';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, type RootsApp } from '../../app';
import { DEV_GATEWAY_WEBHOOK_SECRET, DEV_SERVER_SECRETS, loadConfig, type Config } from '../../config/env';
import type { Database } from '../../db/database';
import { checkoutSessions, failedFirstPayments, subscriptions } from '../../db/schema';
import { DAY_MS, HOUR_MS, ManualClock } from '../../lib/clock';
import { maskEmail } from '../../lib/mask';
import { startGatewayProcess, type GatewayProcess } from '../../test/gateway-process';
import { makeWebDist, openTestDatabase, testDatabases } from '../../test/helpers';
import { CookieJar, http, payInSession, payWithCard, purchaseBody } from '../../test/shopper';
import { operatorRequests, signInAsOperator } from '../../test/operator';
import { signInWithEmailCode } from '../../test/sign-in';

const WEEKLY = 'roots_3d1_7d2499';
const WEEKLY_NAME = 'Weekly Plan';
const THREE_MONTH = 'roots_3m4800_3m4999';
/** Pays with the shopper present; declines every merchant-initiated charge (insufficient funds). */
const RUNS_DRY_CARD = '4000000000009953';
const DECLINED_CARD = '4000000000000002';
const INSUFFICIENT_FUNDS_CARD = '4000000000009995';

describe.each(testDatabases())('operator queues, search, timeline and plans over HTTP on $name', ({ url }) => {
  // A gateway of its own for each database: the sweep lists every execution of the gateway it is given.
  let gateway: GatewayProcess;
  let database: Database;
  let app: RootsApp;
  let base: string;
  let asOperator: ReturnType<typeof operatorRequests>;
  let config: Config;
  let ourOrigin: string;
  const clock = new ManualClock('2026-03-10T12:00:00.000Z');
  const tag = url ? 'pg' : 'pglite';
  const email = (name: string) => `${name}.${tag}@example.com`;

  beforeAll(async () => {
    gateway = await startGatewayProcess();
    database = await openTestDatabase(url);
    config = loadConfig({
      NODE_ENV: 'test',
      LOG_LEVEL: 'silent',
      WEB_DIST_DIR: makeWebDist(),
      GATEWAY_URL: gateway.url,
      RATE_LIMIT_PER_MINUTE: '100000',
      EMAIL_RATE_LIMIT_PER_HOUR: '100000',
      PAYMENT_SWEEP_INTERVAL_MS: '0',
    });
    // State changes with a cookie name our origin, as a browser on our pages does (ADR 111).
    ourOrigin = new URL(config.publicUrl).origin;
    app = await buildApp({ config, database, clock });
    base = await app.listen({ host: '127.0.0.1', port: 0 });
    config.publicUrl = base;
    const operator = await signInAsOperator(app, email('ops'), 'owner', ourOrigin);
    asOperator = operatorRequests(app, operator, ourOrigin);
  });
  afterAll(async () => {
    await app?.close();
    await database?.close();
    await gateway?.stop();
  });

  const buy = async (planId: string, buyer: string, card = '4242424242424242') => {
    const paid = await payWithCard(base, planId, { number: card });
    const created = await http<{ id: string }>(`${base}/subs/create-no-user`, { json: purchaseBody(paid, buyer), jar: new CookieJar() });
    expect(created.status, created.text).toBe(200);
    return { id: created.body.id, executionId: paid.execution.id };
  };
  /** The checkout as the paywall opens it for a shopper whose email the funnel knows, paid with `card`. */
  const checkoutWith = async (card: string, shopper: string) => {
    const init = await http<InitSessionResponse>(`${base}/init/session`, { json: { plan_id: WEEKLY, email: shopper } });
    expect(init.status, init.text).toBe(200);
    return (await payInSession(init.body, { number: card })).execution;
  };
  const gatewayExecution = async (id: string) =>
    (
      await http<Execution>(`${gateway.url}/merchant/v1/executions/${id}`, {
        headers: { 'x-api-key': DEV_SERVER_SECRETS.GATEWAY_MERCHANT_SECRET },
      })
    ).body;
  /** The gateway's signed webhook for `execution`, as it delivers it (at least once). */
  const deliverWebhook = (eventId: string, type: string, execution: Execution) => {
    const body = JSON.stringify({ id: eventId, type, createdAt: clock.now().toISOString(), data: { execution } });
    const t = Math.floor(clock.now().getTime() / 1000);
    const signature = `t=${t},v1=${createHmac('sha256', DEV_GATEWAY_WEBHOOK_SECRET).update(`${t}.${body}`).digest('hex')}`;
    return http(`${base}/api/gateway/webhooks`, { body, headers: { 'content-type': 'application/json', 'roots-signature': signature } });
  };

  it('records a declined first payment once, from its webhook delivered twice and from the sweep, with the reason and a masked email', async () => {
    const shopper = email('Declined.Shopper');
    const declined = await checkoutWith(DECLINED_CARD, shopper);
    expect(declined.status).toBe('authorizeFailed');
    const full = await gatewayExecution(declined.id);
    for (const delivery of [1, 2])
      expect((await deliverWebhook('evt_declined_1', 'execution.authorizeFailed', full)).status, `delivery ${delivery}`).toBe(200);
    await app.roots.sweep.run();
    const rows = await database.db.select().from(failedFirstPayments).where(eq(failedFirstPayments.executionId, declined.id));
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ source: 'webhook', maskedEmail: maskEmail(shopper), cardLast4: '0002', cardNetwork: 'visa' });
    // No card data beyond the network and the last four, and never the email in clear.
    expect(JSON.stringify(rows[0])).not.toContain('4000000000');
    expect(JSON.stringify(rows[0])).not.toContain(shopper.toLowerCase());

    const queue = await asOperator<FailedFirstPayments>('/api/admin/queues/failed-payments');
    expect(queue.items.find((item) => item.execution_id === declined.id)).toMatchObject({
      plan_id: WEEKLY,
      plan_name: WEEKLY_NAME,
      masked_email: maskEmail(shopper),
      amount_minor: 100,
      decline_code: 'card_declined',
      decline_reason: 'Your card was declined.',
      card_last4: '0002',
    });
    const webhooks = await asOperator<WebhookEvents>('/api/admin/queues/webhooks');
    expect(webhooks.items.find((item) => item.event_id === 'evt_declined_1')).toMatchObject({
      type: 'execution.authorizeFailed',
      execution_id: declined.id,
      outcome: 'declined-first-payment',
      deliveries: 2,
    });
  });

  it('a checkout named with something that is no email still opens; the session keeps no email then', async () => {
    const init = await http<InitSessionResponse>(`${base}/init/session`, { json: { plan_id: WEEKLY, email: 'not an email' } });
    expect(init.status, init.text).toBe(200);
    const [session] = await database.db.select().from(checkoutSessions).where(eq(checkoutSessions.executionId, init.body.executionId));
    expect(session).toMatchObject({ planId: WEEKLY, maskedEmail: null });
  });

  it('the sweep records a declined first payment no webhook announced, and a paid one no purchase claimed', async () => {
    const declined = await checkoutWith(INSUFFICIENT_FUNDS_CARD, email('dry'));
    const unclaimed = await payWithCard(base, THREE_MONTH);
    for (const pass of [1, 2]) expect((await app.roots.sweep.run()).swept, `pass ${pass}`).toBe(true);
    expect(await database.db.select().from(failedFirstPayments).where(eq(failedFirstPayments.executionId, declined.id))).toHaveLength(1);
    const queue = await asOperator<FailedFirstPayments>('/api/admin/queues/failed-payments');
    expect(queue.items.find((item) => item.execution_id === declined.id)).toMatchObject({
      source: 'sweep',
      decline_code: 'insufficient_funds',
      decline_reason: 'Your card has insufficient funds.',
      masked_email: maskEmail(email('dry')),
    });
    // Newest first, and paged.
    expect(queue.total).toBe(2);
    const second = await asOperator<FailedFirstPayments>('/api/admin/queues/failed-payments?page=2&page_size=1');
    expect(second).toMatchObject({ page: 2, page_size: 1, total: 2 });
    expect(second.items).toHaveLength(1);
    expect(second.items[0]!.execution_id).not.toBe(declined.id);

    const payments = await asOperator<UnclaimedPayments>('/api/admin/queues/unclaimed');
    expect(payments.items.find((item) => item.execution_id === unclaimed.execution.id)).toMatchObject({
      plan_id: THREE_MONTH,
      plan_name: expect.not.stringMatching(/^roots_/),
      amount_minor: 4800,
      status: 'waiting',
    });
  });

  it('upcoming renewals: the next N days, with the plan name and the agreed price; past due with the retry schedule and the decline', async () => {
    const weekly = await buy(WEEKLY, email('renews'));
    const dry = await buy(WEEKLY, email('runs-dry'), RUNS_DRY_CARD);
    const upcoming = await asOperator<UpcomingRenewals>('/api/admin/queues/renewals?days=7');
    expect(upcoming.items.map((item) => item.subscription_id)).toEqual(expect.arrayContaining([weekly.id, dry.id]));
    expect(upcoming.items.find((item) => item.subscription_id === weekly.id)).toMatchObject({
      email: email('renews'),
      plan_id: WEEKLY,
      plan_name: WEEKLY_NAME,
      status: 'trialing',
      amount_minor: 2499,
      currency: 'USD',
      due_at: new Date(clock.now().getTime() + 3 * DAY_MS).toISOString(),
    });
    // The trial converts in three days: not within the next two.
    expect((await asOperator<UpcomingRenewals>('/api/admin/queues/renewals?days=2')).items).toEqual([]);

    clock.advance(3 * DAY_MS + HOUR_MS);
    await app.roots.billing.tick();
    const pastDue = await asOperator<PastDueList>('/api/admin/queues/past-due');
    expect(pastDue.items.map((item) => item.subscription_id)).toEqual([dry.id]);
    const [row] = await database.db.select().from(subscriptions).where(eq(subscriptions.id, dry.id));
    const delays = config.RENEWAL_RETRY_DELAYS_HOURS;
    const retries = [row!.dueAt!.getTime()];
    for (const hours of delays.slice(1)) retries.push(retries.at(-1)! + hours * HOUR_MS);
    expect(pastDue.items[0]).toMatchObject({
      plan_name: WEEKLY_NAME,
      amount_minor: 2499,
      retries_done: 0,
      retries_total: delays.length,
      retry_schedule: retries.map((at) => new Date(at).toISOString()),
      last_decline_code: 'insufficient_funds',
    });
    // The first retry is due the first delay after the declined renewal.
    expect(Date.parse(pastDue.items[0]!.retry_schedule[0]!) - clock.now().getTime()).toBe(delays[0]! * HOUR_MS);
    // The paid one renewed: its next renewal is a week on, no longer within three days.
    const later = await asOperator<UpcomingRenewals>('/api/admin/queues/renewals?days=3');
    expect(later.items.map((item) => item.subscription_id)).not.toContain(weekly.id);
    expect((await asOperator<UpcomingRenewals>('/api/admin/queues/renewals?days=8')).items.map((item) => item.subscription_id)).toContain(
      weekly.id,
    );
  });

  it('searches by part of an email in any case, id prefixes, a gateway execution id and a card’s last four, paged', async () => {
    const found = await buy(WEEKLY, email('Search.Target'), '4000000000009953');
    const search = (q: string, extra = '') => asOperator<AdminSearchResult>(`/api/admin/search?q=${encodeURIComponent(q)}${extra}`);
    const ids = (result: AdminSearchResult) => result.items.map((item) => item.subscription_id);

    const byEmail = await search('CH.TARG');
    expect(ids(byEmail)).toEqual([found.id]);
    expect(byEmail.items[0]).toMatchObject({ matched: 'email', plan_name: WEEKLY_NAME, email: email('search.target') });
    expect(ids(await search(found.id.slice(0, 8).toUpperCase()))).toEqual([found.id]);
    expect((await search(found.id.slice(0, 8))).items[0]!.matched).toBe('subscription_id');
    expect(await search(found.executionId)).toMatchObject({ items: [{ subscription_id: found.id, matched: 'execution_id' }], total: 1 });
    // The runs-dry card's last four belongs to two purchases now (this one and the past-due one).
    const byCard = await search('9953');
    expect(byCard.total).toBe(2);
    expect(byCard.items.every((item) => item.card_last4 === '9953' && item.matched === 'card_last4')).toBe(true);
    const firstPage = await search('9953', '&page_size=1');
    const secondPage = await search('9953', '&page_size=1&page=2');
    expect([...ids(firstPage), ...ids(secondPage)].sort()).toEqual(ids(byCard).sort());
    expect(ids(firstPage)).not.toEqual(ids(secondPage));
    // A customer (signed-in user) id prefix finds their purchases.
    const cookie = await signInWithEmailCode(app, email('search.target'));
    const userId = (await http<{ user: { id: string } }>(`${base}/api/auth/get-session`, { headers: { cookie } })).body.user.id;
    expect(await search(userId.slice(0, 10))).toMatchObject({ items: [{ subscription_id: found.id, matched: 'customer_id' }] });
    // LIKE patterns are text: '%' matches only a literal '%'.
    expect((await search('%%%')).total).toBe(0);
    expect(ids(await search('nobody-like-this'))).toEqual([]);
    await expect(asOperator('/api/admin/search?q=ab')).rejects.toThrow(/: 400 /);
  });

  it('a customer’s timeline: purchase, charges, emails by kind, sign-in, refund, cancel and a declined checkout, in time order', async () => {
    const buyer = email('timeline');
    const declined = await checkoutWith(DECLINED_CARD, buyer);
    await deliverWebhook('evt_timeline_declined', 'execution.authorizeFailed', await gatewayExecution(declined.id));
    clock.advance(HOUR_MS);
    const bought = await buy(THREE_MONTH, buyer);
    clock.advance(HOUR_MS);
    await signInWithEmailCode(app, buyer);
    clock.advance(HOUR_MS);
    const record = await asOperator<CustomerRecord>(`/api/admin/customers?q=${encodeURIComponent(buyer)}`);
    await asOperator('/api/admin/customers/refund', { charge_id: record.charges[0]!.id, amount_minor: 500, reason: 'goodwill' });
    clock.advance(HOUR_MS);
    await asOperator('/api/admin/customers/cancel', { subscription_id: bought.id, when: 'period_end', reason: 'asked by phone' });

    const timeline = await asOperator<CustomerTimeline>(`/api/admin/customers/timeline?email=${encodeURIComponent(buyer.toUpperCase())}`);
    expect(timeline.email).toBe(buyer);
    const at = timeline.events.map((event) => Date.parse(event.at));
    expect(at).toEqual([...at].sort((a, b) => a - b));
    const kinds = timeline.events.map((event) => event.kind);
    const first = (kind: string) => kinds.indexOf(kind as (typeof kinds)[number]);
    // The decline is dated by the gateway (its own clock, not this test's): present.
    expect(first('declined_first_payment')).toBeGreaterThanOrEqual(0);
    // Sessions are dated by the sign-in library's own clock (not this test's): present.
    expect(first('sign_in')).toBeGreaterThanOrEqual(0);
    expect(first('purchase')).toBeLessThan(first('refund'));
    expect(first('refund')).toBeLessThan(first('cancel'));
    expect(timeline.events[first('declined_first_payment')]).toMatchObject({
      detail: 'card_declined: Your card was declined.',
      amount_minor: 100,
    });
    expect(timeline.events.find((event) => event.kind === 'charge')).toMatchObject({
      subscription_id: bought.id,
      amount_minor: 4800,
      detail: 'first',
    });
    expect(timeline.events.find((event) => event.kind === 'refund')).toMatchObject({ amount_minor: 500 });
    expect(timeline.events.find((event) => event.kind === 'cancel')).toMatchObject({ detail: 'operator: asked by phone' });
    expect(timeline.events.find((event) => event.kind === 'purchase')!.plan_name).not.toMatch(/^roots_/);
    const emailKinds = timeline.events.filter((event) => event.kind === 'email').map((event) => event.detail);
    expect(emailKinds).toEqual(expect.arrayContaining(['receipt', 'sign_in_code', 'refund_receipt']));
    // Nobody else's history.
    expect(JSON.stringify(timeline)).not.toContain(email('renews'));

    // 'Delete my data' takes the declined checkout with it (found by the masked email).
    await asOperator('/api/admin/customers/delete', { email: buyer });
    expect(await database.db.select().from(failedFirstPayments).where(eq(failedFirstPayments.executionId, declined.id))).toEqual([]);
    expect(await database.db.select().from(checkoutSessions).where(eq(checkoutSessions.executionId, declined.id))).toEqual([]);
    const after = await asOperator<CustomerTimeline>(`/api/admin/customers/timeline?email=${encodeURIComponent(buyer)}`);
    expect(after.events.map((event) => event.kind)).not.toContain('declined_first_payment');
  });

  it('the Plans table: every catalog plan by name, live subscriptions now, revenue and refunds of the range', async () => {
    const range = 'from=2026-03-10&to=2026-03-13';
    const plans = await asOperator<PlanBreakdown>(`/api/admin/plans?${range}`);
    const byId = new Map(plans.plans.map((row) => [row.plan_id, row]));
    expect(byId.size).toBe(config.catalog.plans.length);
    const weekly = byId.get(WEEKLY)!;
    expect(weekly.plan_name).toBe(WEEKLY_NAME);
    // By the Revenue tab's rules (issue 36): the renewed weekly is paying; the runs-dry one, whose
    // conversion is being retried, has paid no full-price period and is a trial, as the search target is.
    expect(weekly).toMatchObject({ active: 1, trialing: 2, one_time_with_access: 0, refunded_minor: 0 });
    expect(weekly.price).toBe('$1.00 trial, then $24.99 every 7 days');
    // One rule for a trial whose conversion is retried, on every tab: a trial in Revenue too, and
    // in payment retry there exactly as the Past-due queue lists it.
    const revenue = await asOperator<RevenueReport>(`/api/admin/revenue?${range}`);
    const retrying = await asOperator<PastDueList>('/api/admin/queues/past-due');
    expect(retrying.total).toBeGreaterThanOrEqual(1);
    expect(revenue.now.past_due).toBe(retrying.total);
    expect(revenue.plans.find((row) => row.plan_id === WEEKLY)).toMatchObject({ active_paying: 1, active_trials: 2 });
    // A cohort is every purchase first paid in its calendar month, whatever day the range ends on (issue 36).
    const wholeMonth = await asOperator<RevenueReport>('/api/admin/revenue?from=2026-03-01&to=2026-03-31');
    const endsBefore = await asOperator<RevenueReport>('/api/admin/revenue?from=2026-03-01&to=2026-03-09');
    expect(wholeMonth.cohorts.find((row) => row.month === '2026-03')?.size).toBeGreaterThan(0);
    expect(endsBefore.cohorts).toEqual(wholeMonth.cohorts);
    // Three first charges of $1.00 in the range (the renewal came on the 13th at 13:00, inside it).
    expect(weekly.revenue_minor).toBe(3 * 100 + 2499);
    // The 3-month purchase paid its introductory period and was canceled at period end: paying until that period ends (issue 36).
    expect(byId.get(THREE_MONTH)).toMatchObject({ revenue_minor: 4800, refunded_minor: 500, active: 1, trialing: 0 });
  });
});
