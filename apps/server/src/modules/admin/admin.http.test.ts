import type {
  AuditList,
  CustomerRecord,
  DataExport,
  FunnelReport,
  GeoPolicy,
  QualityReport,
  Reconciliation,
  RevenueReport,
} from '@roots/contracts/admin';
import type { Execution } from '@roots/contracts/gateway';
import type { MailboxMessage } from '@roots/contracts/emails';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, type RootsApp } from '../../app';
import { DEV_SERVER_SECRETS, loadConfig } from '../../config/env';
import type { Database } from '../../db/database';
import type { PlanCatalog } from '@roots/contracts';
import { adminAudit, cancellationChannels, chargeDailyGroups, chargeRollupState, funnelDailyCounts, subscriptions } from '../../db/schema';
import { ChargesRepository } from '../charges/charges.repository';
import { MetricsRepository } from './metrics.repository';
import { revenueReport } from './revenue-report';
import { DAY_MS, HOUR_MS, ManualClock } from '../../lib/clock';
import type { Executor } from '../../db/executor';
import { datasetFace, facelessPng } from '../reports/report-fixtures';
import { startGatewayProcess, type GatewayProcess } from '../../test/gateway-process';
import { makeWebDist, openTestDatabase, testDatabases } from '../../test/helpers';
import { CookieJar, http, payWithCard, purchaseBody } from '../../test/shopper';
import { operatorRequests, signInAsOperator } from '../../test/operator';
import { signInWithEmailCode } from '../../test/sign-in';

const WEEKLY = 'roots_3d1_7d2499';
const THREE_MONTH = 'roots_3m4800_3m4999';

let gateway: GatewayProcess;
beforeAll(async () => {
  gateway = await startGatewayProcess();
});
afterAll(async () => {
  await gateway?.stop();
});

async function gatewayExecution(id: string): Promise<Execution> {
  return (
    await http<Execution>(`${gateway.url}/merchant/v1/executions/${id}`, {
      headers: { 'x-api-key': DEV_SERVER_SECRETS.GATEWAY_MERCHANT_SECRET },
    })
  ).body;
}

describe.each(testDatabases())('operator console over HTTP against the gateway on $name', ({ url }) => {
  let database: Database;
  let app: RootsApp;
  let base: string;
  let operatorCookie: string;
  let asOperator: ReturnType<typeof operatorRequests>;
  let ourOrigin: string;
  let catalog: PlanCatalog;
  const clock = new ManualClock('2026-03-10T12:00:00.000Z');
  const tag = url ? 'pg' : 'pglite';
  const operatorEmail = `ops.${tag}@example.com`;
  const range = 'from=2026-03-10&to=2026-03-10';

  beforeAll(async () => {
    database = await openTestDatabase(url);
    const config = loadConfig({
      NODE_ENV: 'test',
      LOG_LEVEL: 'silent',
      WEB_DIST_DIR: makeWebDist(),
      GATEWAY_URL: gateway.url,
      RATE_LIMIT_PER_MINUTE: '100000',
      EMAIL_RATE_LIMIT_PER_HOUR: '100000',
      TRUST_PROXY: 'true',
      COUNTRY_HEADER: 'x-test-country',
      FACE_ANALYSIS_BLOCKED_COUNTRIES: 'EU_EEA,CH',
      ANALYSIS_WORKERS: '1',
    });
    catalog = config.catalog;
    // State changes with a cookie name our origin, as a browser on our pages does (ADR 111).
    ourOrigin = new URL(config.publicUrl).origin;
    app = await buildApp({ config, database, clock });
    base = await app.listen({ host: '127.0.0.1', port: 0 });
    config.publicUrl = base;
    const operator = await signInAsOperator(app, operatorEmail, 'owner', ourOrigin);
    operatorCookie = operator.cookie;
    asOperator = operatorRequests(app, operator, ourOrigin);
  });
  afterAll(async () => {
    await app?.close();
    await database?.close();
  });

  const buy = async (planId: string, buyer: string) => {
    const paid = await payWithCard(base, planId);
    // The buyer's browser: it keeps the purchase's proof cookie (ADR 085).
    const jar = new CookieJar();
    const created = await http<{ id: string }>(`${base}/subs/create-no-user`, { json: purchaseBody(paid, buyer), jar });
    expect(created.status, created.text).toBe(200);
    return { id: created.body.id, executionId: paid.execution.id, jar };
  };
  const mailbox = async () => {
    await app.roots.emails.idle();
    return (await app.inject({ method: 'GET', url: '/dev/mailbox.json' })).json<{ messages: MailboxMessage[] }>().messages;
  };

  it('refunds part of a charge through the gateway once, emails the customer and audits it', async () => {
    const buyer = `refund.${tag}@example.com`;
    const bought = await buy(THREE_MONTH, buyer);
    const record = await asOperator<CustomerRecord>(`/api/admin/customers?q=${encodeURIComponent(buyer)}`);
    expect(record.subscriptions.map((row) => row.id)).toEqual([bought.id]);
    expect(record.subscriptions[0]!.consent.terms_text.length).toBeGreaterThan(10);
    const charge = record.charges[0]!;
    expect(charge).toMatchObject({ status: 'succeeded', amount_minor: 4800, refunded_minor: 0, execution_id: bought.executionId });
    expect(record.emails.map((message) => message.kind)).toContain('receipt');

    const body = { charge_id: charge.id, amount_minor: 1000, reason: 'goodwill' };
    const [first, second] = await Promise.all([
      asOperator<{ refunded_minor: number; gateway_refund_id: string }>('/api/admin/customers/refund', body),
      asOperator<{ refunded_minor: number; gateway_refund_id: string }>('/api/admin/customers/refund', body),
    ]);
    expect(first.refunded_minor).toBe(1000);
    expect(second.gateway_refund_id).toBe(first.gateway_refund_id);
    const execution = await gatewayExecution(bought.executionId);
    expect(execution.amountRefunded).toBe(1000);
    expect(execution.refunds).toHaveLength(1);
    // A partial refund keeps the subscription (in its introductory period).
    expect((await database.db.select().from(subscriptions).where(eq(subscriptions.id, bought.id)))[0]?.status).toBe('trialing');
    const refundMails = (await mailbox()).filter((message) => message.to === buyer && message.kind === 'refund_receipt');
    expect(refundMails).toHaveLength(1);
    expect(refundMails[0]!.text).toContain('$10.00');

    const audit = await asOperator<AuditList>('/api/admin/audit');
    const refunds = audit.entries.filter((entry) => entry.action === 'customer.refund' && entry.subscription_id === bought.id);
    // The same refund asked for again answers the first one and is audited once (issue 36).
    const replayed = await asOperator<{ refunded_minor: number; gateway_refund_id: string }>('/api/admin/customers/refund', body);
    expect(replayed).toEqual(first);
    const audited = (await asOperator<AuditList>('/api/admin/audit')).entries.filter(
      (entry) => entry.action === 'customer.refund' && entry.subscription_id === bought.id,
    );
    expect(audited).toHaveLength(1);
    expect(refunds[0]).toMatchObject({
      operator_email: operatorEmail,
      customer_email: buyer,
      detail: { amount_minor: 1000, reason: 'goodwill' },
    });

    // Another amount on the same charge is refused; the gateway holds one refund.
    const again = await app.inject({
      method: 'POST',
      url: '/api/admin/customers/refund',
      headers: { cookie: operatorCookie, origin: ourOrigin },
      payload: { ...body, amount_minor: 500 },
    });
    expect(again.statusCode).toBe(409);
    expect((await gatewayExecution(bought.executionId)).refunds).toHaveLength(1);
  });

  it('keeps the audit trail append-only in the database', async () => {
    await expect(database.db.execute(sql`update admin_audit set action = 'customer.lookup'`)).rejects.toThrow();
    await expect(database.db.delete(adminAudit)).rejects.toThrow();
    expect((await database.db.select().from(adminAudit)).length).toBeGreaterThan(0);
  });

  it('cancels now or at period end, resends receipt and cancel link, and records each channel', async () => {
    const atEnd = await buy(WEEKLY, `cancel-end.${tag}@example.com`);
    const now = await buy(WEEKLY, `cancel-now.${tag}@example.com`);
    await asOperator('/api/admin/customers/cancel', { subscription_id: atEnd.id, when: 'period_end', reason: 'too expensive' });
    await asOperator('/api/admin/customers/cancel', { subscription_id: now.id, when: 'now', reason: 'fraud suspicion' });
    const statusOf = async (id: string) => (await database.db.select().from(subscriptions).where(eq(subscriptions.id, id)))[0]!;
    expect((await statusOf(atEnd.id)).status).toBe('canceled');
    expect((await statusOf(now.id)).status).toBe('expired');

    // Each cancel asked for again answers 200, changes nothing and is audited once (issue 36).
    await asOperator('/api/admin/customers/cancel', { subscription_id: atEnd.id, when: 'period_end', reason: 'too expensive' });
    await asOperator('/api/admin/customers/cancel', { subscription_id: now.id, when: 'now', reason: 'fraud suspicion' });
    const cancelAudits = (await asOperator<AuditList>('/api/admin/audit')).entries.filter((entry) =>
      ['customer.cancel_now', 'customer.cancel_at_period_end'].includes(entry.action),
    );
    expect(cancelAudits.filter((entry) => entry.subscription_id === atEnd.id)).toHaveLength(1);
    expect(cancelAudits.filter((entry) => entry.subscription_id === now.id)).toHaveLength(1);

    await asOperator('/api/admin/customers/resend', { subscription_id: atEnd.id, what: 'receipt' });
    await asOperator('/api/admin/customers/resend', { subscription_id: atEnd.id, what: 'cancel_link' });
    const mails = (await mailbox()).filter((message) => message.to === `cancel-end.${tag}@example.com`);
    const receipts = mails.filter((message) => message.kind === 'receipt');
    expect(receipts).toHaveLength(2);
    // The first receipt announced the next charge; the one sent after the cancel says what is true now.
    expect(receipts[0]!.text).toContain('Next charge');
    expect(receipts[1]!.text).not.toContain('Next charge');
    expect(receipts[1]!.text).toContain('No further charges.');
    expect(mails.find((message) => message.kind === 'cancel_link')?.text).toContain('/api/cancel-subscription/');

    // A customer's own cancel by id is recorded with its channel.
    const own = await buy(WEEKLY, `cancel-own.${tag}@example.com`);
    expect((await http(`${base}/api/cancel`, { json: { id: own.id }, jar: own.jar })).status).toBe(200);
    const channels = await database.db.select().from(cancellationChannels);
    expect(Object.fromEntries(channels.map((row) => [row.subscriptionId, row.channel]))).toMatchObject({
      [atEnd.id]: 'operator',
      [now.id]: 'operator',
      [own.id]: 'by_id',
    });

    const revenue = await asOperator<RevenueReport>(`/api/admin/revenue?${range}`);
    expect(revenue.cancellations).toEqual(
      expect.arrayContaining([
        { channel: 'operator', reason: 'too expensive', count: 1 },
        { channel: 'operator', reason: 'fraud suspicion', count: 1 },
        { channel: 'by_id', reason: 'not asked', count: 1 },
      ]),
    );
    const actions = (await asOperator<AuditList>('/api/admin/audit')).entries.map((entry) => entry.action);
    expect(actions).toEqual(
      expect.arrayContaining([
        'customer.cancel_now',
        'customer.cancel_at_period_end',
        'customer.resend_receipt',
        'customer.resend_cancel_link',
      ]),
    );
  });

  it('revenue counts the day’s purchases and refunds and reconciles with the gateway', async () => {
    const revenue = await asOperator<RevenueReport>(`/api/admin/revenue?${range}`);
    // Three weekly trials; the three-month plan's paid introductory period is a direct purchase, not a trial.
    expect(revenue.totals.trials_started).toBe(3);
    expect(revenue.totals.direct_purchases).toBe(1);
    expect(revenue.days).toHaveLength(1);
    // Now: the three-month buyer pays (its $48 over 3 months is MRR); two canceled trials run until their
    // trial ends; the one canceled "now" has ended.
    expect(revenue.now).toEqual({ active_paying: 1, past_due: 0, active_trials: 2, one_time_with_access: 0, mrr_minor: 1600 });
    expect(revenue.plans.map((plan) => plan.plan_name)).toEqual(
      expect.arrayContaining([
        '3-Month Plan ($48.00 first, then $49.99 every 3 months)',
        'Weekly Plan ($1.00 trial, then $24.99 every 7 days)',
      ]),
    );
    expect(revenue.totals.refunds).toBe(1);
    expect(revenue.totals.refunded_minor).toBe(1000);
    expect(revenue.totals.auto_refunds).toBe(0);
    expect(revenue.totals.gross_minor).toBe(4800 + 3 * 100);
    // The trials end on the 13th: none ended in this range.
    expect(revenue.totals).toMatchObject({ trials_ended: 0, trial_to_paid: 0 });
    expect(revenue.cohorts).toEqual([{ month: '2026-03', size: 1, retained: [1, null, null, null, null, null] }]);
    const reconciliation = await asOperator<Reconciliation>(`/api/admin/revenue/reconciliation?${range}`);
    expect(reconciliation.checked).toBe(4);
    expect(reconciliation.mismatches).toEqual([]);
  });

  it('counts unique visits per step, day and source; a reload is the same visit; purchases are the tracked visits’ own', async () => {
    const send = (event: string, country: string, visit?: { id: string; variant: 'walkthrough' | 'quiz' }, path = '/roots/') =>
      app.inject({
        method: 'POST',
        url: '/event',
        headers: { 'x-test-country': country },
        payload: {
          event,
          campaign: { campaign_name: 'spring', media_source: 'fb', event_source_url: `http://x${path}` },
          ...(visit ? { visit } : {}),
        },
      });
    const visits = Array.from({ length: 4 }, () => ({ id: crypto.randomUUID(), variant: 'walkthrough' as const }));
    for (const visit of visits) await send('intro', 'US', visit);
    for (const visit of visits.slice(0, 3)) await send('onboarding', 'US', visit);
    for (const visit of visits.slice(0, 2)) await send('camera tip', 'US', visit);
    for (const visit of visits.slice(0, 2)) await send('selfie', 'US', visit);
    // The first visitor reloads the page twice: the same visit, not new visitors.
    for (const event of ['intro', 'onboarding', 'intro']) await send(event, 'US', visits[0]);
    // A quiz visit moves on to the paywall's URL: its variant stays the one it started in.
    const quiz = { id: crypto.randomUUID(), variant: 'quiz' as const };
    await send('intro', 'BR', quiz, '/roots/quiz');
    await send('subscription offer', 'BR', quiz, '/roots/paywall');
    // Its purchase, reported by the tracked page (POST /subscriptions/{id}).
    const tracked = await app.inject({
      method: 'POST',
      url: `/subscriptions/${crypto.randomUUID()}`,
      headers: { 'content-type': 'text/plain', 'x-test-country': 'BR' },
      payload: JSON.stringify({ project: 'roots', campaign_name: 'spring', media_source: 'fb', visit: quiz }),
    });
    expect(tracked.statusCode).toBe(201);
    const funnel = await asOperator<FunnelReport>(`/api/admin/funnel?${range}`);
    const total = Object.fromEntries(funnel.totals.map((row) => [row.step, row]));
    expect(total.landing?.count).toBe(5);
    expect(total.consent).toMatchObject({ count: 3, conversion: 0.6, drop_off: 0.4 });
    expect(total.camera_tip?.count).toBe(2);
    // The four untracked buyers of the tests above are no funnel visits; the tracked one is.
    expect(total.purchase?.count).toBe(1);
    expect(funnel.days).toEqual([
      { day: '2026-03-10', counts: expect.objectContaining({ landing: 5, consent: 3, selfie: 2, purchase: 1 }) },
    ]);
    expect(funnel.sources).toEqual(
      expect.arrayContaining([
        { dimension: 'variant', value: 'quiz', counts: expect.objectContaining({ landing: 1, paywall: 1, purchase: 1 }) },
        { dimension: 'variant', value: 'walkthrough', counts: expect.objectContaining({ landing: 4, paywall: 0, purchase: 0 }) },
        { dimension: 'country', value: 'US', counts: expect.objectContaining({ landing: 4 }) },
        { dimension: 'campaign', value: 'spring', counts: expect.objectContaining({ landing: 5, purchase: 1 }) },
      ]),
    );
  });

  it('quality answers with empty figures when no report was made', async () => {
    const quality = await asOperator<QualityReport>(`/api/admin/quality?${range}`);
    expect(quality).toEqual({
      by_status: [],
      refusals: [],
      feedback: { answered: 0, looks_correct: 0, share_correct: 0, texts: [] },
      model_versions: [],
    });
  });

  it('the geo policy follows the request’s country and refuses the face analysis where it is not offered', async () => {
    const policy = async (country: string) =>
      (await app.inject({ method: 'GET', url: '/api/geo-policy', headers: { 'x-test-country': country } })).json<GeoPolicy>();
    expect(await policy('DE')).toEqual({ country: 'DE', face_analysis: false, fallback: 'insights' });
    expect(await policy('CH')).toMatchObject({ face_analysis: false });
    expect(await policy('US')).toMatchObject({ country: 'US', face_analysis: true });
    const refused = await app.inject({
      method: 'POST',
      url: '/api/face-check',
      headers: { 'x-test-country': 'FR', 'content-type': 'application/json' },
      payload: {},
    });
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toMatchObject({ code: 'FORBIDDEN', error: 'The face analysis is not offered in your country.' });
    const elsewhere = await app.inject({ method: 'POST', url: '/api/face-check', headers: { 'x-test-country': 'US' }, payload: {} });
    expect(elsewhere.statusCode).not.toBe(403);
  });

  it('a customer downloads their own data as JSON, consent records included', async () => {
    const buyer = `export.${tag}@example.com`;
    const bought = await buy(WEEKLY, buyer);
    const cookie = await signInWithEmailCode(app, buyer);
    const answer = await app.inject({ method: 'GET', url: '/api/account/export', headers: { cookie } });
    expect(answer.statusCode, answer.body).toBe(200);
    expect(answer.headers['content-disposition']).toContain('attachment');
    const data = answer.json<DataExport>();
    expect(data.user.email).toBe(buyer);
    expect(data.subscriptions.map((row) => row.id)).toEqual([bought.id]);
    expect(data.subscriptions[0]!.consent.ip).not.toBe('');
    expect(data.charges).toHaveLength(1);
    expect(answer.body).not.toContain(`refund.${tag}@example.com`);
    expect((await app.inject({ method: 'GET', url: '/api/account/export' })).statusCode).toBe(401);
  });

  it('deletes a customer’s data on request and audits it', async () => {
    const buyer = `export.${tag}@example.com`;
    await asOperator('/api/admin/customers/delete', { email: buyer });
    expect((await app.roots.admin.lookup({ email: operatorEmail }, buyer)).subscriptions[0]?.id).toBeDefined();
    const entries = (await asOperator<AuditList>('/api/admin/audit')).entries;
    expect(entries.find((entry) => entry.action === 'customer.delete_data')).toMatchObject({
      customer_email: buyer,
      detail: { had_account: true },
    });
  });

  it('reads finished days from the daily rollup with the same figures as the raw events', async () => {
    const before = await asOperator<FunnelReport>(`/api/admin/funnel?from=2026-03-10&to=2026-03-12`);
    expect(await database.db.select().from(funnelDailyCounts)).toEqual([]);
    clock.advance(2 * DAY_MS); // 2026-03-12: the 10th and 11th are finished days now
    await app.inject({ method: 'POST', url: '/event', headers: { 'x-test-country': 'US' }, payload: { event: 'intro' } });
    const after = await asOperator<FunnelReport>(`/api/admin/funnel?from=2026-03-10&to=2026-03-12`);
    expect((await database.db.select().from(funnelDailyCounts)).length).toBeGreaterThan(0);
    const landing = (report: FunnelReport) => report.totals.find((row) => row.step === 'landing')!.count;
    expect(landing(after)).toBe(landing(before) + 1);
    expect(after.days[0]).toEqual(before.days[0]);
    expect(after.days[2]!.counts.landing).toBe(1);
    // Sources untouched by the new event read the same from the rollup as from the raw events.
    const source = (report: FunnelReport, dimension: string, value: string) =>
      report.sources.find((row) => row.dimension === dimension && row.value === value);
    expect(source(after, 'variant', 'quiz')).toEqual(source(before, 'variant', 'quiz'));
    expect(source(after, 'country', 'BR')).toEqual(source(before, 'country', 'BR'));
    expect(source(after, 'campaign', 'spring')).toEqual(source(before, 'campaign', 'spring'));
    expect(source(after, 'country', 'US')!.counts.landing).toBe(source(before, 'country', 'US')!.counts.landing + 1);
    // Asking again does not roll the same days twice.
    expect(await asOperator<FunnelReport>(`/api/admin/funnel?from=2026-03-10&to=2026-03-12`)).toEqual(after);
  });

  it('counts trial conversions, MRR and trial → paid after the scheduler charges the renewals', async () => {
    // Clock at 2026-03-12 12:00: a new weekly trial; the one bought on the 10th (export test) is still trialing.
    await buy(WEEKLY, `renewal.${tag}@example.com`);
    clock.advance(3 * DAY_MS + HOUR_MS); // 2026-03-15 13:00: both trials are due
    await app.roots.billing.tick();
    const revenue = await asOperator<RevenueReport>('/api/admin/revenue?from=2026-03-15&to=2026-03-15');
    expect(revenue.totals).toMatchObject({
      trial_conversions: 2,
      renewals: 0,
      renewal_failures: 0,
      gross_minor: 2 * 2499,
      // Of the trials whose trial period ended on the 15th (the one bought on the 12th), all paid.
      trials_ended: 1,
      trials_converted: 1,
      trial_to_paid: 1,
    });
    // Two paying weekly subscriptions (24.99 per 7 days over an average month of 365/12 days, 108.59
    // each) and the three-month buyer in its $48 introductory period (16.00 a month).
    expect(revenue.now.mrr_minor).toBe(Math.round((2 * 2499 * 365) / 12 / 7 + 4800 / 3));
    const reconciliation = await asOperator<Reconciliation>('/api/admin/revenue/reconciliation?from=2026-03-15&to=2026-03-15');
    expect(reconciliation).toEqual({ checked: 2, truncated: false, mismatches: [] });
  });

  it('quality: reports by status, refusals by error code, the looks-correct share, feedback texts, model version', async () => {
    const buyer = `quality.${tag}@example.com`;
    const bought = await buy(WEEKLY, buyer);
    const owner = { email: buyer, subscription_id: bought.id };
    const create = async (image: Buffer) => {
      const created = await http<{ report_id: string }>(`${base}/report/create`, {
        json: { ...owner, image: image.toString('base64') },
        jar: bought.jar,
      });
      expect(created.status, created.text).toBe(200);
      for (;;) {
        const answer = await http<{ report: { status: string } }>(`${base}/report/get-report`, {
          json: { ...owner, report_id: created.body.report_id },
          jar: bought.jar,
        });
        if (answer.body.report.status !== 'pending' && answer.body.report.status !== 'processing') return created.body.report_id;
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    };
    const completed = await create(datasetFace(0));
    await create(facelessPng());
    const cookie = await signInWithEmailCode(app, buyer);
    const userId = (await http<{ user: { id: string } }>(`${base}/api/auth/get-session`, { headers: { cookie } })).body.user.id;
    const feedback = await http(`${base}/report/update`, {
      json: { ...owner, userId, feedback: { report_id: completed, looks_correct: true, text: 'spot on' } },
      headers: { cookie },
      jar: bought.jar,
    });
    expect(feedback.status, feedback.text).toBe(200);

    const quality = await asOperator<QualityReport>('/api/admin/quality?from=2026-03-15&to=2026-03-15');
    expect(quality.by_status).toEqual(
      expect.arrayContaining([
        { status: 'completed', count: 1 },
        { status: 'failed', count: 1 },
      ]),
    );
    expect(quality.refusals).toHaveLength(1);
    expect(quality.refusals[0]!.count).toBe(1);
    expect(quality.feedback).toEqual({
      answered: 1,
      looks_correct: 1,
      share_correct: 1,
      texts: [expect.objectContaining({ looks_correct: true, text: 'spot on' })],
    });
    expect(quality.model_versions).toEqual([{ version: expect.stringMatching(/^roots-heritage-/), count: 1 }]);
    // The operator sees the report's status and estimate, never an image.
    const record = await asOperator<CustomerRecord>(`/api/admin/customers?q=${encodeURIComponent(buyer)}`);
    const shown = record.reports.find((report) => report.id === completed)!;
    expect(shown.status).toBe('completed');
    expect(shown.estimate.reduce((sum, group) => sum + group.share, 0)).toBe(100);
    expect(JSON.stringify(record)).not.toMatch(/image|base64|data:/i);
  });

  it('reads finished days’ charges from their daily groups with the figures of the ledger; a day with a pending attempt waits', async () => {
    // The same report read from the charge ledger alone, every day live.
    class LedgerOnly extends MetricsRepository {
      override rollUpCharges() {
        return Promise.resolve();
      }
      override chargeGroupsOfDays(db: Executor, fromDay: string, toDay: string) {
        const to = new Date(Date.parse(`${toDay}T00:00:00Z`) + DAY_MS);
        return this.charges(db, { from: new Date(`${fromDay}T00:00:00Z`), to });
      }
    }
    const week = { from: '2026-03-10', to: '2026-03-16' };
    const fromLedger = () => revenueReport({ db: database.db, catalog, now: clock.now(), repository: new LedgerOnly() }, week);
    const revenue = () => asOperator<RevenueReport>(`/api/admin/revenue?from=${week.from}&to=${week.to}`);
    const rolledThrough = async () => (await database.db.select().from(chargeRollupState))[0]?.rolledThrough;
    // 2026-03-15 13:00: the 10th to the 14th are finished days.
    const first = await revenue();
    expect(await rolledThrough()).toBe('2026-03-14');
    expect((await database.db.select().from(chargeDailyGroups)).length).toBeGreaterThan(0);
    expect(first).toEqual(await fromLedger());
    expect(first.totals.gross_minor).toBeGreaterThan(0);

    // An attempt still pending on the 15th keeps that day out of the rollup once it is over.
    const [owner] = await database.db.select().from(subscriptions).where(eq(subscriptions.planId, WEEKLY)).limit(1);
    const attempt = await app.roots.charges.open({
      kind: 'renewal',
      subscriptionId: owner!.id,
      planId: WEEKLY,
      period: 40,
      attempt: 0,
      idempotencyKey: `rollup-pending-${tag}`,
      amountMinor: 2499,
      currency: 'USD',
    });
    clock.advance(DAY_MS); // 2026-03-16 13:00
    const waiting = await revenue();
    expect(await rolledThrough()).toBe('2026-03-14');
    expect(waiting).toEqual(await fromLedger());
    expect(waiting.days.find((day) => day.day === '2026-03-15')!.renewal_failures).toBe(first.days[5]!.renewal_failures);

    // Settled (declined), the attempt counts, and the 15th is rolled with it.
    await new ChargesRepository().settle(database.db, attempt.id, {
      status: 'failed',
      executionId: null,
      declineCode: 'do_not_honor',
      now: clock.now(),
    });
    const settled = await revenue();
    expect(await rolledThrough()).toBe('2026-03-15');
    expect(settled).toEqual(await fromLedger());
    expect(settled.days.find((day) => day.day === '2026-03-15')!.renewal_failures).toBe(first.days[5]!.renewal_failures + 1);
  });

  // Last: its purchase and refunds would change the day's revenue figures the tests above count.
  it('after a partial operator refund, the money-back gives back only what the ledger says is left (issue 32)', async () => {
    const buyer = `rest.${tag}@example.com`;
    const bought = await buy(THREE_MONTH, buyer);
    const charge = (await asOperator<CustomerRecord>(`/api/admin/customers?q=${encodeURIComponent(buyer)}`)).charges[0]!;
    await asOperator('/api/admin/customers/refund', { charge_id: charge.id, amount_minor: 1000, reason: 'goodwill' });

    const moneyBack = () => http<{ refunded?: number }>(`${base}/api/cancel`, { json: { id: bought.id, refund: true }, jar: bought.jar });
    const back = await moneyBack();
    expect(back.status, back.text).toBe(200);
    expect(back.body.refunded).toBe(38);
    const execution = await gatewayExecution(bought.executionId);
    expect(execution.amountRefunded).toBe(4800);
    expect(execution.refunds?.map((refund) => refund.amount.value)).toEqual([1000, 3800]);
    // Asking again replays the same refund: nothing more moves.
    expect((await moneyBack()).body.refunded).toBe(38);
    expect((await gatewayExecution(bought.executionId)).refunds).toHaveLength(2);

    const after = await asOperator<CustomerRecord>(`/api/admin/customers?q=${encodeURIComponent(buyer)}`);
    expect(after.charges.find((row) => row.id === charge.id)).toMatchObject({ amount_minor: 4800, refunded_minor: 4800 });
    // The whole charge is back: the subscription ends, and each refund has its own email.
    expect((await database.db.select().from(subscriptions).where(eq(subscriptions.id, bought.id)))[0]?.status).toBe('expired');
    const receipts = (await mailbox()).filter((message) => message.to === buyer && message.kind === 'refund_receipt');
    expect(
      receipts.map((message) => (message.text.includes('$38.00') ? 'rest' : message.text.includes('$10.00') ? 'partial' : '?')).sort(),
    ).toEqual(['partial', 'rest']);
  });
});
