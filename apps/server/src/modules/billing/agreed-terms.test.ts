import { agreedPriceLine, statusWords } from '@roots/contracts/subscription-words';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, type RootsApp } from '../../app';
import { loadConfig } from '../../config/env';
import { subscriptions } from '../../db/schema';
import { DAY_MS, HOUR_MS, ManualClock } from '../../lib/clock';
import { startGatewayProcess, type GatewayProcess } from '../../test/gateway-process';
import { makeWebDist, RELAXED_CLIENT_LIMITS } from '../../test/helpers';
import { startProductOverHttp, type ProductOverHttp } from '../../test/product-over-http';
import { CookieJar, http, payWithCard, purchaseBody } from '../../test/shopper';
import { chargeKeys } from '../charges/charge-keys';

/**
 * Issue 23: a customer is charged what they agreed to at purchase. The operator raises the weekly
 * price in PLAN_OVERRIDES and restarts; existing subscribers renew at their agreed $24.99 (the
 * account screens, reminders and MRR say so too), while a new buyer gets the new price.
 */

const WEEKLY = 'roots_3d1_7d2499';
const THREE_MONTH = 'roots_3m4800_3m4999';

let gateway: GatewayProcess;
beforeAll(async () => {
  gateway = await startGatewayProcess();
});
afterAll(async () => {
  await gateway?.stop();
});

describe('agreed terms survive a catalog change', () => {
  let before: ProductOverHttp;
  let after: RootsApp;
  const clock = new ManualClock('2026-03-02T12:00:00.000Z');

  beforeAll(async () => {
    before = await startProductOverHttp({ databaseUrl: undefined, gatewayUrl: gateway.url, clock });
  });
  afterAll(async () => {
    await after?.close();
    await before?.close();
  });

  const buy = async (base: string, planId: string, email: string) => {
    const paid = await payWithCard(base, planId);
    const created = await http<{ id: string }>(`${base}/subs/create-no-user`, { json: purchaseBody(paid, email), jar: new CookieJar() });
    expect(created.status, created.text).toBe(200);
    return created.body.id;
  };
  const row = async (id: string) => (await before.database.db.select().from(subscriptions).where(eq(subscriptions.id, id)))[0]!;

  it('renews at the agreed price after the operator raises it; new buyers pay the new one', async () => {
    const weekly = await buy(before.base, WEEKLY, 'agreed.weekly@example.com');
    const quarterly = await buy(before.base, THREE_MONTH, 'agreed.quarterly@example.com');
    expect((await row(weekly)).agreedTerms).toMatchObject({
      renewalAmountMinor: 2499,
      renewalPeriod: { unit: 'day', count: 7 },
      currency: 'USD',
    });

    // The operator raises both prices and restarts on the same database.
    await before.app.close();
    after = await buildApp({
      config: loadConfig({
        NODE_ENV: 'test',
        LOG_LEVEL: 'silent',
        WEB_DIST_DIR: makeWebDist(),
        GATEWAY_URL: before.proxy.url,
        BILLING_SCHEDULER_ENABLED: 'false',
        PLAN_OVERRIDES: JSON.stringify({ [WEEKLY]: { sum: 40 }, [THREE_MONTH]: { sum: 2000 } }),
        ...RELAXED_CLIENT_LIMITS,
      }),
      database: before.database,
      clock,
    });

    // The account screens state the agreed next charge.
    const summaries = await after.roots.subscriptions.summaries([await row(weekly), await row(quarterly)]);
    expect(summaries.map((summary) => summary.next_charge_amount)).toEqual([24.99, 49.99]);
    // ... and the plan's price and terms as agreed (issue 35: Manage subscriptions showed the catalog's
    // new price above the agreed next charge); the 3-month plan's first period is no trial.
    expect(summaries.map((summary) => summary.agreed && agreedPriceLine(summary.agreed))).toEqual([
      '$24.99 every week, after a 3-day trial for $1',
      '$49.99 every 3 months, first 3 months $48',
    ]);
    expect(summaries.map((summary) => statusWords(summary.status, summary.agreed, summary.renews))).toEqual(['Trial', 'Active']);

    // The trial ends: the renewal charges the agreed $24.99, not $40.
    clock.advance(3 * DAY_MS + HOUR_MS);
    await after.roots.billing.tick();
    const renewal = before.proxy.charges.find((charge) => charge.idempotencyKey === chargeKeys.renewal(weekly, 1, 0));
    expect(renewal?.amount).toBe(2499);
    expect(await row(weekly)).toMatchObject({ status: 'active', currentPeriod: 1 });
    // MRR from the agreed prices: the paying weekly subscriber ($24.99 a week over an average month of
    // 365/12 days) and the three-month buyer still in the $48 introductory period (docs/metrics.md).
    const today = clock.now().toISOString().slice(0, 10);
    expect((await after.roots.admin.revenue({ from: today, to: today })).now.mrr_minor).toBe(Math.round((2499 * 365) / 12 / 7 + 4800 / 3));

    // A new buyer is shown and charged the new price.
    const address = await after.listen({ host: '127.0.0.1', port: 0 });
    const paid = await payWithCard(address, WEEKLY);
    expect(paid.init.disclosure.terms_text).toContain('$40');
    const fresh = await http<{ id: string }>(`${address}/subs/create-no-user`, { json: purchaseBody(paid, 'agreed.new@example.com') });
    expect(fresh.status, fresh.text).toBe(200);
    expect((await row(fresh.body.id)).agreedTerms).toMatchObject({ renewalAmountMinor: 4000 });
  });
});
