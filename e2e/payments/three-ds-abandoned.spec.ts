import { expect, test, type APIRequestContext } from '@playwright/test';
import { fillSecureFields } from '@roots/checkout/testing';
import type { Execution } from '@roots/contracts/gateway';
import { DEV_SERVER_SECRETS } from '../../apps/server/src/config/env';
import { latestEmail, openPaywallAs, payWithSuccessCard, uniqueEmail } from '../support/session';

/** The gateway the product under test pays through (playwright.config.ts: 4100 + E2E_PORT_OFFSET). */
const GATEWAY_URL = `http://127.0.0.1:${4100 + Number(process.env.E2E_PORT_OFFSET ?? 0)}`;

/** An execution as the merchant reads it from the gateway. */
async function gatewayExecution(request: APIRequestContext, id: string): Promise<Execution> {
  const answer = await request.get(`${GATEWAY_URL}/merchant/v1/executions/${id}`, {
    headers: { 'x-api-key': DEV_SERVER_SECRETS.GATEWAY_MERCHANT_SECRET },
  });
  expect(answer.status()).toBe(200);
  return (await answer.json()) as Execution;
}

/**
 * The bank answers the challenge late, over HTTP, as its page's form does: the one-time code the
 * sandbox shows, posted to the challenge page. Nothing of the product's asks it to.
 */
async function bankConfirmsLate(request: APIRequestContext, challengeUrl: string): Promise<void> {
  const page = await (await request.get(challengeUrl)).text();
  const code = /data-testid="otp-hint">(\d{6})</.exec(page)?.[1];
  expect(code, 'the challenge page shows its one-time code').toBeTruthy();
  const url = new URL(challengeUrl);
  const answer = await request.post(`${url.origin}${url.pathname}`, {
    form: { t: url.searchParams.get('t') ?? '', action: 'submit', code: code ?? '' },
  });
  expect(await answer.text()).toContain('data-status="authorizeSuccessful"');
}

/**
 * Issue 24, in the browser on a phone: the customer closes their bank's check (the 3-D Secure
 * challenge window). The pending screen says what happens and offers to pay another way; "Check
 * again now" answers with where the payment stands; paying with another card buys the plan; and
 * when the bank confirms the first payment after all, the payment sweep refunds it and emails the
 * customer.
 */
test.use({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });

test.describe("a closed bank's check (issue 24)", () => {
  test.setTimeout(150_000);

  test('pending screen, "Pay another way" with a normal card, then the late first payment is refunded', async ({ page, request }) => {
    const email = uniqueEmail('three-ds-abandoned');
    const statusAnswers: number[] = [];
    page.on('response', (response) => {
      if (response.url().endsWith('/subs/payment-status')) statusAnswers.push(response.status());
    });

    // A fresh visitor on the paywall pays with the sandbox's 3-D Secure card and closes the challenge.
    await openPaywallAs(page, email);
    await fillSecureFields(page, 'threeDSChallenge');
    const popupPromise = page.waitForEvent('popup');
    const authorized = page.waitForResponse((response) => /\/authorize$/.test(new URL(response.url()).pathname));
    await page.getByTestId('roots-pay').click();
    const firstExecution = ((await (await authorized).json()) as Execution).id;
    const popup = await popupPromise;
    await expect(popup.getByTestId('otp-hint')).toBeVisible();
    const challengeUrl = popup.url();
    await popup.close();

    // The pending screen: what happens now, and what happens to a late confirmation, in plain words.
    const pending = page.getByTestId('payment-pending');
    await expect(pending.getByRole('heading', { name: 'Payment pending' })).toBeVisible({ timeout: 30_000 });
    await expect(pending).toContainText('If you closed it, the bank will not finish it: you can pay another way now.');
    await expect(pending).toContainText(`we refund it automatically and tell you at ${email}`);
    await expect(pending).not.toContainText(/3-?D|3DS|Nothing more is needed/);
    const payAnotherWay = pending.getByRole('button', { name: 'Pay another way' });
    await expect(payAnotherWay).toBeInViewport();

    // "Check again now" answers with the current state, shown on the screen; never a conflict.
    await pending.getByRole('button', { name: 'Check again now' }).click();
    await expect(pending.getByTestId('pending-check')).toHaveText('Checked just now: your bank has still not confirmed this payment.', {
      timeout: 30_000,
    });
    expect(statusAnswers.length).toBeGreaterThan(0);
    expect(statusAnswers.every((status) => status === 200)).toBe(true);
    expect((await gatewayExecution(request, firstExecution)).status).toBe('authorizePending');

    // Pay another way: back to the checkout of the same plan, a normal card buys it.
    await payAnotherWay.click();
    await expect(page).toHaveURL(/\/roots\/subscription$/);
    await expect(page.getByTestId('roots-pay')).toBeVisible({ timeout: 30_000 });
    const secondAuthorized = page.waitForResponse((response) => /\/authorize$/.test(new URL(response.url()).pathname));
    await payWithSuccessCard(page);
    const secondExecution = ((await (await secondAuthorized).json()) as Execution).id;
    expect(secondExecution).not.toBe(firstExecution);
    await expect(page).toHaveURL(/\/roots\/offers$/, { timeout: 60_000 });
    expect(await page.evaluate(() => sessionStorage.getItem('__subscriptionId'))).toMatch(/^[0-9a-f-]{36}$/);

    // The bank confirms the first payment late. The sweep finds it buys nothing and refunds it whole.
    await bankConfirmsLate(request, challengeUrl);
    await expect
      .poll(async () => (await gatewayExecution(request, firstExecution)).amountRefunded, {
        timeout: 60_000,
        message: 'the late first payment is refunded by the payment sweep',
      })
      .toBe((await gatewayExecution(request, firstExecution)).amount.value);
    const kept = await gatewayExecution(request, secondExecution);
    expect(kept).toMatchObject({ status: 'authorizeSuccessful', amountRefunded: 0 });
    const refundEmail = await latestEmail(request, email, 'duplicate_payment_refund');
    expect(refundEmail.subject).toBe('We refunded a second payment for Roots');
  });
});
