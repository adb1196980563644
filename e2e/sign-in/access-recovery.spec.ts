import { expect, test } from '@playwright/test';
import { expectNoSeriousA11yViolations } from '../support/axe';
import { buyPlanAsVisitor, chooseProviderAccount, readSignInCode, uniqueEmail } from '../support/session';

/** Access recovery (ADR 072): the email paid with → a sign-in code → the webapp; or a clear outcome. */
test.describe('access recovery', () => {
  test.setTimeout(120_000);

  test('a customer on a new browser gets a code on the email they paid with and lands on the webapp', async ({ page, browser }) => {
    const email = uniqueEmail('recover');
    await buyPlanAsVisitor(page, email);

    // Another browser: no session, no session storage.
    const context = await browser.newContext();
    const fresh = await context.newPage();
    await fresh.goto('/roots/sign-in');
    await fresh.getByRole('link', { name: /Recover access/ }).click();
    await expect(fresh).toHaveURL(/\/roots\/access-recovery$/);
    await expect(fresh.getByRole('heading', { level: 1 })).toHaveText('Access recovery');
    await expectNoSeriousA11yViolations(fresh);

    const sentAfter = Date.now() - 1_000;
    await fresh.getByLabel('Email you paid with').fill(email);
    await fresh.getByRole('button', { name: 'Send me a sign-in code' }).click();
    await expect(fresh.getByRole('status')).toHaveText(`We sent a 6-digit sign-in code to ${email}. It is valid for 10 minutes.`);
    await expectNoSeriousA11yViolations(fresh);
    await fresh.getByLabel('Code').fill(await readSignInCode(fresh.request, email, sentAfter));
    await fresh.getByRole('button', { name: 'Sign in' }).click();

    await expect(fresh).toHaveURL(/\/roots\/webapp$/, { timeout: 30_000 });
    const me = await (await fresh.request.get('/api/account/me')).json();
    expect(me).toMatchObject({ has_purchase: true, user: { email } });
    await context.close();
  });

  test('an email with no purchase says so, and another email can be tried', async ({ page }) => {
    const email = uniqueEmail('no-purchase');
    await page.goto('/roots/access-recovery');
    await page.getByLabel('Email you paid with').fill(email);
    await page.getByRole('button', { name: 'Send me a sign-in code' }).click();
    await expect(page.getByRole('heading', { name: 'No purchase on this email' })).toBeVisible();
    await expect(page.getByText(`We could not find a purchase made with ${email}.`)).toBeVisible();
    await expectNoSeriousA11yViolations(page);
    await page.getByRole('button', { name: 'Try another email' }).click();
    await expect(page.getByLabel('Email you paid with')).toBeVisible();

    // A wrong address is caught before anything is sent.
    await page.getByLabel('Email you paid with').fill('not-an-email');
    await page.getByRole('button', { name: 'Send me a sign-in code' }).click();
    await expect(page.getByRole('alert')).toHaveText('Please enter a valid email');
  });

  test('a purchase finalized into a Google-type account points there', async ({ page, browser }) => {
    const email = uniqueEmail('paid-then-google');
    const subscriptionId = await buyPlanAsVisitor(page, email);
    await page.goto(`/roots/sign-in?vSubscriptionId=${subscriptionId}`);
    await page.getByRole('button', { name: 'Continue with Google' }).click();
    await chooseProviderAccount(page, { email: uniqueEmail('google-owner'), name: 'Google Owner' }, false);
    await expect(page).toHaveURL(/\/roots\/webapp/, { timeout: 30_000 });

    const context = await browser.newContext();
    const fresh = await context.newPage();
    await fresh.goto('/roots/access-recovery');
    await fresh.getByLabel('Email you paid with').fill(email);
    await fresh.getByRole('button', { name: 'Send me a sign-in code' }).click();
    await expect(fresh.getByRole('heading', { name: 'Your purchase is in another account' })).toBeVisible();
    await expect(fresh.getByText('It is linked to an account that signs in with Google.')).toBeVisible();
    await fresh.getByRole('link', { name: 'Go to sign-in' }).click();
    await expect(fresh.getByRole('button', { name: 'Continue with Google' })).toBeVisible();
    await context.close();
  });
});
