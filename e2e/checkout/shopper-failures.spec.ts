import { fillSecureFields } from '@roots/checkout/testing';
import { expect, test } from './support/fixtures';

test.describe('what a shopper meets (issue 18)', () => {
  for (const [country, postalCode] of [
    ['GB', 'SW1A 1AA'],
    ['US', '12345-6789'],
    ['BR', '01310-100'],
    ['CA', 'K1A 0B1'],
  ] as const) {
    test(`the address selector accepts ${country} ${postalCode} as people type it`, async ({ checkout }) => {
      await checkout.open({ mode: 'card' });
      await fillSecureFields(checkout.page, 'success');
      await checkout.page.locator('#roots-country').selectOption(country);
      const postal = checkout.page.locator('#roots-postal');
      await postal.pressSequentially(postalCode.slice(0, 3));
      await expect(checkout.payButton).toBeDisabled();
      await postal.pressSequentially(postalCode.slice(3));
      await expect(checkout.payButton).toBeEnabled();
    });
  }

  test('the failure screen shows no internal text; the detail is in the failure event cause', async ({ checkout }) => {
    await checkout.page.route('**/authorize', (route) =>
      route.fulfill({ status: 500, contentType: 'application/json', body: JSON.stringify({ error: 'internal: db pool exhausted' }) }),
    );
    await checkout.open({ methods: 'card' });
    await fillSecureFields(checkout.page, 'success');
    await checkout.payButton.click();
    const message = checkout.page.getByTestId('roots-failure-message');
    await expect(message).toHaveText('Authorization failed, please try again.', { timeout: 30_000 });
    await expect(checkout.screen).not.toContainText('db pool');
    await expect(checkout.screen).not.toContainText('status code');
    const failure = await checkout.lastEvent('failure');
    expect(failure.payload).toMatchObject({
      code: 'AUTHORIZATION_ERROR',
      message: 'Authorization Failed',
      cause: { code: 'UNSUCCESSFUL_REQUEST', message: 'internal: db pool exhausted', status: 500 },
    });
  });

  test('an Apple-type session that fails fires the failure event and shows the failure screen', async ({ checkout }) => {
    // A browser with the Apple-type wallet: a stand-in of ApplePaySession that records its calls.
    await checkout.page.addInitScript(() => {
      const calls: string[] = [];
      (window as unknown as { __appleCalls: string[] }).__appleCalls = calls;
      class StandInSession {
        static STATUS_SUCCESS = 0;
        static STATUS_FAILURE = 1;
        static canMakePayments = () => true;
        onvalidatemerchant = null;
        onpaymentauthorized = null;
        oncancel = null;
        constructor() {
          calls.push('new');
        }
        begin() {
          calls.push('begin');
        }
        abort() {
          calls.push('abort');
        }
        completeMerchantValidation() {}
        completePayment() {}
      }
      (window as unknown as { ApplePaySession: unknown }).ApplePaySession = StandInSession;
    });
    await checkout.page.route('**/wallets/apple-pay/session', (route) =>
      route.fulfill({ status: 500, contentType: 'application/json', body: JSON.stringify({ error: 'apple session store down' }) }),
    );
    await checkout.open({ methods: 'card,applePay' });
    await checkout.choose('applePay');
    await checkout.item('applePay').getByRole('button', { name: 'Buy with Apple Pay' }).click();
    const failure = await checkout.lastEvent('failure');
    expect(failure.payload).toMatchObject({ code: 'AUTHORIZATION_ERROR', cause: { code: 'UNSUCCESSFUL_REQUEST', status: 500 } });
    await expect(checkout.page.getByTestId('roots-failure-message')).toHaveText('Authorization failed, please try again.');
    // Said once (issue 35: the toast repeated it above the failure text).
    await expect(checkout.page.getByText('Authorization failed, please try again.')).toHaveCount(1);
    expect(await checkout.page.evaluate(() => (window as unknown as { __appleCalls: string[] }).__appleCalls)).toEqual([
      'new',
      'begin',
      'abort',
    ]);
  });
});
