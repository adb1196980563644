import type { SubscriptionSummary } from '@roots/contracts/subscriptions';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { planChanges, subscriptions } from '../../db/schema';
import { DAY_MS, ManualClock } from '../../lib/clock';
import { startGatewayProcess, type GatewayProcess } from '../../test/gateway-process';
import { startProductOverHttp, type ProductOverHttp } from '../../test/product-over-http';
import { CookieJar, http, payWithCard, purchaseBody } from '../../test/shopper';
import { signInWithEmailCode } from '../../test/sign-in';
import { startSmtp } from '../../test/smtp';

/**
 * Issue 35, ADR 196: "Change plan" in the account switches the plan at the end of the paid period,
 * at the new plan's own renewal price, no proration; one subscription renews. The change is
 * cancellable until then, recorded, and emailed with its terms.
 */

const WEEKLY = 'roots_3d1_7d2499';
const THREE_MONTH = 'roots_3m4800_3m4999';
const REPORT = 'roots_report_2899_otp';

let gateway: GatewayProcess;
let smtp: Awaited<ReturnType<typeof startSmtp>>;
let product: ProductOverHttp;
const clock = new ManualClock('2026-04-06T09:00:00.000Z');

beforeAll(async () => {
  [gateway, smtp] = await Promise.all([startGatewayProcess(), startSmtp()]);
  product = await startProductOverHttp({ databaseUrl: undefined, gatewayUrl: gateway.url, clock, env: { SMTP_URL: smtp.url } });
});
afterAll(async () => {
  await product?.close();
  await Promise.all([gateway?.stop(), smtp?.stop()]);
});

const row = async (id: string) => (await product.database.db.select().from(subscriptions).where(eq(subscriptions.id, id)))[0]!;
const history = async (id: string) =>
  product.database.db.select().from(planChanges).where(eq(planChanges.subscriptionId, id)).orderBy(planChanges.requestedAt);

async function buyAndSignIn(email: string) {
  const paid = await payWithCard(product.base, WEEKLY);
  const created = await http<{ id: string }>(`${product.base}/subs/create-no-user`, {
    json: purchaseBody(paid, email),
    jar: new CookieJar(),
  });
  expect(created.status, created.text).toBe(200);
  const cookie = await signInWithEmailCode(product.app, email, undefined, smtp);
  const call = async <T>(method: 'GET' | 'POST' | 'DELETE', url: string, payload?: Record<string, string>) => {
    const answer = await product.app.inject({
      method,
      url,
      headers: { cookie, origin: 'http://127.0.0.1:3000' },
      ...(payload === undefined ? {} : { payload }),
    });
    return { status: answer.statusCode, body: answer.json<T>() };
  };
  return { id: created.body.id, call };
}

const mine = async (call: Awaited<ReturnType<typeof buyAndSignIn>>['call']) =>
  (await call<{ subscriptions: SubscriptionSummary[] }>('GET', '/api/account/subscriptions')).body.subscriptions;

describe('change plan (ADR 196)', () => {
  it('switches at the period end at the new plan’s renewal price, with one subscription renewing', async () => {
    const email = 'plan-change.apply@example.com';
    const { id, call } = await buyAndSignIn(email);
    const trialEnd = (await row(id)).currentPeriodEnd!;

    const asked = await call<{ plan_change: unknown }>('POST', `/api/account/subscriptions/${id}/plan-change`, { plan_id: THREE_MONTH });
    expect(asked.status).toBe(200);
    const expected = {
      plan_id: THREE_MONTH,
      name: '3-Month Plan',
      amount: 49.99,
      period: { unit: 'month', count: 3 },
      effective_at: trialEnd.toISOString(),
    };
    expect(asked.body).toEqual({ plan_change: expected });
    // Nothing is charged now; the account shows the change and the next charge as it will be.
    const [listed] = await mine(call);
    expect(listed).toMatchObject({
      plan_id: WEEKLY,
      plan_change: expected,
      next_charge_amount: 49.99,
      next_charge_at: trialEnd.toISOString(),
    });
    const mail = await smtp.waitFor((candidate) => candidate.to.includes(email) && /plan changes on/.test(candidate.subject));
    expect(mail.text.replace(/\s+/g, ' ')).toContain(
      'On April 9, 2026 3-Month Plan starts: $49.99 will be charged to the card ending in 4242, and again every 3 months until you cancel.',
    );

    const charges = product.proxy.charges.length;
    clock.advance(3 * DAY_MS + 1000);
    await product.app.roots.billing.tick();
    const renewal = product.proxy.charges.slice(charges);
    expect(renewal.map((record) => [record.amount, record.status])).toEqual([[4999, 'authorizeSuccessful']]);
    const after = await row(id);
    expect(after).toMatchObject({ planId: THREE_MONTH, status: 'active', currentPeriod: 1, currentPeriodStart: trialEnd });
    expect(after.agreedTerms).toMatchObject({ id: THREE_MONTH, renewalAmountMinor: 4999 });
    expect(after.currentPeriodEnd?.toISOString()).toBe('2026-07-09T09:00:00.000Z');
    expect(after.termsVersion).toBe(after.agreedTerms?.disclosure.terms_version);
    expect((await history(id)).map((change) => change.status)).toEqual(['applied']);
    // One subscription, now the 3-month plan, no change pending.
    const listedAfter = await mine(call);
    expect(listedAfter).toHaveLength(1);
    expect(listedAfter[0]).toMatchObject({ plan_id: THREE_MONTH, plan_change: null, next_charge_amount: 49.99 });
    const receipt = await smtp.waitFor((candidate) => candidate.to.includes(email) && /renewed/.test(candidate.subject));
    expect(receipt.text).toContain('3-Month Plan');
    expect(receipt.text).toContain('$49.99');
  });

  it('a change is cancellable until it applies: the old plan renews at its agreed price', async () => {
    const email = 'plan-change.cancel@example.com';
    const { id, call } = await buyAndSignIn(email);
    expect((await call('POST', `/api/account/subscriptions/${id}/plan-change`, { plan_id: THREE_MONTH })).status).toBe(200);
    expect(await call('DELETE', `/api/account/subscriptions/${id}/plan-change`)).toEqual({ status: 200, body: { canceled: true } });
    expect(await call('DELETE', `/api/account/subscriptions/${id}/plan-change`)).toEqual({ status: 200, body: { canceled: false } });
    expect((await mine(call))[0]).toMatchObject({ plan_change: null, next_charge_amount: 24.99 });
    await smtp.waitFor((candidate) => candidate.to.includes(email) && /plan change is canceled/.test(candidate.subject));

    const charges = product.proxy.charges.length;
    clock.advance(3 * DAY_MS + 1000);
    await product.app.roots.billing.tick();
    expect(product.proxy.charges.slice(charges).map((record) => record.amount)).toEqual([2499]);
    expect(await row(id)).toMatchObject({ planId: WEEKLY, status: 'active' });
    expect((await history(id)).map((change) => change.status)).toEqual(['canceled']);
  });

  it('refuses what is not a change of a live plan, and a cancel drops the pending change', async () => {
    const email = 'plan-change.refusals@example.com';
    const { id, call } = await buyAndSignIn(email);
    const change = (planId: string) => call<{ code: string }>('POST', `/api/account/subscriptions/${id}/plan-change`, { plan_id: planId });
    expect(await change(WEEKLY)).toMatchObject({ status: 400, body: { error: 'This is your plan already' } });
    expect(await change(REPORT)).toMatchObject({ status: 400 });
    expect(await change('roots_nope')).toMatchObject({ status: 400 });
    // Someone else's subscription is an unknown one.
    const other = await buyAndSignIn('plan-change.other@example.com');
    expect((await other.call('POST', `/api/account/subscriptions/${id}/plan-change`, { plan_id: THREE_MONTH })).status).toBe(404);
    expect((await change(THREE_MONTH)).status).toBe(200);
    expect((await call('POST', `/api/account/subscriptions/${id}/cancel`, {})).status).toBe(200);
    expect((await history(id)).map((row) => row.status)).toEqual(['canceled']);
    expect(await change(THREE_MONTH)).toMatchObject({ status: 409 });
  });
});
