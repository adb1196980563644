import { expect, test } from '@playwright/test';
import { buyPlanAsVisitor, openPaywallAs, payWithSuccessCard, signInByEmailCode, uniqueEmail } from '../support/session';

/**
 * Issue 23, in the browser on a phone: what the customer owns is never sold again. Back after paying
 * shows "you already have this plan" instead of a pay form; after the Ultimate Pack, the packs it
 * includes leave the offers page.
 */
test.use({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });

test.describe('what the customer owns is not sold again', () => {
  test.setTimeout(120_000);

  test('Back after paying: the paywall says the plan is owned, offers no pay form, and the account is one tap away', async ({ page }) => {
    const email = uniqueEmail('back-after-pay');
    await buyPlanAsVisitor(page, email);
    await page.goBack();
    await expect(page).toHaveURL(/\/roots\/subscription/);
    await expect(page.getByTestId('plan-owned')).toBeVisible({ timeout: 30_000 });
    await expect(page.getByRole('heading', { name: 'You already have this plan' })).toBeVisible();
    await expect(page.getByTestId('roots-pay')).toHaveCount(0);
    // No payment terms either: nothing is for sale on this page now.
    await expect(page.getByTestId('disclosure')).toHaveCount(0);
    // A reload says the same (the browser's purchase proof, not the tab's memory).
    await page.reload();
    await expect(page.getByTestId('plan-owned')).toBeVisible({ timeout: 30_000 });
    await page.getByRole('link', { name: 'Open my account' }).click();
    await expect(page).toHaveURL(/\/roots\/sign-in\?vSubscriptionId=/);
  });

  test('a second tab whose checkout opened before the first paid: its payment buys nothing twice and is refunded at once, said on the page', async ({
    page,
    context,
  }) => {
    const email = uniqueEmail('two-tabs');
    const second = await context.newPage();
    await openPaywallAs(second, email);
    await buyPlanAsVisitor(page, email);
    await payWithSuccessCard(second);
    // Refunded at once and said, with the way to the account (ADR 196).
    const refunded = second.getByTestId('plan-owned-refunded');
    await expect(refunded).toContainText('You already have the Weekly Plan — this payment was refunded.', { timeout: 30_000 });
    await expect(refunded.getByRole('link', { name: 'Open my account' })).toBeVisible();
    await expect(second).toHaveURL(/\/roots\/subscription/);
    // The browser's proof of purchase names one purchase: the second payment made none.
    const proof = (await context.cookies()).find((cookie) => cookie.name === 'roots_purchases');
    expect(proof?.value.split('~')).toHaveLength(1);
  });

  test('after the Ultimate Pack, the packs it includes are no longer offered, and the pack has no cancel', async ({ page }) => {
    const email = uniqueEmail('ultimate-then');
    await buyPlanAsVisitor(page, email);
    const cards = page.locator('.offer-list > li');
    await expect(cards.filter({ hasText: 'Ultimate' })).toHaveCount(1);
    const before = await cards.count();
    expect(before).toBeGreaterThan(1);
    await cards
      .filter({ hasText: 'Ultimate' })
      .getByRole('button', { name: /Add for/ })
      .click();
    await expect(page.getByText('Added to your account.')).toBeVisible({ timeout: 30_000 });
    // Only the pack just bought is left, with its note: nothing it includes is sold on top of it.
    await expect(cards).toHaveCount(1);
    await expect(page.getByRole('button', { name: /Add for/ })).toHaveCount(0);
    // A reload of the offers page offers nothing the customer owns either.
    await page.reload();
    await expect(page.getByTestId('offers-screen')).toBeVisible();
    await expect(page.getByRole('button', { name: /Add for/ })).toHaveCount(0);

    // In the account: the weekly plan can be canceled; the pack never renews, so it has no cancel.
    await page.goto('/roots/sign-in');
    await signInByEmailCode(page, email);
    await expect(page).toHaveURL(/\/roots\/webapp$/, { timeout: 30_000 });
    await page.goto('/roots/webapp/manage-subscriptions');
    const items = page.getByTestId('subscription-item');
    await expect(items).toHaveCount(2);
    const pack = items.filter({ hasText: 'Ultimate' });
    await expect(pack.getByTestId('one-time-note')).toHaveText('One-time purchase: it never renews, so there is nothing to cancel.');
    await expect(pack.getByRole('button', { name: 'Cancel subscription' })).toHaveCount(0);
    await expect(items.filter({ hasNotText: 'Ultimate' }).getByRole('button', { name: 'Cancel subscription' })).toHaveCount(1);
  });
});
