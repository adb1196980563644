import { expect, test, type Page } from '@playwright/test';
import { buyPlanAsVisitor, signInByEmailCode, uniqueEmail } from './support/session';

/** What the page sent to the product's tracking endpoints (POST /event, POST /subscriptions/{id}). */
function recordTracking(page: Page): Array<{ path: string; event: string | null }> {
  const sent: Array<{ path: string; event: string | null }> = [];
  page.on('request', (request) => {
    const { pathname } = new URL(request.url());
    if (request.method() !== 'POST' || !(pathname === '/event' || pathname.startsWith('/subscriptions/'))) return;
    const body = request.postData() ?? '';
    sent.push({ path: pathname, event: pathname === '/event' ? ((JSON.parse(body) as { event: string }).event ?? null) : null });
  });
  return sent;
}

/**
 * As if the deployment ran with TRACKING_ENABLED=true: the config the server writes into each page
 * is switched before the app reads it (the product under test runs with the default, false).
 */
async function deploymentTracks(page: Page): Promise<void> {
  await page.addInitScript(() => {
    new MutationObserver((_changes, observer) => {
      const element = document.getElementById('roots-config');
      if (!element?.textContent) return;
      element.textContent = element.textContent.replace('"trackingEnabled":false', '"trackingEnabled":true');
      observer.disconnect();
    }).observe(document, { childList: true, subtree: true, characterData: true });
  });
}

test.describe('funnel tracking', () => {
  test.setTimeout(180_000);

  test('TRACKING_ENABLED=false: nothing is sent, even with wmq=1 in the URL, through purchase and sign-in', async ({ page }) => {
    const sent = recordTracking(page);
    await page.goto('/roots/?wmq=1');
    await expect(page.getByTestId('landing-screen')).toBeVisible();
    await page.getByRole('button', { name: 'Next' }).click();
    const email = uniqueEmail('untracked');
    await buyPlanAsVisitor(page, email, '?wmq=1');
    await page.getByRole('button', { name: 'Continue to my account' }).click();
    await expect(page).toHaveURL(/\/roots\/sign-in/);
    await expect(page.getByTestId('sign-in-screen')).toBeVisible();
    await page.waitForTimeout(500);
    expect(sent).toEqual([]);
  });

  test('tracking on with wmq=1: stage events at their moments, no purchase event from the page, the subscription reported once', async ({
    page,
  }) => {
    await deploymentTracks(page);
    const sent = recordTracking(page);
    await page.goto('/roots/?wmq=1');
    await expect.poll(() => sent.map((item) => item.event)).toContain('intro');
    const email = uniqueEmail('tracked');
    const subscriptionId = await buyPlanAsVisitor(page, email, '?wmq=1');
    const events = sent.map((item) => item.event);
    // The paywall's stages, in order: the offer, then the payment form once the email is known.
    expect(events.indexOf('subscription offer')).toBeGreaterThan(-1);
    expect(events.indexOf('payment modal')).toBeGreaterThan(events.indexOf('subscription offer'));
    expect(sent.filter((item) => item.path === `/subscriptions/${subscriptionId}`)).toHaveLength(1);
    await expect.poll(() => sent.map((item) => item.event)).toContain('offers');

    await page.getByRole('button', { name: 'Continue to my account' }).click();
    await expect(page).toHaveURL(new RegExp(`/roots/sign-in\\?.*vSubscriptionId=${subscriptionId}`));
    await expect.poll(() => sent.map((item) => item.event)).toContain('account');
    await signInByEmailCode(page, email);
    // Finalized: the query is kept, without the vSubscriptionId it carried.
    await expect(page).toHaveURL(/\/roots\/webapp\?wmq=1$/, { timeout: 30_000 });

    for (const name of ['Purchase', 'AllPurchase', 'One-timePurchase', 'CompleteRegistration', 'Full plan sale purchase'])
      expect(sent.map((item) => item.event)).not.toContain(name);
  });
});
