import { expect, test } from '@playwright/test';
import pg from 'pg';
import { APPLE_PAY_CONTACT, applePayLog, installApplePay } from '../support/apple-pay';
import { openPaywallAs, uniqueEmail } from '../support/session';

/**
 * Issue 14: an Apple-type purchase keeps the wallet's card at the gateway (its network token), so
 * the trial renews and the one-click offers charge it like a stored card.
 */
test.describe('Apple-type purchases renew and buy offers', () => {
  test.setTimeout(120_000);

  test('trial bought with Apple Pay → the renewal charges the wallet card → a one-click offer too', async ({ page }) => {
    const databaseUrl = process.env.E2E_DATABASE_URL;
    expect(databaseUrl, 'run with TEST_DATABASE_URL (npm test gives the product a PostgreSQL database to inspect)').toBeTruthy();
    await installApplePay(page);
    const email = uniqueEmail('apple-renewal');
    await openPaywallAs(page, email, '?vault=true');

    await page.getByTestId('roots-item-applePay').locator('input[type=radio]').check();
    const created = page.waitForRequest((request) => request.url().endsWith('/subs/create-no-user-applepay'));
    const validated = page.waitForRequest((request) => request.url().endsWith('/api/apple-pay/validate-merchant'));
    await page.getByRole('button', { name: 'Buy with Apple Pay' }).click();

    // Merchant validation through the product's own server (product-spec §7).
    expect((await validated).postDataJSON()).toEqual({
      validationURL: 'https://apple-pay-gateway.apple.com/paymentservices/startSession',
      domain: '127.0.0.1',
    });
    // A visitor paying by Apple Pay: the wallet token, the billing contact as the address, vault.
    const body = (await created).postDataJSON() as Record<string, unknown>;
    expect(body).toMatchObject({
      plan_id: 'roots_3d1_7d2499',
      email,
      execution_id: expect.stringMatching(/^exe_/),
      token: { paymentData: { version: 'EC_v1' }, paymentMethod: { network: 'Visa' } },
      display_name: 'Ada Lovelace',
      vault: 'true',
      address: {
        first_name: APPLE_PAY_CONTACT.givenName,
        last_name: APPLE_PAY_CONTACT.familyName,
        country: 'GB',
        state: 'London',
        zip: 'SW1Y 4JH',
        city: 'London',
        address: '12 St James Square',
        address2: 'Flat 2',
        phone: '+44 20 7946 0000',
      },
    });
    await expect(page).toHaveURL(/\/roots\/offers\?vault=true$/, { timeout: 60_000 });
    const log = await applePayLog(page);
    expect(log.requests[0]?.version).toBe(3);
    expect(log.merchantSessions[0]).toMatchObject({ domainName: '127.0.0.1' });
    expect(log.completed).toEqual([0]); // STATUS_SUCCESS
    const subscriptionId = await page.evaluate(() => sessionStorage.getItem('__subscriptionId'));

    const client = new pg.Client({ connectionString: databaseUrl });
    await client.connect();
    try {
      const bought = await client.query('select status, instrument_id, card_last4, card_network from subscriptions where id = $1', [
        subscriptionId,
      ]);
      expect(bought.rows[0]).toMatchObject({ status: 'trialing', instrument_id: expect.stringMatching(/^ins_/), card_last4: '0224' });

      // The trial ends now: the server's billing job renews it on the wallet card.
      await client.query('update subscriptions set due_at = now() where id = $1', [subscriptionId]);
      await expect
        .poll(
          async () =>
            (await client.query(`select status from charges where subscription_id = $1 and kind = 'renewal'`, [subscriptionId])).rows.map(
              (row: { status: string }) => row.status,
            ),
          { timeout: 60_000, message: 'the renewal charge' },
        )
        .toEqual(['succeeded']);
      const renewed = await client.query('select status, current_period from subscriptions where id = $1', [subscriptionId]);
      expect(renewed.rows[0]).toEqual({ status: 'active', current_period: 1 });

      // Still on the offers page: one click charges the same wallet card.
      await page.getByRole('button', { name: 'Add for $49.99' }).click();
      await expect(page.getByText('Added to your account.')).toBeVisible({ timeout: 30_000 });
      const addOn = await client.query(`select status from charges where parent_subscription_id = $1 and kind = 'add-on'`, [
        subscriptionId,
      ]);
      expect(addOn.rows).toEqual([{ status: 'succeeded' }]);
    } finally {
      await client.end();
    }
  });
});
