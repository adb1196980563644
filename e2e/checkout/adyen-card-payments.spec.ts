import { fillSecureFields } from '@roots/checkout/testing';
import { expect, test } from './support/fixtures';

/**
 * The drop-in in Chromium with the gateway's Adyen processor (ADR 173) pointed at Prism on Adyen's
 * Checkout v71 definition: the card form, pay, and a stored card paid with again, as far as
 * Adyen's examples carry it (3-D Secure would send the browser to Adyen's own host: proven
 * without a browser in apps/gateway/src/modules/processors/adyen/adyen.http.test.ts).
 */
test.use({ processor: 'adyen' });

test.describe('card payments through Adyen (Prism on Adyen’s definition)', () => {
  test('pays with a card: success screen and success event', async ({ checkout }) => {
    await checkout.open({ methods: 'card' });
    await fillSecureFields(checkout.page, 'success');
    await checkout.payButton.click();
    await expect(checkout.screen).toContainText('Payment successful', { timeout: 30_000 });
    const success = await checkout.lastEvent('success');
    const execution = success.payload.execution as { id: string; status: string };
    expect(execution.status).toBe('authorizeSuccessful');
    // Adyen (Prism) took the payment, and the request passed Adyen's schema.
    const sent = (await (await fetch(`${checkout.stack.merchantUrl}/adyen-requests`)).json()) as Array<{
      path: string;
      status: number;
      idempotencyKey?: string;
    }>;
    expect(sent.filter((entry) => entry.idempotencyKey?.startsWith(`${execution.id}:`))).toEqual([
      { path: '/payments', status: 200, idempotencyKey: `${execution.id}:payment:1` },
    ]);
  });

  test('a card saved on a first payment is offered and paid with again', async ({ checkout }) => {
    const holder = `holder-${Date.now()}`;
    await checkout.open({ methods: 'card', holder });
    await fillSecureFields(checkout.page, 'success');
    await checkout.page.getByLabel('Save instrument for future payments').check();
    await checkout.payButton.click();
    await expect(checkout.screen).toContainText('Payment successful', { timeout: 30_000 });

    await checkout.open({ methods: 'card', holder });
    const stored = checkout.item('storedInstrument');
    await expect(stored).toContainText('4242');
    await checkout.choose('storedInstrument');
    await checkout.payButton.click();
    await expect(checkout.screen).toContainText('Payment successful', { timeout: 30_000 });
    expect((await checkout.lastEvent('success')).payload.execution).toMatchObject({ status: 'authorizeSuccessful' });
  });
});
