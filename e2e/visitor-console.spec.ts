import { expect, test, type Page } from '@playwright/test';
import { uniqueEmail } from './support/session';

/**
 * A visitor's funnel pages on a phone log nothing and fail no request (issue 24, ADR 149): no
 * console error or warning (it was a 401 for /api/account/me and a Permissions-Policy warning on
 * every page), and no 4xx/5xx answer to anything the pages load, frames included.
 */
test.use({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });

/** Records every console error and warning, page error and 4xx/5xx response of `page`. */
function watch(page: Page) {
  const problems: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error' || message.type() === 'warning') problems.push(`console ${message.type()}: ${message.text()}`);
  });
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  page.on('response', (response) => {
    if (response.status() >= 400) problems.push(`${response.status()} ${response.request().method()} ${response.url()}`);
  });
  return problems;
}

test('a visitor walking the funnel pages sees no console error or warning and no failed request', async ({ page }) => {
  test.setTimeout(120_000);
  const problems = watch(page);
  const visited: string[] = [];
  const settle = async (path: string, ready: () => Promise<void>) => {
    await page.goto(path);
    await ready();
    // Late requests (the session, the entitlements, the gateway's frames) answer before the next page.
    await page.waitForLoadState('networkidle');
    visited.push(path);
  };

  await settle('/roots/', () => expect(page.getByTestId('landing-screen')).toBeVisible());
  await page.getByRole('button', { name: 'Next' }).click();
  await page.getByRole('button', { name: 'Next' }).click();
  await page.getByRole('button', { name: 'Take the selfie test' }).click();
  await expect(page.getByRole('checkbox')).toHaveCount(2);

  await settle('/roots/subscription', () => expect(page.getByTestId('paywall-screen')).toBeVisible());
  // With the email the funnel captured, the paywall reads the session and mounts the checkout's frames.
  await page.evaluate((address) => sessionStorage.setItem('userQuizEmail', address), uniqueEmail('console'));
  await settle('/roots/subscription?plan=roots_3m4800_3m4999', () =>
    expect(page.getByTestId('roots-pay')).toBeVisible({ timeout: 30_000 }),
  );
  await settle('/roots/offers?sure_popup=true', () => expect(page.getByTestId('offers-screen')).toBeVisible());
  await settle('/roots/sign-in', () => expect(page.getByRole('heading', { level: 1 })).toBeVisible());
  await settle('/roots/activate', () => expect(page.getByRole('heading', { level: 1 })).toBeVisible());
  await settle('/roots/access-product', () => expect(page.getByTestId('access-product-screen')).toBeVisible());
  await settle('/roots/unsubscribe-with-email', () => expect(page.getByRole('heading', { level: 1 })).toBeVisible());
  await settle('/roots/access-recovery', () => expect(page.getByRole('heading', { level: 1 })).toBeVisible());
  await settle('/roots/population', () => expect(page.getByRole('heading', { level: 1 })).toBeVisible());

  expect(visited).toHaveLength(10);
  expect(problems).toEqual([]);
});
