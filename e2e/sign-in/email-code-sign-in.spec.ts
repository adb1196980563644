import { expect, test, type Page } from '@playwright/test';
import { GOOGLE_TYPE_PROVIDER } from '../support/oidc-provider.config';
import { expectNoSeriousA11yViolations } from '../support/axe';
import { buyPlanAsVisitor, chooseProviderAccount, signInByEmailCode, uniqueEmail } from '../support/session';

type MySubscriptions = { subscriptions: Array<{ id: string; status: string }> };

const mySubscriptionIds = async (page: Page) =>
  ((await (await page.request.get('/api/account/subscriptions')).json()) as MySubscriptions).subscriptions.map((item) => item.id);

/** Sign-in by one-time email code, the not-exist modal, activation and finalize (product-spec §4, §8). */
test.describe('sign-in by email code, activation, finalize', () => {
  test.setTimeout(120_000);

  test('a customer signs in with the code from the email and lands on the webapp', async ({ page }) => {
    const email = uniqueEmail('code');
    await buyPlanAsVisitor(page, email);
    await page.goto('/roots/sign-in');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Sign in');
    await expectNoSeriousA11yViolations(page);

    // A wrong code is refused with the server's message and the customer stays on the code step.
    await page.getByLabel('Email for a one-time code').fill(email);
    await page.getByRole('button', { name: 'Email me a code' }).click();
    await page.getByLabel('Code').fill('000000');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect(page.getByRole('alert')).toBeVisible();
    await expect(page).toHaveURL(/\/roots\/sign-in$/);

    await page.goto('/roots/sign-in');
    await signInByEmailCode(page, email);
    await expect(page).toHaveURL(/\/roots\/webapp$/, { timeout: 30_000 });
    await expect(page.getByTestId('webapp-home-screen')).toBeVisible();
    const me = await (await page.request.get('/api/account/me')).json();
    expect(me).toMatchObject({ has_purchase: true, user: { email, providerId: 'email' } });
  });

  test("an email with no purchase gets the not-exist modal: 'Not now' stays, 'Join Roots now' goes to the start", async ({ page }) => {
    const email = uniqueEmail('nobody');
    await page.goto('/roots/sign-in');
    await signInByEmailCode(page, email);
    const modal = page.getByRole('dialog', { name: 'Unfortunately, such an account does not exist.' });
    await expect(modal).toBeVisible();
    await expect(modal).toContainText('You have no registered account yet. Start on the home page to get your report.');
    await expectNoSeriousA11yViolations(page);
    // Drawn as a modal over the page (issue 24: it was inline, with an unstyled grey button): the
    // app's one dialog (ADR 185) in the top layer, a dimmed backdrop over the page, the dialog a card
    // on it, the join button in the accent.
    expect(await modal.evaluate((element) => element.matches(':modal'))).toBe(true);
    expect(await modal.evaluate((element) => getComputedStyle(element, '::backdrop').backgroundColor)).not.toBe('rgba(0, 0, 0, 0)');
    expect(await modal.evaluate((element) => getComputedStyle(element).backgroundColor)).not.toBe('rgba(0, 0, 0, 0)');
    const join = modal.getByRole('button', { name: 'Join Roots now' });
    const accent = await page.evaluate(() => getComputedStyle(document.documentElement).getPropertyValue('--color-accent').trim());
    expect(await join.evaluate((element) => getComputedStyle(element).backgroundColor)).toBe(
      `rgb(${[1, 3, 5].map((at) => parseInt(accent.slice(at, at + 2), 16)).join(', ')})`,
    );

    await modal.getByRole('button', { name: 'Not now' }).click();
    await expect(modal).toBeHidden();
    await expect(page.getByRole('button', { name: 'Email me a code' })).toBeVisible();
    expect((await page.request.get('/api/account/me')).status()).toBe(401);

    await signInByEmailCode(page, email);
    await page.getByRole('dialog').getByRole('button', { name: 'Join Roots now' }).click();
    await expect(page.getByTestId('landing-screen')).toBeVisible();
    expect((await page.request.get('/api/account/me')).status()).toBe(401);
  });

  test('/activate links the purchase kept in session storage to the account that signs in', async ({ page }) => {
    const buyer = uniqueEmail('buyer');
    const subscriptionId = await buyPlanAsVisitor(page, buyer);
    await page.goto('/roots/activate');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Activate your account');
    await expectNoSeriousA11yViolations(page);

    // Another address than the one paid with: only the link makes the purchase this account's.
    const account = uniqueEmail('activated');
    await signInByEmailCode(page, account);
    await expect(page).toHaveURL(/\/roots\/webapp$/, { timeout: 30_000 });
    expect(await page.evaluate(() => sessionStorage.length)).toBe(0);
    expect(await mySubscriptionIds(page)).toEqual([subscriptionId]);
  });

  test('finalize: a signed-in user with vSubscriptionId gets the subscription, session storage cleared, webapp main', async ({ page }) => {
    const buyer = uniqueEmail('finalize-buyer');
    const subscriptionId = await buyPlanAsVisitor(page, buyer);
    expect(await page.evaluate(() => sessionStorage.getItem('__userEmail'))).toBe(buyer);

    // Through the Google-type provider with an account that bought nothing itself.
    const account = { email: uniqueEmail('finalize-google'), name: 'Finalize Person' };
    await page.goto(`/roots/sign-in?vSubscriptionId=${subscriptionId}`);
    await page.getByRole('button', { name: 'Continue with Google' }).click();
    await expect(page.getByRole('heading', { name: GOOGLE_TYPE_PROVIDER.pageTitle })).toBeVisible();
    await chooseProviderAccount(page, account, false);

    // Finalized: webapp main without the vSubscriptionId (the webapp would finalize it again).
    await expect(page).toHaveURL(/\/roots\/webapp$/, { timeout: 30_000 });
    await expect(page.getByTestId('webapp-home-screen')).toBeVisible();
    expect(await page.evaluate(() => sessionStorage.length)).toBe(0);
    expect(await mySubscriptionIds(page)).toEqual([subscriptionId]);
    const me = await (await page.request.get('/api/account/me')).json();
    expect(me).toMatchObject({ has_purchase: true, user: { email: account.email, isGoogleAuth: true } });
  });

  test('finalize with a subscription of someone else’s email is refused with the spec’s message', async ({ page }) => {
    const subscriptionId = await buyPlanAsVisitor(page, uniqueEmail('kept'));
    // The visitor's tab is gone: no purchase email in session storage, so the signed-in email is sent.
    await page.evaluate(() => sessionStorage.clear());
    await page.goto(`/roots/sign-in?vSubscriptionId=${subscriptionId}`);
    await signInByEmailCode(page, uniqueEmail('stranger'));
    await expect(page.getByRole('alert')).toHaveText('Finalize error');
    expect(await mySubscriptionIds(page)).toEqual([]);
  });
});
