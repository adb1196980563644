import type { PlanCatalog } from '@roots/contracts';
import { expect, test } from '@playwright/test';
import { expectNoSeriousA11yViolations } from '../support/axe';
import { signInAsNewCustomer } from '../support/session';

/** The signed-in account screens: profile (§2) and manage subscriptions with cancel (§4). */
test.describe('profile and manage subscriptions', () => {
  test.setTimeout(120_000);

  test('profile: name, date and time of birth, Update, still there after a reload', async ({ page }) => {
    await signInAsNewCustomer(page, 'profile');
    await page.goto('/roots/webapp/profile');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Profile');
    const name = page.getByLabel('Name');
    await expect(name).toBeVisible();
    await expectNoSeriousA11yViolations(page);

    await name.fill('');
    await page.getByRole('button', { name: 'Update' }).click();
    await expect(page.getByRole('alert').first()).toHaveText('This field is required!');

    await name.fill('Ada Byron');
    await page.getByLabel('Date of birth').fill('1990-12-10');
    await page.getByLabel('Time of birth').fill('07:45');
    await page.getByRole('button', { name: 'Update' }).click();
    await expect(page.getByRole('status')).toHaveText('Profile updated');

    await page.reload();
    await expect(page.getByLabel('Name')).toHaveValue('Ada Byron');
    await expect(page.getByLabel('Date of birth')).toHaveValue('1990-12-10');
    await expect(page.getByLabel('Time of birth')).toHaveValue('07:45');
  });

  test('manage subscriptions: status and next charge, cancel in two clicks with confirmation', async ({ page }) => {
    const { subscriptionId } = await signInAsNewCustomer(page, 'cancel');
    await page.goto('/roots/webapp/manage-subscriptions');
    const item = page.getByTestId('subscription-item');
    await expect(item).toHaveCount(1);
    // In the customer's words (issue 35), never the status code.
    await expect(item.getByTestId('subscription-status')).toHaveText('Trial');
    await expect(item).toContainText('Next charge');
    // The plan summary, not the raw plan id: the default plan's name, price and period as agreed.
    const catalog = (await (await page.request.get('/api/plans')).json()) as PlanCatalog;
    const weekly = catalog.plans.find((plan) => plan.id === catalog.defaultPlanId)!;
    await expect(item.getByTestId('subscription-plan')).toHaveText(weekly.name);
    await expect(item.getByTestId('subscription-price')).toHaveText(`$${weekly.sum.toFixed(2)} every week, after a 3-day trial for $1`);
    await expect(item).not.toContainText(weekly.id);
    await expectNoSeriousA11yViolations(page);

    // Click 1 asks for confirmation; "Keep it" changes nothing.
    await item.getByRole('button', { name: 'Cancel subscription' }).click();
    await item.getByRole('button', { name: 'Keep it' }).click();
    await expect(item.getByTestId('subscription-status')).toHaveText('Trial');

    await item.getByRole('button', { name: 'Cancel subscription' }).click();
    await expectNoSeriousA11yViolations(page);
    await item.getByRole('button', { name: 'Yes, cancel' }).click();
    // It says until when access lasts (issue 24).
    await expect(page.getByRole('status')).toHaveText(
      /^Your subscription is canceled and will not be charged again\. You keep access until \w+ \d+, \d{4}\.$/,
    );
    await expect(item.getByTestId('subscription-status')).toHaveText('Canceled — no further charges');
    await expect(item.getByRole('button', { name: 'Cancel subscription' })).toHaveCount(0);

    const mine = await (await page.request.get('/api/account/subscriptions')).json();
    expect(mine.subscriptions).toEqual([expect.objectContaining({ id: subscriptionId, status: 'canceled' })]);
  });
});
