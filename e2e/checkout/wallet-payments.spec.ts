import { expect, test } from './support/fixtures';

/**
 * Google-type wallet and PayPal against the gateway's stand-ins (the SDK loads them outside PROD):
 * the same JS surface as Google's pay.js and PayPal's SDK, their sheet and approval pages in
 * popups on the gateway origin, and the payment completed through the execution's links.
 */
test.describe('wallets in the drop-in', () => {
  test('pays with Google Pay: the wallet sheet, then the success screen and event', async ({ checkout }) => {
    await checkout.open({ methods: 'card,googlePay,payPal' });
    await checkout.choose('googlePay');
    await expect(checkout.payButton).toBeHidden();
    const popupPromise = checkout.page.waitForEvent('popup');
    await checkout.item('googlePay').getByRole('button', { name: 'Buy with Google Pay' }).click();
    const sheet = await popupPromise;
    await expect(sheet.getByTestId('sheet-total')).toHaveText('24.99 USD');
    await sheet.getByLabel('Visa •••• 4242').check();
    const authorize = checkout.page.waitForRequest((request) => request.url().endsWith('/authorize'));
    await sheet.getByRole('button', { name: 'Continue' }).click();
    const item = (await authorize).postDataJSON().paymentComposition[0];
    expect(item).toMatchObject({
      paymentMethodCode: 'googlePay',
      paymentInstrumentData: { billingAddress: { country: { code: 'US' }, postalCode: '10001' } },
    });
    expect(JSON.parse(item.paymentInstrumentData.paymentToken)).toMatchObject({ protocolVersion: 'ECv2' });
    await expect(checkout.screen).toContainText('Payment successful', { timeout: 30_000 });
    expect((await checkout.lastEvent('success')).payload.execution).toMatchObject({
      status: 'authorizeSuccessful',
      paymentMethodCode: 'googlePay',
    });
  });

  test('Google Pay with a 3-D Secure wallet card: pending starts the challenge, then success', async ({ checkout }) => {
    await checkout.open({ methods: 'googlePay' });
    const sheetPromise = checkout.page.waitForEvent('popup');
    await checkout.item('googlePay').getByRole('button', { name: 'Buy with Google Pay' }).click();
    const sheet = await sheetPromise;
    await sheet.getByLabel(/Mastercard •••• 3220/).check();
    const challengePromise = checkout.page.waitForEvent('popup', (popup) => popup.url().includes('/3ds/'));
    await sheet.getByRole('button', { name: 'Continue' }).click();
    const challenge = await challengePromise;
    await challenge.locator('#code').fill((await challenge.getByTestId('otp-hint').textContent()) ?? '');
    await challenge.getByRole('button', { name: 'Submit' }).click();
    await expect(checkout.screen).toContainText('Payment successful', { timeout: 30_000 });
    expect((await checkout.lastEvent('success')).payload.execution).toMatchObject({ paymentMethodCode: 'googlePay' });
  });

  test('pays with PayPal (one-time order): approval in the PayPal window, success screen and event', async ({ checkout }) => {
    await checkout.open({ methods: 'card,googlePay,payPal' });
    await checkout.choose('payPal');
    await expect(checkout.payButton).toBeHidden();
    const script = checkout.page.locator('script[data-roots-sdk="paypal"]');
    await expect(script).toHaveAttribute('src', /intent=capture/);
    await expect(script).toHaveAttribute('src', /vault=false/);
    const popupPromise = checkout.page.waitForEvent('popup');
    await checkout.item('payPal').getByRole('button', { name: 'PayPal' }).click();
    const approval = await popupPromise;
    await expect(approval.getByTestId('paypal-kind')).toHaveAttribute('data-kind', 'order');
    const confirm = checkout.page.waitForRequest((request) => request.url().endsWith('/confirm'));
    await approval.getByRole('button', { name: 'Approve' }).click();
    const confirmed = (await confirm).postDataJSON().data;
    expect(confirmed).toMatchObject({
      orderId: expect.stringMatching(/^ord_/),
      riskSessionCorrelationId: expect.stringMatching(/^[0-9a-f]{32}$/),
    });
    expect(confirmed.tokenId).toBeUndefined();
    await expect(checkout.screen).toContainText('Payment successful', { timeout: 30_000 });
    expect((await checkout.lastEvent('success')).payload.execution).toMatchObject({
      status: 'authorizeSuccessful',
      paymentMethodCode: 'payPal',
    });
  });

  test('subscribes with PayPal (billing agreement): the save checkbox re-renders the button, the agreement is approved and paid', async ({
    checkout,
  }) => {
    await checkout.open({ methods: 'card,payPal' });
    await checkout.choose('payPal');
    const paypal = checkout.item('payPal');
    await expect(paypal.getByRole('button', { name: 'PayPal' })).toBeVisible();
    await paypal.getByLabel('Save instrument for future payments').check();
    const script = checkout.page.locator('script[data-roots-sdk="paypal"]');
    await expect(script).toHaveAttribute('src', /intent=tokenize/);
    await expect(script).toHaveAttribute('src', /vault=true/);
    await expect(script).toHaveCount(1);
    await expect(paypal.getByRole('button', { name: 'PayPal' })).toHaveCount(1);
    const popupPromise = checkout.page.waitForEvent('popup');
    await paypal.getByRole('button', { name: 'PayPal' }).click();
    const approval = await popupPromise;
    await expect(approval.getByTestId('paypal-kind')).toHaveAttribute('data-kind', 'agreement');
    await expect(approval.getByTestId('paypal-kind')).toContainText('billing agreement');
    const confirm = checkout.page.waitForRequest((request) => request.url().endsWith('/confirm'));
    await approval.getByRole('button', { name: 'Approve' }).click();
    expect((await confirm).postDataJSON().data).toMatchObject({
      tokenId: expect.stringMatching(/^tok_/),
      orderId: expect.stringMatching(/^ord_/),
    });
    await expect(checkout.screen).toContainText('Payment successful', { timeout: 30_000 });
    expect((await checkout.lastEvent('success')).payload.execution).toMatchObject({
      status: 'authorizeSuccessful',
      paymentMethodCode: 'payPal',
    });
  });

  test('PayPal cancelled in its window: session expired, then the failure event', async ({ checkout }) => {
    await checkout.open({ methods: 'payPal' });
    const popupPromise = checkout.page.waitForEvent('popup');
    await checkout.item('payPal').getByRole('button', { name: 'PayPal' }).click();
    const approval = await popupPromise;
    await approval.getByRole('button', { name: 'Cancel' }).click();
    const failure = await checkout.lastEvent('failure');
    expect(failure.payload).toMatchObject({ code: 'AUTHORIZATION_ERROR', message: 'The payment was canceled.' });
    const names = (await checkout.events()).map((event) => event.name);
    expect(names.indexOf('sessionExpired')).toBeGreaterThan(-1);
    expect(names.indexOf('sessionExpired')).toBeLessThan(names.indexOf('failure'));
    await expect(checkout.screen).toHaveAttribute('data-state', 'failure');
  });

  test('PayPal delivery address refused by the merchant callback: CALLBACK_FAILED logged, the checkout stops with the failure event', async ({
    checkout,
  }) => {
    const logged: string[] = [];
    checkout.page.on('console', (message) => logged.push(message.text()));
    await checkout.open({ methods: 'payPal', address: 'refuse' });
    const popupPromise = checkout.page.waitForEvent('popup');
    await checkout.item('payPal').getByRole('button', { name: 'PayPal' }).click();
    const approval = await popupPromise;
    const failure = await checkout.lastEvent('failure');
    expect(failure.payload).toMatchObject({ code: 'AUTHORIZATION_ERROR' });
    expect((await checkout.lastEvent('deliveryAddress')).payload).toEqual({
      city: 'New York',
      state: 'NY',
      countryCode: 'US',
      postalCode: '10001',
    });
    expect(logged.some((text) => /CALLBACK_FAILED|delivery address callback/.test(text))).toBe(true);
    await expect.poll(() => approval.isClosed()).toBe(true);
    expect((await checkout.events()).some((event) => event.name === 'success')).toBe(false);
  });

  test('wallet items are hidden and shown again, not remounted', async ({ checkout }) => {
    await checkout.open({ methods: 'card,googlePay,payPal' });
    await checkout.choose('payPal');
    const button = checkout.item('payPal').getByRole('button', { name: 'PayPal' });
    await expect(button).toBeVisible();
    await button.evaluate((element) => (element.dataset.firstMount = 'yes'));
    await checkout.choose('card');
    await expect(button).toBeHidden();
    await checkout.choose('payPal');
    await expect(button).toBeVisible();
    await expect(button).toHaveAttribute('data-first-mount', 'yes');
    await expect(checkout.page.locator('script[data-roots-sdk="paypal"]')).toHaveCount(1);
  });
});
