import { fillSecureFields } from '@roots/checkout/testing';
import { expect, test } from './support/fixtures';

test.describe('card payments in the drop-in', () => {
  test('pays with the success card: success screen and success event', async ({ checkout }) => {
    await checkout.open({ methods: 'card,genericRedirect,pix' });
    await checkout.choose('card');
    await expect(checkout.payButton).toBeDisabled();
    await fillSecureFields(checkout.page, 'success');
    await expect(checkout.page.frameLocator('iframe[data-roots-field="card-number"]').getByTestId('brand')).toHaveText('VISA');
    await expect(checkout.payButton).toBeEnabled();
    await checkout.payButton.click();
    await expect(checkout.screen).toContainText('Payment successful', { timeout: 30_000 });
    const success = await checkout.lastEvent('success');
    expect((success.payload.execution as { status: string }).status).toBe('authorizeSuccessful');
  });

  test('a declined card: failure screen with the reason and a failure event AUTHORIZATION_ERROR', async ({ checkout }) => {
    await checkout.open({ methods: 'card' });
    await fillSecureFields(checkout.page, 'declined');
    await checkout.payButton.click();
    await expect(checkout.page.getByTestId('roots-failure-message')).toHaveText('Your card was declined.', { timeout: 30_000 });
    const failure = await checkout.lastEvent('failure');
    expect(failure.payload).toMatchObject({ code: 'AUTHORIZATION_ERROR', message: 'Your card was declined.' });
  });

  test('3-D Secure challenge passed in the popup: success', async ({ checkout }) => {
    await checkout.open({ methods: 'card' });
    await fillSecureFields(checkout.page, 'threeDSChallenge');
    const popupPromise = checkout.page.waitForEvent('popup');
    await checkout.payButton.click();
    const popup = await popupPromise;
    const code = await popup.getByTestId('otp-hint').textContent();
    await popup.locator('#code').fill(code ?? '');
    await popup.getByRole('button', { name: 'Submit' }).click();
    await expect(checkout.screen).toContainText('Payment successful', { timeout: 30_000 });
    expect((await checkout.lastEvent('success')).payload.execution).toMatchObject({ status: 'authorizeSuccessful' });
  });

  test('3-D Secure challenge failed: failure after 3DS challenge', async ({ checkout }) => {
    await checkout.open({ methods: 'card' });
    await fillSecureFields(checkout.page, 'threeDSChallenge');
    const popupPromise = checkout.page.waitForEvent('popup');
    await checkout.payButton.click();
    const popup = await popupPromise;
    await popup.getByRole('button', { name: 'Fail authentication' }).click();
    await expect(checkout.page.getByTestId('roots-failure-message')).toHaveText('Authorization failed after 3DS challenge.', {
      timeout: 30_000,
    });
    expect((await checkout.lastEvent('failure')).payload).toMatchObject({
      code: 'AUTHORIZATION_ERROR',
      message: 'Authorization failed after 3DS challenge.',
    });
  });

  test('a stored instrument: saved on a first payment, then paid with by itself', async ({ checkout }) => {
    const holder = `holder-${Date.now()}`;
    await checkout.open({ methods: 'card', holder });
    await fillSecureFields(checkout.page, 'success');
    await checkout.page.getByLabel('Save instrument for future payments').check();
    await checkout.payButton.click();
    await expect(checkout.screen).toContainText('Payment successful', { timeout: 30_000 });

    await checkout.open({ methods: 'card', holder });
    const stored = checkout.item('storedInstrument');
    await expect(stored).toContainText('4242');
    await expect(stored.locator('.roots-network')).toHaveText('VISA');
    await checkout.choose('storedInstrument');
    await expect(checkout.payButton).toBeEnabled();
    await checkout.payButton.click();
    await expect(checkout.screen).toContainText('Payment successful', { timeout: 30_000 });
    expect((await checkout.lastEvent('success')).payload.execution).toMatchObject({ status: 'authorizeSuccessful' });
  });

  test('the card form messages: Fill in the field, and Discover cards are not accepted.', async ({ checkout }) => {
    await checkout.open({ methods: 'card' });
    const cardNumber = checkout.page.frameLocator('iframe[data-roots-field="card-number"]');
    await cardNumber.locator('input').pressSequentially('4242');
    await cardNumber.locator('input').blur();
    await expect(cardNumber.locator('#error')).toHaveText('Fill in the field');
    await cardNumber.locator('input').fill('');
    await fillSecureFields(checkout.page, 'discover');
    await expect(cardNumber.locator('#error')).toHaveText('Discover cards are not accepted.');
    await expect(checkout.payButton).toBeDisabled();
  });

  test('pay blocked by the pre-payment callback: VALIDATION_FAILED', async ({ checkout }) => {
    await checkout.open({ methods: 'card', block: '1' });
    await fillSecureFields(checkout.page, 'success');
    await checkout.payButton.click();
    expect((await checkout.lastEvent('failure')).payload).toMatchObject({ code: 'VALIDATION_FAILED' });
    await expect(checkout.payButton).toBeEnabled();
  });
});
