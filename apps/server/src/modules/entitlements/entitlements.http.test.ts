import { API_MESSAGES, formatMessage } from '@roots/contracts';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEV_SERVER_SECRETS } from '../../config/env';
import { emails, subscriptions } from '../../db/schema';
import { systemClock } from '../../lib/clock';
import { startGatewayProcess, type GatewayProcess } from '../../test/gateway-process';
import { startProductOverHttp, type ProductOverHttp } from '../../test/product-over-http';
import { CookieJar, http, payWithCard, purchaseBody } from '../../test/shopper';

/**
 * Issue 23: one answer to "what does this customer own", asked before anything is charged. Back
 * after paying (the same browser) cannot open a second checkout for the plan it owns; after the
 * Ultimate Pack, the packs it includes are not sold on top of it.
 */

const WEEKLY = 'roots_3d1_7d2499';
const THREE_MONTH = 'roots_3m4800_3m4999';
const ULTIMATE = 'roots_ultimate_pack_4999_otp';
const REPORT = 'roots_report_2899_otp';
const PROFILE_PRO = 'roots_profile_pro_2899_otp';

let gateway: GatewayProcess;
let product: ProductOverHttp;
beforeAll(async () => {
  gateway = await startGatewayProcess();
  // The sweep refunds an unclaimed payment at once here (the default grace is 15 minutes).
  product = await startProductOverHttp({
    databaseUrl: undefined,
    gatewayUrl: gateway.url,
    clock: systemClock,
    env: { PAYMENT_SWEEP_GRACE_MS: '0', PAYMENT_SWEEP_INTERVAL_MS: '0' },
  });
});
afterAll(async () => {
  await product?.close();
  await gateway?.stop();
});

describe('entitlements', () => {
  it('Back after paying: the same browser is told it owns the plan, and nothing is charged', async () => {
    const { base, proxy } = product;
    const jar = new CookieJar();
    const paid = await payWithCard(base, WEEKLY);
    const created = await http<{ id: string }>(`${base}/subs/create-no-user`, { json: purchaseBody(paid, 'owner.back@example.com'), jar });
    expect(created.status, created.text).toBe(200);

    const calls = proxy.merchantCalls;
    const again = await http(`${base}/init/session`, { json: { plan_id: WEEKLY }, jar });
    expect(again).toMatchObject({
      status: 409,
      body: { code: 'ALREADY_OWNED', error: 'You already have this. Open your account to use it.' },
    });
    expect((await http(`${base}/init/session?plan_id=${WEEKLY}`, { jar })).status).toBe(409);
    expect(proxy.merchantCalls).toBe(calls); // no gateway session was opened
    // Another recurring plan is not sold beside it (ADR 196: the account changes the plan); another browser still opens a checkout.
    expect(await http(`${base}/init/session`, { json: { plan_id: THREE_MONTH }, jar })).toMatchObject({
      status: 409,
      body: { code: 'ALREADY_OWNED', error: API_MESSAGES.alreadyHavePlan },
    });
    expect((await http(`${base}/init/session`, { json: { plan_id: WEEKLY } })).status).toBe(200);

    const owned = await http<{ plans: string[]; access: string[] }>(`${base}/api/entitlements`, { jar });
    expect(owned.body).toEqual({ plans: [WEEKLY], access: ['subscription'] });
    expect((await http(`${base}/api/entitlements`)).body).toEqual({ plans: [], access: [] });
  });

  it('a second tab that opened its checkout before the first paid: its payment makes no second subscription and is refunded', async () => {
    const { base, database, app } = product;
    const jar = new CookieJar();
    const email = 'owner.two-tabs@example.com';
    // Both checkouts are open before either pays (two tabs of one browser).
    const [first, second] = await Promise.all([payWithCard(base, WEEKLY), payWithCard(base, WEEKLY)]);
    expect((await http<{ id: string }>(`${base}/subs/create-no-user`, { json: purchaseBody(first, email), jar })).status).toBe(200);
    const again = await http(`${base}/subs/create-no-user`, { json: purchaseBody(second, email), jar });
    // Refunded at once, not after the sweep's grace, and said with the plan's name (ADR 196).
    expect(again).toMatchObject({
      status: 409,
      body: { code: 'ALREADY_OWNED', error: formatMessage(API_MESSAGES.alreadyOwnedRefunded, { plan: 'Weekly Plan' }) },
    });
    // A replay of the first purchase is still answered with its subscription.
    expect((await http(`${base}/subs/create-no-user`, { json: purchaseBody(first, email), jar })).status).toBe(200);
    const rows = await database.db.select().from(subscriptions).where(eq(subscriptions.email, email));
    expect(rows).toHaveLength(1);
    // Refunded before any sweep pass.
    const execution = await http<{ amountRefunded: number }>(`${gateway.url}/merchant/v1/executions/${second.execution.id}`, {
      headers: { 'x-api-key': DEV_SERVER_SECRETS.GATEWAY_MERCHANT_SECRET },
    });
    expect(execution.body.amountRefunded).toBe(second.execution.amount.value);
    // The owner is told, at the address of the purchase that owns the plan.
    await app.roots.emails.idle();
    const told = await database.db.select().from(emails).where(eq(emails.kind, 'duplicate_payment_refund'));
    expect(told.map((row) => [row.to, row.subject])).toEqual([[email, 'We refunded a second payment for Roots']]);
    expect(told[0]?.text).toContain(
      'You already had Weekly Plan, so a second payment of $1.00 for it bought nothing. We refunded it in full.',
    );
  });

  it('after the Ultimate Pack, the report and Profile Pro packs it includes are refused; nothing is charged', async () => {
    const { base, proxy } = product;
    const jar = new CookieJar();
    const email = 'owner.ultimate@example.com';
    const paid = await payWithCard(base, WEEKLY);
    const parent = await http<{ id: string }>(`${base}/subs/create-no-user`, { json: purchaseBody(paid, email), jar });
    const addOn = (planId: string) =>
      http<{ id: string }>(`${base}/subs/create-no-user`, { json: { plan_id: planId, email, subscription_id: parent.body.id }, jar });
    const ultimate = await addOn(ULTIMATE);
    expect(ultimate.status).toBe(200);
    const charges = proxy.charges.length;
    // A repeat click answers the same pack again (idempotent); what the pack includes is refused.
    expect((await addOn(ULTIMATE)).body).toEqual({ id: ultimate.body.id });
    for (const planId of [REPORT, PROFILE_PRO]) {
      expect(await addOn(planId), planId).toMatchObject({ status: 409, body: { code: 'ALREADY_OWNED' } });
    }
    expect(proxy.charges.length).toBe(charges);
    const owned = await http<{ plans: string[]; access: string[] }>(`${base}/api/entitlements`, { jar });
    expect([...owned.body.access].sort()).toEqual(['profile_pro', 'report', 'subscription', 'ultimate_pack']);
    expect([...owned.body.plans].sort()).toEqual([ULTIMATE, WEEKLY].sort());
  });

  it('a Profile Pro buyer owns the heritage report it includes: the report pack is not sold on top (issue 35, ADR 194)', async () => {
    const { base, proxy } = product;
    const jar = new CookieJar();
    const paid = await payWithCard(base, PROFILE_PRO);
    const created = await http<{ id: string }>(`${base}/subs/create-no-user`, {
      json: purchaseBody(paid, 'owner.profile-pro@example.com'),
      jar,
    });
    expect(created.status, created.text).toBe(200);
    const owned = await http<{ plans: string[]; access: string[] }>(`${base}/api/entitlements`, { jar });
    expect(owned.body).toEqual({ plans: [PROFILE_PRO], access: ['profile_pro', 'report'] });

    const calls = proxy.merchantCalls;
    for (const planId of [PROFILE_PRO, REPORT])
      expect(await http(`${base}/init/session`, { json: { plan_id: planId }, jar }), planId).toMatchObject({
        status: 409,
        body: { code: 'ALREADY_OWNED' },
      });
    expect(proxy.merchantCalls).toBe(calls);
    // The Ultimate Pack, which includes Profile Pro, is still sold.
    expect((await http(`${base}/init/session`, { json: { plan_id: ULTIMATE }, jar })).status).toBe(200);
  });
});
