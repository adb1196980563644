import { expect, test } from './support/fixtures';

test.describe('redirect methods in the drop-in', () => {
  test('generic redirect: the page goes to the hosted page and comes back to the success screen', async ({ checkout }) => {
    await checkout.open({ methods: 'card,genericRedirect,pix' });
    await expect(checkout.item('genericRedirect')).toContainText('Roots Pay');
    await checkout.choose('genericRedirect');
    await expect(checkout.payButton).toHaveText('Pay with Roots Pay');
    const authorize = checkout.page.waitForRequest(
      (request) => request.method() === 'POST' && (request.postData() ?? '').includes('returnInfo'),
    );
    const page = new URL(checkout.page.url());
    await checkout.payButton.click();
    // The default return pages (checkout-spec §2): this page, marked with the outcome, for all four.
    const { returnInfo } = (await authorize).postDataJSON() as { returnInfo: Record<string, string> };
    for (const outcome of ['success', 'error', 'cancel', 'pending']) {
      const url = new URL(returnInfo[outcome]!);
      expect([url.origin + url.pathname, url.searchParams.get('roots-return')], outcome).toEqual([page.origin + page.pathname, outcome]);
    }
    await checkout.page.waitForURL(/\/hpp\//);
    await checkout.page.getByRole('button', { name: 'Authorize payment' }).click();
    await checkout.page.waitForURL(/roots-return=success/);
    await expect(checkout.screen).toContainText('Payment successful', { timeout: 30_000 });
    expect((await checkout.lastEvent('success')).payload.execution).toMatchObject({
      status: 'authorizeSuccessful',
      paymentMethodCode: 'genericRedirect',
    });
  });

  test('pix: a popup with the QR code, polled until the bank pays', async ({ checkout }) => {
    await checkout.open({ methods: 'card,genericRedirect,pix' });
    await checkout.choose('pix');
    await expect(checkout.payButton).toHaveText('Pay with Pix');
    const popupPromise = checkout.page.waitForEvent('popup');
    await checkout.payButton.click();
    const popup = await popupPromise;
    await expect(popup.getByTestId('pix-qr')).toBeVisible();
    await expect(checkout.screen).toHaveAttribute('data-state', 'loading');
    await popup.getByRole('button', { name: 'Simulate paid' }).click();
    await expect(checkout.screen).toContainText('Payment successful', { timeout: 30_000 });
    expect((await checkout.lastEvent('success')).payload.execution).toMatchObject({
      status: 'authorizeSuccessful',
      paymentMethodCode: 'pix',
    });
  });

  test('pix cancelled on the bank page: failure event', async ({ checkout }) => {
    await checkout.open({ methods: 'pix' });
    const popupPromise = checkout.page.waitForEvent('popup');
    await checkout.payButton.click();
    const popup = await popupPromise;
    await popup.getByRole('button', { name: 'Cancel' }).click();
    const failure = await checkout.lastEvent('failure');
    expect(failure.payload).toMatchObject({ code: 'AUTHORIZATION_ERROR' });
    await expect(checkout.screen).toHaveAttribute('data-state', 'failure');
  });
});
