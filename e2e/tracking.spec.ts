import { expect, test, type Page } from '@playwright/test';
import { readFileSync } from 'node:fs';
import { GOOGLE_TYPE_PROVIDER } from './support/oidc-provider.config';
import { CAMERA_FACE } from './support/paths';
import { buyPlanAsVisitor, chooseProviderAccount, signInByEmailCode, uniqueEmail } from './support/session';

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
    // Every request the pages made has finished (none open for 500 ms): none of them was tracking.
    await page.waitForLoadState('networkidle');
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

  test('the ip and country the server answers at GET /remote-addr go into the attribution of events and the purchase', async ({ page }) => {
    await deploymentTracks(page);
    // The real answer, with a country set: the product under test runs without a country header.
    const served: Array<{ ip: string; country: string }> = [];
    await page.route('**/remote-addr', async (route) => {
      const real = (await (await route.fetch()).json()) as { ip: string; country: string };
      served.push({ ...real, country: 'DE' });
      await route.fulfill({ json: served.at(-1) });
    });
    const campaigns: Array<{ path: string; record: Record<string, string> }> = [];
    page.on('request', (request) => {
      const { pathname } = new URL(request.url());
      if (request.method() !== 'POST') return;
      const body = JSON.parse(request.postData() ?? '{}') as { campaign?: Record<string, string>; attribution?: Record<string, string> };
      if (pathname === '/event' && body.campaign) campaigns.push({ path: pathname, record: body.campaign });
      if (pathname === '/subs/create-no-user' && body.attribution) campaigns.push({ path: pathname, record: body.attribution });
    });
    await page.goto('/roots/?wmq=1&country_code=US');
    await expect.poll(() => campaigns.length).toBeGreaterThan(0);
    const arrivedAt = page.url();
    await buyPlanAsVisitor(page, uniqueEmail('remote-addr'), '?wmq=1&country_code=US');
    // The address the visit arrived at is kept under __url for the visit (product-spec §3).
    expect(await page.evaluate(() => sessionStorage.getItem('__url'))).toBe(arrivedAt);

    // Asked once per page load (the paywall is a new load), always answered the same.
    expect(served.length).toBeGreaterThan(0);
    const ip = served[0]!.ip;
    expect(ip).toMatch(/^[\d.:a-f]+$/);
    expect(campaigns.map((item) => item.path)).toContain('/subs/create-no-user');
    for (const { path, record } of campaigns) {
      expect({ path, ip: record.client_ip_address, country: record.country_code }).toEqual({ path, ip, country: 'DE' });
    }
  });

  test("the signed-in stages: 'waiting for redirect response', then 'report ready' and 'results' on My Ethnicity", async ({ page }) => {
    await deploymentTracks(page);
    const sent = recordTracking(page);
    const events = () => sent.map((item) => item.event);
    await page.goto('/roots/?wmq=1');
    const email = uniqueEmail('tracked-stages');
    const subscriptionId = await buyPlanAsVisitor(page, email, '?wmq=1');

    await page.goto('/roots/sign-in?wmq=1');
    await page.getByRole('button', { name: 'Continue with Google' }).click();
    await expect(page.getByRole('heading', { name: GOOGLE_TYPE_PROVIDER.pageTitle })).toBeVisible();
    expect(events()).toContain('waiting for redirect response');
    await chooseProviderAccount(page, { email, name: 'Tracked Buyer' }, false);
    await expect(page).toHaveURL(/\/roots\/webapp/, { timeout: 30_000 });

    // A report made now (report/create, as the funnel makes it), watched from My Ethnicity while it is made.
    const image = readFileSync(CAMERA_FACE).toString('base64');
    const headers = { origin: new URL(page.url()).origin };
    const created = await page.request.post('/report/create', { data: { email, subscription_id: subscriptionId, image }, headers });
    expect(created.status(), await created.text()).toBe(200);
    const { report_id: reportId } = (await created.json()) as { report_id: string };
    // Within the app the finalize landed in (it cleared session storage), as a link would go.
    await page.evaluate((path) => {
      window.history.pushState({}, '', path);
      window.dispatchEvent(new PopStateEvent('popstate'));
    }, `/roots/webapp/myethnicity/${reportId}`);
    await expect(page.getByRole('heading', { name: 'Your Roots' })).toBeVisible({ timeout: 30_000 });
    await expect.poll(events, { timeout: 120_000 }).toContain('results');
    expect(events().indexOf('report ready')).toBeGreaterThan(-1);
    expect(events().indexOf('report ready')).toBeLessThan(events().indexOf('results'));
    expect(events().indexOf('waiting for redirect response')).toBeLessThan(events().indexOf('report ready'));
  });
});
