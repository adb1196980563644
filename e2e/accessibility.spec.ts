import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { createCompletedReport } from './support/reports';
import { buyPlanAsVisitor, signInByEmailCode, uniqueEmail } from './support/session';

/**
 * Every screen of the funnel, the offers (with sure_popup's question open), the signed-in account
 * and the report, on a 390x844 phone, through axe-core with its default rules (WCAG A and AA,
 * colour contrast included): no serious or critical violation (issue 24). Each screen's findings
 * are gathered and compared at the end, so one run names every screen that fails.
 */
test.use({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });

/** axe on the page as it is; returns the serious and critical findings, one line per rule and screen. */
async function audit(page: Page, screen: string, findings: string[], audited: string[]): Promise<void> {
  const results = await new AxeBuilder({ page }).analyze();
  expect(results.passes.length, `${screen}: axe ran`).toBeGreaterThan(10);
  for (const violation of results.violations)
    if (violation.impact === 'serious' || violation.impact === 'critical')
      findings.push(`${screen}: ${violation.id} at ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`);
  audited.push(screen);
}

test('every screen passes axe on a phone, colour contrast included', async ({ page }) => {
  test.setTimeout(300_000);
  const findings: string[] = [];
  const audited: string[] = [];
  const check = (screen: string) => audit(page, screen, findings, audited);

  // The funnel: the three slides, consent, the camera tip.
  await page.goto('/roots/');
  for (const slide of [1, 2, 3]) {
    await expect(page.getByTestId('landing-screen')).toBeVisible();
    await check(`landing slide ${slide}`);
    await page.getByRole('button', { name: slide === 3 ? 'Take the selfie test' : 'Next' }).click();
  }
  await check('consent');
  for (const box of await page.getByRole('checkbox').all()) await box.check();
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(page.getByText('Attention: lighting must be natural')).toBeVisible();
  await check('camera tip');

  // The paywall: asking for the email, then with the drop-in; a bad plan id's overlay.
  await page.goto('/roots/subscription?plan=roots_3m4800_3m4999');
  await expect(page.getByTestId('paywall-screen')).toBeVisible();
  await check('paywall, email');
  await page.goto('/roots/subscription?plan=roots_nope&skip_trial_plan=roots_gone');
  await expect(page.getByTestId('unknown-plan-overlay')).toBeVisible();
  await check('unknown plan overlay');

  // A purchase, the offers and the sure_popup question.
  const email = uniqueEmail('a11y');
  const subscriptionId = await buyPlanAsVisitor(page, email, '?sure_popup=true&skip_trial_plan=roots_3m4800_3m4999');
  await check('offers');
  await page.getByRole('button', { name: 'Continue to my account' }).click();
  await expect(page.getByRole('alertdialog', { name: 'Are you sure?' })).toBeVisible();
  await check('offers, sure_popup question');

  // Visitor pages beside the funnel.
  for (const [path, screen] of [
    ['/roots/sign-in', 'sign-in'],
    ['/roots/activate', 'activate'],
    ['/roots/access-product', 'access product'],
    ['/roots/unsubscription', 'cancel'],
    ['/roots/unsubscribe-with-email', 'cancel with email'],
    ['/roots/access-recovery', 'access recovery'],
    ['/roots/population', 'population'],
    ['/roots/legal/privacy', 'privacy'],
    ['/roots/no/such/page', 'not found'],
  ] as const) {
    await page.goto(path);
    await expect(page.getByRole('heading', { level: 1 }).first()).toBeVisible();
    await check(screen);
  }

  // Signed in, with a report.
  const reportId = await createCompletedReport(page, { email, subscriptionId });
  await page.goto('/roots/sign-in');
  await signInByEmailCode(page, email);
  await expect(page).toHaveURL(/\/roots\/webapp/, { timeout: 30_000 });
  for (const section of ['My Ethnicity', 'Biorhythm', 'Daily Horoscope', 'Population']) {
    await page.getByRole('tab', { name: section }).click();
    await expect(page.getByRole('tab', { selected: true })).toHaveText(section);
    await check(`home, ${section}`);
  }
  await page.goto(`/roots/webapp/myethnicity/${reportId}`);
  await expect(page.getByTestId('ethnicity-conclusion')).toBeVisible({ timeout: 30_000 });
  await check('report');
  for (const view of ['feedback', 'horoscope']) {
    await page.goto(`/roots/webapp/myethnicity/${reportId}?view=${view}`);
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await check(`report, ${view}`);
  }
  for (const [path, screen] of [
    ['/roots/webapp/profile', 'profile'],
    ['/roots/webapp/reports', 'reports history'],
  ] as const) {
    await page.goto(path);
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await page.waitForLoadState('networkidle');
    await check(screen);
  }
  await page.goto('/roots/webapp/manage-subscriptions');
  const item = page.getByTestId('subscription-item');
  await expect(item).toHaveCount(1);
  await check('manage subscriptions');
  await item.getByRole('button', { name: 'Cancel subscription' }).click();
  await check('manage subscriptions, cancel question');
  await item.getByRole('button', { name: 'Yes, cancel' }).click();
  await expect(page.getByRole('status').first()).toContainText('You keep access until');
  await check('manage subscriptions, canceled');
  await page.goto('/roots/webapp');
  await page.getByRole('button', { name: 'Delete my data' }).click();
  await check('home, delete question');
  await page.getByRole('button', { name: 'Delete everything' }).click();
  await expect(page.getByTestId('account-deleted')).toBeVisible();
  await check('data deleted');

  expect(audited.length).toBeGreaterThanOrEqual(30);
  expect(findings).toEqual([]);
});
