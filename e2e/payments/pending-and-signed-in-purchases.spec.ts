import { fillSecureFields } from '@roots/checkout/testing';
import { expect, test, type Page } from '@playwright/test';
import { installApplePay } from '../support/apple-pay';
import {
  buyPlanAsVisitor,
  openPaywallAs,
  payWithSuccessCard,
  signInWithoutLivePlan,
  signInByEmailCode,
  uniqueEmail,
} from '../support/session';

/** Pays with the sandbox's 3-D Secure card and closes the challenge unanswered: the drop-in's pending outcome. Returns the challenge page's address. */
async function leaveThePaymentPending(page: Page): Promise<string> {
  await fillSecureFields(page, 'threeDSChallenge');
  const popupPromise = page.waitForEvent('popup');
  await page.getByTestId('roots-pay').click();
  const popup = await popupPromise;
  await expect(popup.getByTestId('otp-hint')).toBeVisible();
  const challengeUrl = popup.url();
  await popup.close();
  return challengeUrl;
}

test.describe('a pending payment (issue 14)', () => {
  test.setTimeout(120_000);

  test("says 'Payment pending' and what happens next, then moves on once the bank confirms", async ({ page }) => {
    const email = uniqueEmail('pending');
    await openPaywallAs(page, email);
    const challengeUrl = await leaveThePaymentPending(page);

    const pending = page.getByTestId('payment-pending');
    await expect(pending.getByRole('heading', { name: 'Payment pending' })).toBeVisible({ timeout: 30_000 });
    await expect(pending).toContainText(`we refund it automatically and tell you at ${email}`);
    await expect(pending.getByRole('button', { name: 'Check again now' })).toBeVisible();
    await expect(page).toHaveURL(/\/roots\/subscription$/);

    // The bank confirms later, away from this page (the challenge answered in another tab).
    const bank = await page.context().newPage();
    await bank.goto(challengeUrl);
    await bank.locator('#code').fill((await bank.getByTestId('otp-hint').textContent()) ?? '');
    await bank.getByRole('button', { name: 'Submit' }).click();
    // The bank's tab is left open: its completion page navigates to the return URL, and closing a
    // page mid-navigation can hang Chromium's close; the context closes it after the test.
    await page.bringToFront();

    await expect(page).toHaveURL(/\/roots\/offers$/, { timeout: 30_000 });
    expect(await page.evaluate(() => sessionStorage.getItem('__subscriptionId'))).toMatch(/^[0-9a-f-]{36}$/);
  });

  test('a pending payment the bank then refuses: nothing charged, and the buyer can pay again', async ({ page }) => {
    await openPaywallAs(page, uniqueEmail('pending-refused'));
    const challengeUrl = await leaveThePaymentPending(page);
    const pending = page.getByTestId('payment-pending');
    await expect(pending.getByRole('heading', { name: 'Payment pending' })).toBeVisible({ timeout: 30_000 });
    // Asking again while the bank has not answered keeps the wait.
    await pending.getByRole('button', { name: 'Check again now' }).click();
    await expect(pending.getByRole('button', { name: 'Check again now' })).toBeEnabled({ timeout: 30_000 });
    await expect(pending.getByRole('heading', { name: 'Payment pending' })).toBeVisible();

    // The bank refuses; the page's next ask (every 10 s) learns it. The button is not clicked here:
    // the refusal can arrive first and replace it.
    const bank = await page.context().newPage();
    await bank.goto(challengeUrl);
    await bank.getByRole('button', { name: /fail/i }).click();
    await page.bringToFront();

    await expect(pending.getByRole('heading', { name: 'The payment did not go through' })).toBeVisible({ timeout: 30_000 });
    await expect(pending).toContainText('nothing was charged');
    await pending.getByRole('button', { name: 'Pay again' }).click();
    // A fresh payment session: the success card now buys the plan.
    await expect(page.getByTestId('roots-pay')).toBeVisible({ timeout: 30_000 });
    await payWithSuccessCard(page);
    await expect(page).toHaveURL(/\/roots\/offers$/, { timeout: 30_000 });
  });
});

test.describe('a signed-in buyer (product-spec §6, §7)', () => {
  test.setTimeout(150_000);

  // Two customers: one customer has one live plan (ADR 196), so the card and the wallet purchase are each a first plan.
  test('buys with /subs/create, their identity attached', async ({ page }) => {
    const { email, uid } = await signInWithoutLivePlan(page, 'signed-in-card');
    await openPaywallAs(page, email, '?plan=roots_3d5_7d2499');
    const byCard = page.waitForRequest((request) => request.url().endsWith('/subs/create'));
    await payWithSuccessCard(page);
    expect((await byCard).postDataJSON()).toMatchObject({
      plan_id: 'roots_3d5_7d2499',
      email,
      firebase_id: uid,
      card: { execution_id: expect.stringMatching(/^exe_/) },
    });
    await expect(page).toHaveURL(/\/roots\/offers\?plan=roots_3d5_7d2499$/, { timeout: 60_000 });
    // The signed-in user's at once: no finalize needed.
    const mine = (await (await page.request.get('/api/account/subscriptions')).json()) as { subscriptions: Array<{ plan_id: string }> };
    expect(mine.subscriptions.map((subscription) => subscription.plan_id)).toContain('roots_3d5_7d2499');
  });

  test('buys with /subs/create-applepay, their identity attached', async ({ page }) => {
    const { email, uid } = await signInWithoutLivePlan(page, 'signed-in-wallet');
    await installApplePay(page);
    await openPaywallAs(page, email, '?plan=roots_3m4800_3m4900');
    await page.getByTestId('roots-item-applePay').locator('input[type=radio]').check();
    const byWallet = page.waitForRequest((request) => request.url().endsWith('/subs/create-applepay'));
    await page.getByRole('button', { name: 'Buy with Apple Pay' }).click();
    const walletBody = (await byWallet).postDataJSON() as Record<string, unknown>;
    expect(walletBody).toMatchObject({ firebase_id: uid, execution_id: expect.stringMatching(/^exe_/), address: { first_name: 'Ada' } });
    expect(walletBody).not.toHaveProperty('display_name');
    await expect(page).toHaveURL(/\/roots\/offers/, { timeout: 60_000 });
    const mine = (await (await page.request.get('/api/account/subscriptions')).json()) as { subscriptions: Array<{ plan_id: string }> };
    expect(mine.subscriptions.map((subscription) => subscription.plan_id)).toContain('roots_3m4800_3m4900');
  });
});

test.describe('finalize (product-spec §4, §7)', () => {
  test.setTimeout(120_000);

  test('sends the identity and the attribution, and acts only on an answer naming the subscription', async ({ page }) => {
    const email = uniqueEmail('finalize-id');
    const subscriptionId = await buyPlanAsVisitor(page, email);
    // A 200 answer that names nothing links nothing: the sign-in screen says so and stays.
    await page.route('**/subs/finalize', (route) => route.fulfill({ status: 200, contentType: 'application/json', body: '{}' }));
    await page.goto(`/roots/sign-in?vSubscriptionId=${subscriptionId}`);
    const finalize = page.waitForRequest((request) => request.url().endsWith('/subs/finalize'));
    await signInByEmailCode(page, email);
    expect((await finalize).postDataJSON()).toMatchObject({
      subscription_id: subscriptionId,
      email,
      firebase_id: expect.any(String),
      attribution: { project: 'roots' },
    });
    await expect(page.getByRole('alert')).toHaveText('Finalize error');
    await expect(page).toHaveURL(/\/roots\/sign-in\?vSubscriptionId=/);

    // The real server names it: linked, session storage cleared, on to the webapp.
    await page.unroute('**/subs/finalize');
    await page.goto(`/roots/sign-in?vSubscriptionId=${subscriptionId}`);
    await expect(page).toHaveURL(/\/roots\/webapp$/, { timeout: 30_000 });
    expect(await page.evaluate(() => sessionStorage.length)).toBe(0);
  });
});
