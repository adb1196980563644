import { expect, test, type Browser } from '@playwright/test';

/**
 * bb=true on the landing inside Instagram/Facebook in-app browsers (product-spec §2), one user agent
 * per branch. Chromium cannot open the schemes an in-app browser hands to the OS; the DevTools
 * protocol's requested-navigation event (or Chromium's refusal on the console) shows where the
 * page tried to send the visitor.
 */
const IOS = (version: string) =>
  `Mozilla/5.0 (iPhone; CPU iPhone OS ${version} like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 Instagram 300.0.0.0.0 (iPhone13,2; iOS ${version}; en_US; en-US; scale=3.00; 1170x2532; 520000000)`;
const ANDROID_INSTAGRAM =
  'Mozilla/5.0 (Linux; Android 13; Pixel 7 Build/TQ3A.230805.001; wv) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/116.0.0.0 Mobile Safari/537.36 Instagram 298.0.0.0.0 Android (33/13; 420dpi; 1080x2400; Google/google; Pixel 7; panther; panther; en_US; 512000000)';
const IOS_FACEBOOK =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 [FBAN/FBIOS;FBAV/440.0.0.0.0;FBBV/0;FBDV/iPhone14,5;FBMD/iPhone;FBSN/iOS;FBSV/17.1;FBSS/3;FBID/phone;FBLC/en_US;FBOP/5]';

async function openWith(browser: Browser, userAgent: string, query: string) {
  const context = await browser.newContext({ userAgent });
  const page = await context.newPage();
  const launches: string[] = [];
  const cdp = await context.newCDPSession(page);
  await cdp.send('Page.enable');
  cdp.on('Page.frameRequestedNavigation', ({ url }) => {
    if (!/^https?:/.test(url)) launches.push(url);
  });
  // Chromium refuses googlechrome:// before asking for a navigation, and says so on the console.
  page.on('console', (message) => {
    const refused = /^Not allowed to load local resource: (\S+)/.exec(message.text());
    if (refused) launches.push(refused[1]!);
  });
  await page.goto(`/roots/${query}`);
  return { page, launches, close: () => context.close() };
}

test.describe('escape from in-app browsers (bb=true)', () => {
  test('Android: an intent URL to the default browser, flags dropped, the redirect page as fallback', async ({ browser, baseURL }) => {
    const { launches, close } = await openWith(browser, ANDROID_INSTAGRAM, '?bb_android=true&plan=roots_3d1_7d2499');
    await expect.poll(() => launches.length).toBeGreaterThan(0);
    const host = new URL(baseURL!).host;
    expect(launches[0]).toMatch(new RegExp(`^intent://${host}/roots/\\?plan=roots_3d1_7d2499#Intent;scheme=http;`));
    expect(launches[0]).toContain('action=android.intent.action.VIEW');
    expect(launches[0]).not.toContain('package=');
    expect(decodeURIComponent(/S\.browser_fallback_url=([^;]+)/.exec(launches[0]!)![1]!)).toContain('/roots/open-in-browser.html?url=');
    await close();
  });

  test('iOS 14: the external redirect page, which hands the page to the default browser', async ({ browser }) => {
    const { page, launches, close } = await openWith(browser, IOS('14_8'), '?bb=true');
    await expect(page).toHaveURL(/\/roots\/open-in-browser\.html\?url=/);
    await expect(page.getByRole('link', { name: 'Continue' })).toHaveAttribute('href', /\/roots\/$/);
    await expect.poll(() => launches.length).toBeGreaterThan(0);
    expect(launches[0]).toMatch(/^shortcuts:\/\/x-callback-url\/run-shortcut\?name=open-\d+&x-error=http/);
    await close();
  });

  test('the escape page follows only an address of the product itself (no open redirect, issue 22)', async ({ browser, baseURL }) => {
    // An in-app browser that does not hand the page on by itself (iOS 13–14 would navigate away).
    const context = await browser.newContext({ userAgent: ANDROID_INSTAGRAM });
    const page = await context.newPage();
    for (const foreign of ['https://evil.example/phish', '//evil.example/x', 'javascript:alert(1)']) {
      await page.goto(`/roots/open-in-browser.html?url=${encodeURIComponent(foreign)}`);
      await expect(page.getByRole('link', { name: 'Continue' })).toHaveAttribute('href', '/');
      await expect(page).toHaveURL(/\/roots\/open-in-browser\.html\?url=/);
    }
    const own = `${baseURL}/roots/?plan=roots_3d1_7d2499`;
    await page.goto(`/roots/open-in-browser.html?url=${encodeURIComponent(own)}`);
    await expect(page.getByRole('link', { name: 'Continue' })).toHaveAttribute('href', own);
    await context.close();
  });

  test('iOS 15 stays; iOS 16 opens Chrome; iOS 17 opens Safari; a real browser stays', async ({ browser }) => {
    const stay = await openWith(browser, IOS('15_7'), '?bb=true');
    await expect(stay.page.getByTestId('landing-screen')).toBeVisible();
    expect(stay.launches).toEqual([]);
    await stay.close();

    const chrome = await openWith(browser, IOS('16_6'), '?bb=true');
    await expect.poll(() => chrome.launches[0] ?? '').toMatch(/^googlechrome:\/\/.+\/roots\/$/);
    await chrome.close();

    const safari = await openWith(browser, IOS_FACEBOOK, '?bb=true');
    await expect.poll(() => safari.launches[0] ?? '').toMatch(/^x-safari-http:\/\/.+\/roots\/$/);
    await safari.close();

    const real = await openWith(browser, 'Mozilla/5.0 (X11; Linux x86_64) Chrome/130.0 Safari/537.36', '?bb=true');
    await expect(real.page.getByTestId('landing-screen')).toBeVisible();
    expect(real.launches).toEqual([]);
    await real.close();
  });
});
