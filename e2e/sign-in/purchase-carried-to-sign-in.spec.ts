import { expect, test } from '@playwright/test';
import { buyPlanAsVisitor, signInByEmailCode, signInWithoutLivePlan, uniqueEmail } from '../support/session';

/** The purchase travels as vSubscriptionId from offers to sign-in, and through /webapp (product-spec §2, §4). */
test.describe('vSubscriptionId', () => {
  test.setTimeout(180_000);

  test('offers → sign-in carries the purchase, so signing in with another address still links it', async ({ page }) => {
    const paidWith = uniqueEmail('paid');
    const subscriptionId = await buyPlanAsVisitor(page, paidWith);
    await page.getByRole('button', { name: 'Continue to my account' }).click();
    await expect(page).toHaveURL(new RegExp(`/roots/sign-in\\?vSubscriptionId=${subscriptionId}$`));
    // A private-relay style address the purchase never saw.
    await signInByEmailCode(page, uniqueEmail('relay'));
    await expect(page).toHaveURL(/\/roots\/webapp$/, { timeout: 30_000 });
    const mine = (await (await page.request.get('/api/account/subscriptions')).json()) as { subscriptions: Array<{ id: string }> };
    expect(mine.subscriptions.map((item) => item.id)).toContain(subscriptionId);
  });

  test('/webapp?vSubscriptionId=… keeps it through the redirect to sign-in, which finalizes and comes back', async ({ page }) => {
    // A signed-in customer with no live plan (one customer has one live plan, ADR 196) buys in the same
    // browser from a link opened on /webapp.
    const { email } = await signInWithoutLivePlan(page, 'webapp-finalize');
    const secondPurchase = await buyPlanAsVisitor(page, email, '?plan=roots_3m4800_3m4999');
    const finalize = page.waitForRequest((request) => new URL(request.url()).pathname === '/subs/finalize');
    await page.goto(`/roots/webapp?vSubscriptionId=${secondPurchase}&section=biorhythm`);
    expect(JSON.parse((await finalize).postData() ?? '{}')).toMatchObject({ subscription_id: secondPurchase });
    await expect(page).toHaveURL(/\/roots\/webapp\?section=biorhythm$/, { timeout: 30_000 });
    const mine = (await (await page.request.get('/api/account/subscriptions')).json()) as { subscriptions: Array<{ id: string }> };
    expect(mine.subscriptions.map((item) => item.id)).toContain(secondPurchase);
  });

  test('a visitor on /webapp?vSubscriptionId=… lands on sign-in with it', async ({ page }) => {
    await page.goto('/roots/webapp?vSubscriptionId=00000000-0000-4000-8000-000000000000');
    await expect(page).toHaveURL(/\/roots\/sign-in\?vSubscriptionId=00000000-0000-4000-8000-000000000000$/);
    await expect(page.getByTestId('sign-in-screen')).toBeVisible();
  });
});
