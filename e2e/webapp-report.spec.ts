import { expect, test, type Page } from '@playwright/test';
import { CONCLUSION, createCompletedReport } from './support/reports';
import { expectNoSeriousA11yViolations } from './support/axe';
import { buyPlanAsVisitor, signInAsNewCustomer, signInByEmailCode, uniqueEmail } from './support/session';

/**
 * The signed-in report screens (issue 8, product-spec §2) with a real report: a visitor buys the
 * weekly trial on the paywall, the report is made from a real FairFace photo by report/create (as
 * the funnel makes it), the customer signs in with an email code from the dev mailbox, then walks
 * home → My Ethnicity → its sub-pages → reports history. axe-core runs on every view.
 */

const selectedTab = (page: Page) => page.getByRole('tab', { selected: true });

test.describe('webapp report screens', () => {
  test.setTimeout(240_000);

  test('home carousel → My Ethnicity → feedback and horoscope → reports history, all passing axe', async ({ page }) => {
    const email = uniqueEmail('report-screens');
    const subscriptionId = await buyPlanAsVisitor(page, email);
    const reportId = await createCompletedReport(page, { email, subscriptionId });

    await page.goto('/roots/sign-in');
    await signInByEmailCode(page, email);
    await expect(page).toHaveURL(/\/roots\/webapp$/, { timeout: 30_000 });

    // Home: the carousel, starting on My Ethnicity with the latest report.
    await expect(page.getByText('Rotate circles and tap to select section')).toBeVisible();
    await expect(page.getByRole('tab')).toHaveText(['My Ethnicity', 'Biorhythm', 'Daily Horoscope', 'Population']);
    await expect(selectedTab(page)).toHaveText('My Ethnicity');
    await expect(page.getByRole('tabpanel')).toContainText(
      /most resembles the .+ \(\d+% visual resemblance, (?:high|medium|low) (?:reliability|confidence)\)|The estimate is uncertain/,
    );
    await expectNoSeriousA11yViolations(page);

    // Keyboard: the arrow keys turn the ring. Without a birth date the biorhythm asks for one.
    await selectedTab(page).focus();
    await page.keyboard.press('ArrowRight');
    await expect(selectedTab(page)).toHaveText('Biorhythm');
    await expect(selectedTab(page)).toBeFocused();
    await expect(page.getByRole('tabpanel')).toContainText('Add your date of birth to your profile');
    await expect(page.getByRole('tabpanel').getByRole('link', { name: 'Go to profile' })).toBeVisible();

    // As the profile screen would send it: a cookie-carrying change names its Origin (ADR 111).
    const profile = await page.request.put('/api/account/profile', {
      headers: { origin: new URL(page.url()).origin },
      data: { name: 'Ada', birth_date: '1990-08-05', birth_time: '14:30' },
    });
    expect(profile.status()).toBe(200);
    await page.reload();
    await expect(selectedTab(page)).toHaveText('Biorhythm');
    const chart = page.getByTestId('biorhythm-chart');
    await expect(chart).toBeVisible({ timeout: 30_000 });
    await expect(chart.locator('.recharts-line path.recharts-curve')).toHaveCount(3, { timeout: 15_000 });
    await expect(page.getByTestId('biorhythm-today')).toContainText(/Today: physical -?\d+%, emotional -?\d+%, intellectual -?\d+%/);
    await expectNoSeriousA11yViolations(page);

    await selectedTab(page).focus();
    await page.keyboard.press('ArrowRight');
    await expect(selectedTab(page)).toHaveText('Daily Horoscope');
    await expect(page.getByTestId('home-horoscope')).toContainText('Leo');
    await expectNoSeriousA11yViolations(page);

    await page.getByRole('button', { name: 'Next section' }).click();
    await expect(selectedTab(page)).toHaveText('Population');
    await expect(page.getByTestId('home-population')).toContainText('Source:');
    await expectNoSeriousA11yViolations(page);

    await page.getByRole('tab', { name: 'My Ethnicity' }).click();
    await page.getByRole('link', { name: 'Open My Ethnicity' }).click();
    await expect(page).toHaveURL(new RegExp(`/roots/webapp/myethnicity/${reportId}$`));

    // My Ethnicity: every section, the rotating diagram by keyboard.
    const screen = page.getByTestId('my-ethnicity-screen');
    await expect(screen.getByRole('heading', { level: 1 })).toHaveText('Your Roots');
    for (const title of ['Ethnicity Conclusion', 'Your Ethnicity', 'Detalisation', 'Facial traits', 'Cultural Insights'])
      await expect(screen.getByRole('heading', { level: 2, name: title })).toBeVisible();
    // The conclusion names the top group, the top broader group, or says the estimate is uncertain.
    await expect(page.getByTestId('ethnicity-conclusion')).toHaveText(CONCLUSION);
    await expect(screen.getByText('It is not a statement of your race, ethnicity or ancestry.', { exact: false })).toBeVisible();
    await expect(page.getByTestId('cultural-insights')).toContainText('Sources');
    const ring = page.getByTestId('ethnicity-ring').locator('[data-rotation]');
    const before = await ring.getAttribute('data-rotation');
    const options = page.getByRole('radiogroup', { name: 'Groups in your estimate' }).getByRole('radio');
    expect(await options.count()).toBeGreaterThan(1);
    await page.getByRole('radio', { checked: true }).focus();
    await page.keyboard.press('ArrowRight');
    await expect(options.nth(1)).toBeChecked();
    await expect(options.nth(1)).toBeFocused();
    await expect(ring).not.toHaveAttribute('data-rotation', before ?? '');
    await expect(page.getByTestId('facial-traits-figure').locator('.facial-traits__region--selected polygon').first()).toBeVisible();
    await expectNoSeriousA11yViolations(page);

    // The feedback question opens the feedback screen; its text is sent with report/update.
    await page.getByRole('button', { name: 'No', exact: true }).click();
    await expect(page).toHaveURL(/view=feedback/);
    await expect(screen.getByRole('heading', { level: 1 })).toHaveText('Tell us your feedback please');
    await expectNoSeriousA11yViolations(page);
    await page.getByRole('button', { name: 'Send feedback' }).click();
    await expect(page.getByRole('alert').first()).toHaveText('This field is required!');
    await page.getByLabel('Your feedback').fill('The second group looks too high for me.');
    const sent = page.waitForResponse((response) => response.url().endsWith('/report/update'));
    await page.getByRole('button', { name: 'Send feedback' }).click();
    const update = await sent;
    expect(update.status()).toBe(200);
    expect(update.request().postDataJSON()).toMatchObject({
      subscription_id: subscriptionId,
      feedback: { report_id: reportId, looks_correct: false, text: 'The second group looks too high for me.' },
    });
    await expect(page.getByRole('status')).toHaveText('Thank you, your feedback was sent.');

    // The horoscope sub-page, from the profile's birth date.
    await page.getByRole('link', { name: 'Back to your report' }).click();
    await page.getByRole('button', { name: 'Your daily horoscope' }).click();
    await expect(screen.getByRole('heading', { level: 1 })).toHaveText('Daily horoscope');
    await expect(page.getByTestId('horoscope-reading')).toContainText('Your sun sign: Leo');
    await expectNoSeriousA11yViolations(page);

    // 'Find out what future brings you' opens the biorhythm on home.
    await page.getByRole('link', { name: 'Back to your report' }).click();
    await page.getByRole('link', { name: 'Find out what future brings you' }).click();
    await expect(page).toHaveURL(/\/roots\/webapp\?section=biorhythm$/);
    await expect(selectedTab(page)).toHaveText('Biorhythm');

    // Reports history: the report, its PDF, its link.
    await page.getByRole('link', { name: 'Reports history' }).click();
    const rows = page.getByTestId('report-row');
    await expect(rows).toHaveCount(1);
    await expect(rows.first()).toContainText('Status: completed');
    await expect(rows.first()).toContainText(
      /most resembles the .+ \(\d+% visual resemblance, (?:high|medium|low) (?:reliability|confidence)\)|The estimate is uncertain/,
    );
    await expectNoSeriousA11yViolations(page);
    const download = page.waitForEvent('download');
    await rows
      .first()
      .getByRole('button', { name: /^Download PDF/ })
      .click();
    expect((await download).suggestedFilename()).toBe(`roots-report-${reportId}.pdf`);
    await rows
      .first()
      .getByRole('link', { name: /^Open report/ })
      .click();
    await expect(page).toHaveURL(new RegExp(`/roots/webapp/myethnicity/${reportId}$`));

    // Someone else's or a missing report looks the same: not found.
    await page.goto('/roots/webapp/myethnicity/00000000-0000-4000-8000-000000000000');
    await expect(page.getByTestId('report-not-found')).toContainText('We could not find this report');
    await expectNoSeriousA11yViolations(page);
  });

  test('a customer without reports sees the empty history and the home sections’ empty states', async ({ page }) => {
    await signInAsNewCustomer(page, 'no-reports');
    await expect(page.getByRole('tabpanel')).toContainText('No report yet.');
    await page.getByRole('tab', { name: 'Population' }).click();
    await expect(page.getByRole('tabpanel')).toContainText('Population figures appear once you have a completed report.');
    await page.goto('/roots/webapp/reports');
    await expect(page.getByTestId('reports-empty')).toBeVisible();
    await expectNoSeriousA11yViolations(page);
  });
});
