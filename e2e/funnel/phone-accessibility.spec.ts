import { expect, test } from '@playwright/test';
import { expectNoSeriousA11yViolations } from '../support/axe';
import { FunnelPage } from './funnel-page';

/**
 * The funnel's camera steps, which only this project's fake camera shows, through axe on a 390x844
 * phone (issue 24; the other screens: e2e/accessibility.spec.ts): the live camera, the photo to
 * confirm, the email step after processing, and the upload fallback.
 */
test.use({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });

test('the camera, photo, email and upload steps pass axe on a phone, colour contrast included', async ({ page }) => {
  test.setTimeout(120_000);
  const funnel = new FunnelPage(page);
  await funnel.open('/roots/');
  await funnel.passWalkthrough();
  await funnel.giveConsent();
  await page.getByRole('button', { name: 'Open the camera' }).click();
  const video = page.locator('video.selfie__video');
  await expect.poll(() => video.evaluate((element: HTMLVideoElement) => element.videoWidth)).toBeGreaterThan(0);
  await expectNoSeriousA11yViolations(page);
  await page.getByRole('button', { name: 'Take photo' }).click();
  await expect(page.getByRole('img', { name: 'Your photo' })).toBeVisible();
  await expectNoSeriousA11yViolations(page);
  await page.getByRole('button', { name: 'Use this photo' }).click();
  await expect(page.getByRole('heading', { name: 'Where should we send your results?' })).toBeVisible({ timeout: 60_000 });
  await expectNoSeriousA11yViolations(page);

  await funnel.open('/roots/');
  await funnel.passWalkthrough();
  await funnel.giveConsent();
  await funnel.openUpload();
  await expect(page.getByTestId('selfie-file')).toBeAttached();
  await expectNoSeriousA11yViolations(page);
});
