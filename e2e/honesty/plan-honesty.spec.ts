import type { Plan, PlanCatalog, PublicConfig } from '@roots/contracts';
import { expect, test } from '@playwright/test';
import { E2E_PRODUCT_COPY } from '../support/product-copy';
import { openPaywallAs, uniqueEmail } from '../support/session';

/**
 * The per-plan honesty walk (issue 14): every plan of the catalog, opened on the paywall, says only
 * what that plan charges. The expectations come from the catalog the server serves (/api/plans)
 * and its public config, never from literals; the product runs with a configured trial claim that
 * is untrue of every plan (E2E_PRODUCT_COPY), which must not be shown.
 */

const money = (amount: number) => (Number.isInteger(amount) ? String(amount) : amount.toFixed(2));
const periodDays: Record<Plan['length'], number | null> = { '7d': 7, '3m': 90, lifetime: null };
const PERIOD_DAYS: Record<string, number> = { week: 7, '3 months': 90, month: 30, day: 1, year: 365 };

/** Every statement of a kind in the text, as the numbers it states. */
const all = (text: string, pattern: RegExp) => [...text.matchAll(pattern)].map((match) => match.slice(1));

test('every plan of the catalog: each trial, renewal, price, discount and guarantee statement matches its data', async ({
  page,
  request,
}) => {
  test.setTimeout(240_000);
  const catalog = (await (await request.get('/api/plans')).json()) as PlanCatalog;
  const config = (await (await request.get('/api/config')).json()) as PublicConfig;
  expect(catalog.plans.length).toBeGreaterThanOrEqual(9);
  // The premium and gift months are sold on the paywall too: one charge of their summary's price.
  const singles: Plan[] = catalog.singlePurchases.map(({ id, summary }) => ({
    id,
    sum: summary.price,
    length: 'lifetime',
    discount_percent: 0,
    name: summary.name,
    name_full: summary.name,
    currency: 'USD',
  }));
  expect(singles.length).toBe(2);
  const walk: string[] = [];
  for (const plan of [...catalog.plans, ...singles]) {
    await openPaywallAs(page, uniqueEmail('honesty'), `?plan=${plan.id}`);
    const screen = page.getByTestId('paywall-screen');
    await expect(screen).toHaveAttribute('data-plan-id', plan.id);
    const text = (await screen.innerText()).replace(/\s+/g, ' ');
    const trialDays = plan.trial_sum !== undefined && plan.trial_length === '3d' ? 3 : null;

    // Trial: every 'N-day trial' is this plan's trial; a plan without one mentions none.
    const trials = all(text, /(\d+)-day trial/gi).map(([days]) => Number(days));
    if (trialDays === null) expect(text, plan.id).not.toMatch(/\btrial\b/i);
    else {
      expect(trials.length, plan.id).toBeGreaterThan(0);
      for (const days of trials) expect(days, `${plan.id}: '${days}-day trial'`).toBe(trialDays);
    }
    expect(text).not.toContain(E2E_PRODUCT_COPY.trialClaim);

    // Renewal: every 'every …' is this plan's period; a one-time pack renews never.
    const periods = all(text, /every (week|3 months|month|day|year)\b/gi).map(([unit]) => PERIOD_DAYS[unit!.toLowerCase()]);
    if (periodDays[plan.length] === null) expect(text, plan.id).not.toMatch(/\brenew|every (week|month)/i);
    else {
      expect(periods.length, plan.id).toBeGreaterThan(0);
      for (const days of periods) expect(days, plan.id).toBe(periodDays[plan.length]);
    }

    // Prices: every '$N' is the first charge or the recurring price, or a struck price whose saving is right.
    const struck = await screen.locator('s').allInnerTexts();
    const amounts = all(text, /\$(\d+(?:\.\d\d)?)/g).map(([amount]) => amount!);
    const allowed = new Set([plan.sum, plan.trial_sum].filter((a): a is number => a !== undefined).map(money));
    for (const previous of struck) {
      const current = plan.trial_sum ?? plan.sum;
      const shownOff = Number(/−(\d+)%/.exec(text)?.[1]);
      expect(Math.round((1 - current / Number(previous.replace('$', ''))) * 100), `${plan.id}: struck ${previous}`).toBe(shownOff);
      allowed.add(previous.replace('$', ''));
    }
    for (const amount of amounts) expect(allowed, `${plan.id}: $${amount}`).toContain(amount);
    await expect(page.getByTestId('roots-pay')).toHaveText(new RegExp(`\\$${money(plan.trial_sum ?? plan.sum).replace('.', '\\.')}\\b`));

    // Discount: said only beside the struck reference price it is computed from (issue 24, ADR 148).
    const discounts = all(text, /(\d+)% discount/gi);
    if (plan.discount_percent === 0 || struck.length === 0) expect(discounts, `${plan.id}: a discount without a struck price`).toEqual([]);
    for (const [percent] of discounts) expect(Number(percent), plan.id).toBe(plan.discount_percent);
    if (struck.length === 0) expect(text, `${plan.id}: a saving badge without a struck price`).not.toMatch(/−\d+%/);

    // Guarantee: the window said is the configured one.
    for (const [days] of all(text, /within (\d+) days/gi)) expect(Number(days), plan.id).toBe(config.guaranteeDays);

    walk.push(
      `${plan.id}: trial ${trialDays ?? 'none'} [${trials.join(',')}], every ${periodDays[plan.length] ?? 'never'} [${periods.join(',')}], ` +
        `prices [${amounts.join(',')}], struck [${struck.join(',')}], headline ${/Get \d+% Discount Today/.exec(text)?.[0] ?? '-'}`,
    );
  }
  console.log(`per-plan honesty walk:\n  ${walk.join('\n  ')}`);
});
