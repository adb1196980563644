import { expect, test } from '@playwright/test';
import { APPLE_TYPE_PROVIDER, GOOGLE_TYPE_PROVIDER } from '../support/oidc-provider.config';
import { buyPlanAsVisitor, chooseProviderAccount, uniqueEmail } from '../support/session';

/**
 * Redirect sign-in through the local OpenID Connect providers (e2e/support/oidc-provider.ts), the
 * Google-type and the Apple-type configuration, against the real product server and better-auth.
 */
test.describe('redirect sign-in', () => {
  test.setTimeout(120_000);

  test('Google-type: account chooser every time, session-only cookie, lands on the webapp', async ({ page, context }) => {
    const email = uniqueEmail('google');
    await buyPlanAsVisitor(page, email);
    await page.goto('/roots/sign-in');

    const authorize = page.waitForRequest((request) => request.url().startsWith(`${GOOGLE_TYPE_PROVIDER.issuer}/auth`));
    await page.getByRole('button', { name: 'Continue with Google' }).click();
    const authorizeUrl = new URL((await authorize).url());
    expect(authorizeUrl.searchParams.get('prompt')).toBe('select_account');
    expect(authorizeUrl.searchParams.get('scope')?.split(' ').sort()).toEqual(['email', 'openid', 'profile']);
    expect(authorizeUrl.searchParams.get('code_challenge_method')).toBe('S256');
    await expect(page.getByRole('heading', { name: GOOGLE_TYPE_PROVIDER.pageTitle })).toBeVisible();
    await chooseProviderAccount(page, { email, name: 'Google Buyer' }, false);

    await expect(page).toHaveURL(/\/roots\/webapp$/, { timeout: 30_000 });
    await expect(page.getByTestId('webapp-home-screen')).toBeVisible();
    const me = await (await page.request.get('/api/account/me')).json();
    expect(me.user).toMatchObject({ email, displayName: 'Google Buyer', providerId: 'google', isGoogleAuth: true, isAppleAuth: false });
    // Session-only persistence chosen before the redirect: the session cookie ends with the browser.
    const sessionCookie = (await context.cookies()).find((cookie) => cookie.name === 'better-auth.session_token');
    expect(sessionCookie?.expires).toBe(-1);
    expect(sessionCookie?.httpOnly).toBe(true);
    // The redirect-wait flag is cleared 3 s after start-up.
    await expect.poll(() => page.evaluate(() => localStorage.getItem('waitingForRedirectResponse')), { timeout: 10_000 }).toBeNull();

    // Signed out, the chooser shows again although the provider remembers the account.
    await page.getByRole('button', { name: 'Sign out' }).click();
    await expect(page).toHaveURL(/\/roots\/(sign-in)?$/);
    await page.goto('/roots/sign-in');
    await page.getByRole('button', { name: 'Continue with Google' }).click();
    await expect(page.getByRole('heading', { name: GOOGLE_TYPE_PROVIDER.pageTitle })).toBeVisible();
    await expect(page.getByRole('button', { name: `Google Buyer <${email}>` })).toBeVisible();
    await chooseProviderAccount(page, { email, name: 'Google Buyer' }, true);
    await expect(page).toHaveURL(/\/roots\/webapp$/, { timeout: 30_000 });
  });

  test('Apple-type: email and name by form post, lands on the webapp', async ({ page }) => {
    const account = APPLE_TYPE_PROVIDER.accounts[0]!;
    await buyPlanAsVisitor(page, account.email);
    await page.goto('/roots/sign-in');

    const authorize = page.waitForRequest((request) => request.url().startsWith(`${APPLE_TYPE_PROVIDER.issuer}/auth`));
    await page.getByRole('button', { name: 'Continue with Apple' }).click();
    const authorizeUrl = new URL((await authorize).url());
    expect(authorizeUrl.searchParams.get('scope')?.split(' ').sort()).toEqual(['email', 'name', 'openid']);
    expect(authorizeUrl.searchParams.get('response_mode')).toBe('form_post');
    expect(authorizeUrl.searchParams.get('prompt')).toBeNull();
    await expect(page.getByRole('heading', { name: APPLE_TYPE_PROVIDER.pageTitle })).toBeVisible();
    await chooseProviderAccount(page, account, true);

    await expect(page).toHaveURL(/\/roots\/webapp$/, { timeout: 30_000 });
    const me = await (await page.request.get('/api/account/me')).json();
    expect(me.user).toMatchObject({ email: account.email, displayName: account.name, providerId: 'apple', isAppleAuth: true });
    expect(me.has_purchase).toBe(true);
  });

  test('a refusal at the provider comes back to sign-in: only logged, nobody signed in', async ({ page }) => {
    const logged: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error') logged.push(message.text());
    });
    await page.goto('/roots/sign-in');
    await page.getByRole('button', { name: 'Continue with Google' }).click();
    await expect(page.getByRole('heading', { name: GOOGLE_TYPE_PROVIDER.pageTitle })).toBeVisible();
    await page.getByRole('button', { name: 'Cancel' }).click();

    await expect(page).toHaveURL(/\/roots\/sign-in\?.*error=access_denied/, { timeout: 30_000 });
    await expect(page.getByRole('button', { name: 'Continue with Google' })).toBeVisible();
    await expect(page.getByRole('alert')).toHaveCount(0);
    expect(logged.some((text) => text.includes('sign-in redirect') && text.includes('access_denied'))).toBe(true);
    expect((await page.request.get('/api/account/me')).status()).toBe(401);
  });
});
