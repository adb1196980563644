import type { PlanCatalog } from '@roots/contracts';
import type { PopulationInsights } from '@roots/contracts/insights';
import { ACCESS_GIVES } from '@roots/contracts/access';
import { expect, test, type Page } from '@playwright/test';
import { expectNoSeriousA11yViolations } from './support/axe';
import { openPaywallAs, payWithSuccessCard, uniqueEmail } from './support/session';

/** Population and access pages with content, and the single purchases sold on the paywall (issue 14). */
test.describe('population, access-product and the premium and gift months', () => {
  test('/population shows where people of each group live, from the insights data', async ({ page, request }) => {
    const all = (await (
      await request.get('/api/insights/population?groups=white,black,latino_hispanic,east_asian,southeast_asian,indian,middle_eastern')
    ).json()) as PopulationInsights;
    await page.goto('/roots/population');
    const screen = page.getByTestId('population-screen');
    await expect(screen.getByRole('heading', { level: 1 })).toHaveText('Population insights');
    const group = page.getByTestId('population-group');
    await expect(group).toContainText(all.groups[0]!.regions[0]!.name);
    await screen.getByRole('button', { name: 'East Asian', exact: true }).click();
    const eastAsian = all.groups.find((candidate) => candidate.id === 'east_asian')!;
    await expect(group.getByRole('heading', { level: 2 })).toHaveText('East Asian');
    await expect(group).toContainText(eastAsian.topCountries[0]!.name);
    await expect(group).toContainText(eastAsian.caveat);
    await expectNoSeriousA11yViolations(page);
  });

  test('/access-product says what a purchase gives and how to sign in', async ({ page }) => {
    await page.goto('/roots/');
    await page.evaluate(() => sessionStorage.setItem('__userEmail', 'buyer@example.com'));
    await page.goto('/roots/access-product?plan=roots_3d1_7d2499');
    const screen = page.getByTestId('access-product-screen');
    await expect(screen.getByTestId('purchase-email')).toHaveText('Your purchase is registered to buyer@example.com.');
    // Each kind of purchase with the line the paywall and the offers say for it (issue 35, ADR 194).
    await expect(screen.getByRole('listitem').filter({ hasText: /^Profile Pro: / })).toHaveText(`Profile Pro: ${ACCESS_GIVES.profile_pro}`);
    await expect(screen.getByRole('listitem').filter({ hasText: /^A subscription: / })).toHaveText(
      `A subscription: ${ACCESS_GIVES.subscription}`,
    );
    await expect(screen.getByRole('heading', { name: 'How to sign in' })).toBeVisible();
    await expectNoSeriousA11yViolations(page);
    await screen.getByRole('link', { name: 'Sign in' }).click();
    await expect(page).toHaveURL(/\/roots\/sign-in\?plan=roots_3d1_7d2499$/);
  });

  test('skip_trial_plan offers that plan beside the trial, and choosing it puts it on screen', async ({ page, request }) => {
    const catalog = (await (await request.get('/api/plans')).json()) as PlanCatalog;
    const trial = catalog.plans.find((plan) => plan.id === catalog.defaultPlanId)!;
    const noTrial = catalog.plans.find((plan) => plan.length === '3m')!;
    await openPaywallAs(page, uniqueEmail('skip'), `?skip_trial_plan=${noTrial.id}&wmq=1`);
    await expect(page.getByTestId('paywall-screen')).toHaveAttribute('data-plan-id', trial.id);
    await page.getByTestId('skip-trial').click();
    await expect(page).toHaveURL(new RegExp(`plan=${noTrial.id}`));
    await expect(page.getByTestId('paywall-screen')).toHaveAttribute('data-plan-id', noTrial.id);
    await expect(page.getByTestId('trial-claim')).toHaveCount(0);
    // The plan chosen has no trial to skip: the offer is gone.
    await expect(page.getByTestId('skip-trial')).toHaveCount(0);
  });

  for (const kind of ['premium_one_month', 'gift_one_month'] as const) {
    test(`?plan=…${kind} is sold at its summary price, once`, async ({ page, request }) => {
      test.setTimeout(120_000);
      const catalog = (await (await request.get('/api/plans')).json()) as PlanCatalog;
      const single = catalog.singlePurchases.find((candidate) => candidate.id.endsWith(kind))!;
      await buyAndCheck(page, single.id, single.summary.price, single.summary.name);
    });
  }
});

async function buyAndCheck(page: Page, planId: string, price: number, name: string): Promise<void> {
  const shown = Number.isInteger(price) ? `$${price}` : `$${price.toFixed(2)}`;
  await openPaywallAs(page, uniqueEmail('single'), `?plan=${planId}`);
  await expect(page.getByTestId('unknown-plan-overlay')).toHaveCount(0);
  // One charge of the summary price, for this plan, and nothing recurring or discounted.
  await expect(page.getByRole('heading', { name })).toBeVisible();
  await expect(page.getByTestId('disclosure')).toContainText(`You pay ${shown} once today`);
  await expect(page.getByTestId('renewal-claim')).toHaveCount(0);
  await expect(page.getByTestId('discount-headline')).toHaveCount(0);
  await expect(page.getByTestId('roots-pay')).toHaveText(`Pay ${shown}`);
  await payWithSuccessCard(page);
  await expect(page).toHaveURL(/\/roots\/offers/, { timeout: 60_000 });
  expect(await page.evaluate(() => sessionStorage.getItem('__subscriptionId'))).toMatch(/^[0-9a-f-]{36}$/);
}
