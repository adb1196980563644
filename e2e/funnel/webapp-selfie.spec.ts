import { expect, test, type Page } from '@playwright/test';
import type { ReportListResponse } from '@roots/contracts/reports';
import { expectNoSeriousA11yViolations } from '../support/axe';
import { expectReportShown } from '../support/reports';
import { payWithSuccessCard, signInByEmailCode, uniqueEmail } from '../support/session';
import { FunnelPage } from './funnel-page';

/**
 * A report for every payer (issue 24, ADR 145), on a phone: the selfie lives only in the tab's
 * memory, so a reload on the paywall loses it. The paywall says so, the purchase goes through without
 * it, and the signed-in app offers 'Take a selfie' with the funnel's consents, camera and check, then
 * shows the report. Chromium's fake camera feeds a real face (e2e/support/global-setup.ts).
 */
test.use({ viewport: { width: 390, height: 844 } });

const REPORT_CREATE_PATHS = ['/report/create', '/pdf-report/create'];

/** The signed-in user's reports, as the server lists them for the session. */
async function listMyReports(page: Page): Promise<ReportListResponse['reports']> {
  // A cookie-carrying POST names its Origin, as the page's own fetch does (ADR 111).
  const answer = await page.request.post('/report/list-reports', { data: {}, headers: { origin: new URL(page.url()).origin } });
  expect(answer.status(), await answer.text()).toBe(200);
  return ((await answer.json()) as ReportListResponse).reports;
}

test.describe('a report for every payer', () => {
  test.setTimeout(240_000);

  test('fresh visitor: reload on the paywall → pay → sign in → take a selfie in the app → report shown', async ({ page }) => {
    const email = uniqueEmail('selfie-after-reload');
    const funnel = new FunnelPage(page);
    // Every photo sent for a report, from the first page on.
    const reportRequests: string[] = [];
    page.on('request', (request) => {
      const path = new URL(request.url()).pathname;
      if (REPORT_CREATE_PATHS.includes(path)) reportRequests.push(path);
    });

    await funnel.open('/roots/');
    await funnel.passWalkthrough();
    await funnel.giveConsent();
    await page.getByRole('button', { name: 'Open the camera' }).click();
    await funnel.takeSelfieWithCamera();
    await expect(page.getByRole('heading', { name: 'Where should we send your results?' })).toBeVisible({ timeout: 60_000 });
    await funnel.submitEmail(email);
    await expect(page).toHaveURL(/\/roots\/subscription$/);
    await expect(page.getByTestId('roots-pay')).toBeVisible({ timeout: 30_000 });
    // The photo is in this tab's memory: the report is to be made from it after payment.
    await expect(page.getByTestId('selfie-notice')).toHaveCount(0);

    // The reload lets the photo go; the paywall says the selfie will be asked again.
    await page.reload();
    await expect(page.getByTestId('roots-pay')).toBeVisible({ timeout: 30_000 });
    await expect(page.getByTestId('selfie-notice')).toContainText('We will ask for your selfie again after payment');
    // The tab kept a flag that it took a selfie, never the photo.
    expect(await page.evaluate(() => sessionStorage.getItem('__selfieTaken'))).toBe('1');
    const stored = await page.evaluate(() => [...Object.values(sessionStorage), ...Object.values(localStorage)]);
    expect(stored.filter((value) => value.length > 512 || /UklGR|data:image|\/9j\//.test(value))).toEqual([]);
    await expectNoSeriousA11yViolations(page);

    await payWithSuccessCard(page);
    await expect(page).toHaveURL(/\/roots\/offers/, { timeout: 60_000 });
    // Nothing was sent for a report before payment (nor after it: there was no photo to send).
    expect(reportRequests).toEqual([]);
    const subscriptionId = await page.evaluate(() => sessionStorage.getItem('__subscriptionId'));
    expect(subscriptionId).toMatch(/^[0-9a-f-]{36}$/);

    await page.getByRole('button', { name: 'Continue to my account' }).click();
    await expect(page).toHaveURL(new RegExp(`/roots/sign-in\\?vSubscriptionId=${subscriptionId}$`));
    await signInByEmailCode(page, email);
    await expect(page).toHaveURL(/\/roots\/webapp$/, { timeout: 30_000 });
    // The server holds no report for this customer: none was made before payment.
    expect(await listMyReports(page)).toEqual([]);

    // Home: no report yet, and the way to one.
    await expect(page.getByRole('tabpanel')).toContainText('No report yet.');
    await expect(page.getByTestId('take-selfie')).toContainText('Your purchase includes a report. Take a selfie to get it.');
    await expectNoSeriousA11yViolations(page);
    await page.getByRole('link', { name: 'Take a selfie' }).click();
    await expect(page).toHaveURL(/\/roots\/webapp\/selfie$/);

    // The funnel's consents, camera tip, camera and quality check, in the app.
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Before we take your photo');
    await funnel.giveConsent();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Take a photo');
    await page.getByRole('button', { name: 'Open the camera' }).click();
    await expect(page.locator('video.selfie__video')).toBeVisible();
    await expectNoSeriousA11yViolations(page);
    const created = page.waitForResponse((response) => new URL(response.url()).pathname === '/report/create', { timeout: 90_000 });
    await funnel.takeSelfieWithCamera();
    await expect(page.getByRole('progressbar', { name: 'Analysing your photo' })).toBeVisible();
    const answer = await created;
    expect(answer.status(), await answer.text()).toBe(200);
    // The session is the proof: the photo goes without an email or a purchase id.
    expect(Object.keys(answer.request().postDataJSON() as object)).toEqual(['image']);
    const { report_id: reportId } = (await answer.json()) as { report_id: string };

    // My Ethnicity shows the report being made, then the report.
    await expectReportShown(page, reportId, ['Ethnicity Conclusion', 'Your Ethnicity', 'Detalisation']);
    await expectNoSeriousA11yViolations(page);

    // One report, made under the purchase, and no more 'Take a selfie'.
    expect((await listMyReports(page)).map((report) => [report.report_id, report.subscription_id, report.status])).toEqual([
      [reportId, subscriptionId, 'completed'],
    ]);
    expect(reportRequests).toEqual(['/report/create']);
    await page.goto('/roots/webapp');
    await expect(page.getByRole('tabpanel')).toContainText(
      /most resembles the .+ \(\d+% visual resemblance, (?:high|medium|low) (?:reliability|confidence)\)|The estimate is uncertain/,
    );
    await expect(page.getByRole('link', { name: 'Take a selfie' })).toHaveCount(0);
  });
});
