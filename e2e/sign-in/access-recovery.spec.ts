import { expect, test } from '@playwright/test';
import { expectNoSeriousA11yViolations } from '../support/axe';
import { buyPlanAsVisitor, chooseProviderAccount, latestEmail, readSignInCode, uniqueEmail } from '../support/session';

/**
 * Access recovery (ADR 072, 136): the email paid with → a sign-in code → the webapp. The screen says
 * the same for every email (what an address bought is its owner's business); the email tells the rest.
 */
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
    await expect(fresh.getByRole('status')).toHaveText(
      `If a purchase was made with ${email}, we sent a 6-digit sign-in code to it. It is valid for 10 minutes.`,
    );
    await expectNoSeriousA11yViolations(fresh);
    await fresh.getByLabel('Code').fill(await readSignInCode(fresh.request, email, sentAfter));
    await fresh.getByRole('button', { name: 'Sign in' }).click();

    await expect(fresh).toHaveURL(/\/roots\/webapp$/, { timeout: 30_000 });
    const me = await (await fresh.request.get('/api/account/me')).json();
    expect(me).toMatchObject({ has_purchase: true, user: { email } });
    await context.close();
  });

  test('an email with no purchase gets the same screen as one with a purchase, and another email can be tried', async ({ page }) => {
    const email = uniqueEmail('no-purchase');
    await page.goto('/roots/access-recovery');
    await page.getByLabel('Email you paid with').fill(email);
    await page.getByRole('button', { name: 'Send me a sign-in code' }).click();
    await expect(page.getByRole('status')).toHaveText(
      `If a purchase was made with ${email}, we sent a 6-digit sign-in code to it. It is valid for 10 minutes.`,
    );
    await expect(page.getByText('No email after a few minutes? Check the address you paid with.')).toBeVisible();
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
    const askedAt = Date.now() - 1_000;
    await fresh.getByRole('button', { name: 'Send me a sign-in code' }).click();
    await expect(fresh.getByRole('status')).toContainText(`If a purchase was made with ${email}`);
    // The address's owner reads the way in: the email names Google and links the sign-in page.
    const help = await latestEmail(fresh.request, email, 'access_help', askedAt);
    expect(help.text).toContain('in an account that signs in with Google');
    expect(help.text).not.toContain('google-owner');
    const signInLink = /(https?:\/\/\S+\/roots\/sign-in)/.exec(help.text)![1]!;
    await fresh.goto(signInLink);
    await expect(fresh.getByRole('button', { name: 'Continue with Google' })).toBeVisible();
    await context.close();
  });
});
