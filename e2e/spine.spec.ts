import { expect, test } from '@playwright/test';

test.describe('the spine in Chromium', () => {
  test('the landing page renders and logs the app version', async ({ page }) => {
    const logs: string[] = [];
    page.on('console', (message) => logs.push(message.text()));
    const response = await page.goto('/');
    expect(page.url()).toMatch(/\/roots\/$/);
    expect(response?.headers()['cache-control']).toBe('no-cache');
    await expect(page.getByTestId('landing-screen')).toBeVisible();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Discover the heritage your face resembles');
    // No price on the landing, so no discount: one is said only beside its struck reference price (ADR 148).
    await expect(page.getByTestId('landing-screen')).not.toContainText(/discount/i);
    await expect(page.getByText('Your photo is processed and not stored.')).toBeVisible();
    await expect(page).toHaveTitle('Roots');
    expect(logs).toContain('[roots] version 0.42.12');
  });

  test('an unknown path shows the 404 screen', async ({ page }) => {
    const response = await page.goto('/no/such/page');
    expect(response?.status()).toBe(404);
    const screen = page.getByTestId('not-found-screen');
    await expect(screen).toBeVisible();
    await expect(screen.getByText('404', { exact: true }).first()).toBeVisible();
    await expect(page.getByRole('heading', { level: 1 })).toContainText('Page Not Found');
    await screen.getByRole('link', { name: 'Go to the start' }).click();
    await expect(page.getByTestId('landing-screen')).toBeVisible();
  });

  test('a lazy route loads its own chunk on navigation', async ({ page }) => {
    await page.goto('/roots/nowhere/../../elsewhere');
    await expect(page.getByTestId('not-found-screen')).toBeVisible();
    const chunkRequests: string[] = [];
    page.on('request', (request) => {
      if (request.url().includes('/roots/assets/') && request.url().endsWith('.js')) chunkRequests.push(request.url());
    });
    await page.getByRole('link', { name: 'Go to the start' }).click();
    await expect(page).toHaveURL(/\/roots\/$/);
    await expect(page.getByTestId('landing-screen')).toBeVisible();
    expect(chunkRequests.some((url) => /onboarding-screen-[\w-]+\.js$/.test(url))).toBe(true);
  });

  test('the fixed images are preloaded outside the webapp area', async ({ page }) => {
    const images: string[] = [];
    page.on('request', (request) => {
      if (request.resourceType() === 'image') images.push(new URL(request.url()).pathname);
    });
    await page.goto('/roots/sign-in');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Sign in');
    await expect.poll(() => images.filter((p) => p.startsWith('/roots/images/')).length).toBeGreaterThanOrEqual(4);
  });
});
