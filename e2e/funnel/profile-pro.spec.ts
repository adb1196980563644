import { expect, test } from '@playwright/test';
import { ACCESS_GIVES } from '@roots/contracts/access';
import { expectNoSeriousA11yViolations } from '../support/axe';
import { expectReportShown } from '../support/reports';
import { openPaywallAs, payWithSuccessCard, signInByEmailCode, uniqueEmail } from '../support/session';
import { FunnelPage } from './funnel-page';

/**
 * Issue 35 (ADR 194): a Profile Pro buyer gets what the paywall promised. The paywall, opened from
 * an ad's link, says what Profile Pro is and that the selfie is asked after payment; after paying,
 * the offers do not sell the report it includes, the home shows "Take a selfie", the app's selfie
 * page takes it and the report appears. It said "No report yet" with no action, and the selfie page
 * "Your purchases do not include a report".
 */
test.use({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });

test('a Profile Pro buyer gets what the paywall promised: told what it is, then asked for the selfie, then the report', async ({
  page,
}) => {
  test.setTimeout(240_000);
  const email = uniqueEmail('profile-pro');
  const funnel = new FunnelPage(page);

  // The paywall: what Profile Pro gives, in one line, and that the selfie comes after payment.
  await openPaywallAs(page, email, '?plan=roots_profile_pro_2899_otp');
  const paywall = page.getByTestId('paywall-screen');
  await expect(paywall.getByRole('heading', { level: 2 })).toHaveText('Profile Pro');
  await expect(paywall.getByTestId('plan-price')).toContainText('$28.99');
  await expect(paywall.getByTestId('plan-gives')).toHaveText(ACCESS_GIVES.profile_pro);
  await expect(paywall.getByTestId('plan-gives')).toContainText('from one selfie: a report of your ethnicity breakdown');
  await expect(paywall.getByTestId('selfie-notice')).toHaveText('We will ask for your selfie after payment, in your account.');
  await expectNoSeriousA11yViolations(page);

  await payWithSuccessCard(page);
  await expect(page).toHaveURL(/\/roots\/offers/, { timeout: 60_000 });
  const subscriptionId = await page.evaluate(() => sessionStorage.getItem('__subscriptionId'));
  expect(subscriptionId).toMatch(/^[0-9a-f-]{36}$/);

  // The offers: Profile Pro is owned and the Heritage Report is in it; only the Ultimate Pack is left, with its line.
  const offers = page.getByTestId('offers-screen');
  await expect(offers.getByRole('listitem').getByRole('heading')).toHaveText(['Ultimate Pack']);
  await expect(offers.getByTestId('offer-gives')).toHaveText([ACCESS_GIVES.ultimate_pack]);
  await page.getByRole('button', { name: 'Continue to my account' }).click();
  await expect(page).toHaveURL(new RegExp(`/roots/sign-in\\?.*vSubscriptionId=${subscriptionId}`));
  await signInByEmailCode(page, email);
  await expect(page).toHaveURL(/\/roots\/webapp(\?|$)/, { timeout: 30_000 });

  // The home: no report yet, and the way to it.
  await expect(page.getByRole('tabpanel')).toContainText('No report yet.');
  await expect(page.getByTestId('take-selfie')).toContainText('Your purchase includes a report. Take a selfie to get it.');
  await expectNoSeriousA11yViolations(page);
  await page.getByRole('link', { name: 'Take a selfie' }).click();
  await expect(page).toHaveURL(/\/roots\/webapp\/selfie$/);

  // The selfie page takes it (not "Your purchases do not include a report").
  await expect(page.getByTestId('selfie-not-included')).toHaveCount(0);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Before we take your photo');
  await funnel.giveConsent();
  await page.getByRole('button', { name: 'Open the camera' }).click();
  const created = page.waitForResponse((response) => new URL(response.url()).pathname === '/report/create', { timeout: 90_000 });
  await funnel.takeSelfieWithCamera();
  const answer = await created;
  expect(answer.status(), await answer.text()).toBe(200);
  const { report_id: reportId } = (await answer.json()) as { report_id: string };

  // The report appears, made under the Profile Pro purchase, with what the line promised.
  await expectReportShown(page, reportId, ['Ethnicity Conclusion', 'Your Ethnicity', 'Detalisation', 'Facial traits', 'Cultural Insights']);
  const list = await page.request.post('/report/list-reports', { data: {}, headers: { origin: new URL(page.url()).origin } });
  expect(((await list.json()) as { reports: Array<{ report_id: string; subscription_id: string; status: string }> }).reports).toEqual([
    expect.objectContaining({ report_id: reportId, subscription_id: subscriptionId, status: 'completed' }),
  ]);

  // Home again: the report, and no more 'Take a selfie'.
  await page.goto('/roots/webapp');
  await expect(page.getByRole('tabpanel')).toContainText(/most resembles the .+|The estimate is uncertain/);
  await expect(page.getByRole('link', { name: 'Take a selfie' })).toHaveCount(0);
});
