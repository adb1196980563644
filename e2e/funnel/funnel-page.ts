import { expect, type Page } from '@playwright/test';

/** Page object for the onboarding funnel's steps. */
export class FunnelPage {
  constructor(private readonly page: Page) {}

  async open(path: string) {
    await this.page.goto(path);
    await expect(this.page.getByTestId('landing-screen')).toBeVisible();
  }

  async passWalkthrough() {
    await this.page.getByRole('button', { name: 'Next' }).click();
    await this.page.getByRole('button', { name: 'Next' }).click();
    await this.page.getByRole('button', { name: 'Take the selfie test' }).click();
  }

  async giveConsent() {
    const next = this.page.getByRole('button', { name: 'Continue' });
    await expect(next).toBeDisabled();
    await this.page.getByRole('checkbox', { name: /analyses my face photo/ }).check();
    await expect(next).toBeDisabled();
    await this.page.getByRole('checkbox', { name: /18 years old or older/ }).check();
    await next.click();
  }

  async takeSelfieWithCamera() {
    const video = this.page.locator('video.selfie__video');
    await expect.poll(() => video.evaluate((element: HTMLVideoElement) => element.videoWidth)).toBeGreaterThan(0);
    await this.page.getByRole('button', { name: 'Take photo' }).click();
    await expect(this.page.getByRole('img', { name: 'Your photo' })).toBeVisible();
    await this.page.getByRole('button', { name: 'Use this photo' }).click();
  }

  async submitEmail(email: string) {
    await this.page.getByLabel('Email').fill(email);
    await this.page.getByRole('button', { name: 'See my results' }).click();
  }

  /** From the camera tip screen: the upload path instead of the camera. */
  async openUpload() {
    await this.page.getByRole('button', { name: 'Upload a photo instead' }).click();
  }

  /** On the upload screen: picks a photo file, checks its preview and sends it to processing. */
  async uploadSelfie(photoPath: string) {
    await this.page.getByTestId('selfie-file').setInputFiles(photoPath);
    await expect(this.page.getByRole('img', { name: 'Your photo' })).toBeVisible();
    await this.page.getByRole('button', { name: 'Use this photo' }).click();
  }

  /** Waits until the landing shows this step of its state machine. */
  async expectStep(step: string) {
    await expect(this.page.getByTestId('landing-screen')).toHaveAttribute('data-step', step);
  }
}
