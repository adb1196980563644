import { expect, test } from '@playwright/test';
import { fillSecureFields } from '@roots/checkout/testing';
import type { Execution } from '@roots/contracts/gateway';
import pg from 'pg';
import { DEV_SERVER_SECRETS } from '../../apps/server/src/config/env';
import { expectNoSeriousA11yViolations } from '../support/axe';
import { latestEmail, openPaywallAs, payWithTestCard, signInAsNewCustomer, uniqueEmail } from '../support/session';

/** The gateway the product under test pays through (playwright.config.ts: 4100 + E2E_PORT_OFFSET). */
const GATEWAY_URL = `http://127.0.0.1:${4100 + Number(process.env.E2E_PORT_OFFSET ?? 0)}`;

/**
 * Issue 23 (dunning), in the browser on a phone: a renewal the bank declines softly sends the
 * payment-failed email with an update-card link; the customer enters a new card in the checkout's
 * own card form on that page, and the next billing pass renews on the new card. A signed-in customer
 * does the same from Manage subscriptions.
 */
test.use({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });

test.describe('a new card for a subscription (issue 23)', () => {
  test.setTimeout(180_000);

  test('a declined renewal sends the update-card email and the card update makes the next retry succeed', async ({ page }) => {
    const databaseUrl = process.env.E2E_DATABASE_URL;
    expect(databaseUrl, 'run with TEST_DATABASE_URL (npm test gives the product a PostgreSQL database to inspect)').toBeTruthy();
    const email = uniqueEmail('update-card');

    // The weekly trial, paid with the sandbox card that pays while the shopper is there and runs
    // dry for merchant-initiated charges (gateway README: 4000 0000 0000 9953, insufficient funds).
    await openPaywallAs(page, email);
    await payWithTestCard(page, 'merchantChargesInsufficientFunds');
    await expect(page).toHaveURL(/\/roots\/offers/, { timeout: 60_000 });
    const subscriptionId = await page.evaluate(() => sessionStorage.getItem('__subscriptionId'));
    expect(subscriptionId).toMatch(/^[0-9a-f-]{36}$/);

    const client = new pg.Client({ connectionString: databaseUrl });
    await client.connect();
    try {
      const subscription = async () =>
        (
          await client.query<{ status: string; instrument_id: string; card_last4: string; due_at: Date; retry_count: number }>(
            'select status, instrument_id, card_last4, due_at, retry_count from subscriptions where id = $1',
            [subscriptionId],
          )
        ).rows[0]!;
      const renewals = async () =>
        (
          await client.query<{ attempt: number; status: string; decline_code: string | null; execution_id: string }>(
            `select attempt, status, decline_code, execution_id from charges where subscription_id = $1 and kind = 'renewal' order by attempt`,
            [subscriptionId],
          )
        ).rows;
      const bought = await subscription();
      expect(bought).toMatchObject({ status: 'trialing', card_last4: '9953', instrument_id: expect.stringMatching(/^ins_/) });

      // The trial ends now: the billing job's renewal is declined softly and the customer is emailed.
      const dueFrom = Date.now() - 1_000;
      await client.query('update subscriptions set due_at = now() where id = $1', [subscriptionId]);
      // The charge is settled first, then the subscription moves: both are waited for.
      const billing = async () => ({
        status: (await subscription()).status,
        renewals: (await renewals()).map((charge) => [charge.attempt, charge.status, charge.decline_code]),
      });
      await expect
        .poll(billing, { timeout: 60_000, message: 'the declined renewal' })
        .toEqual({ status: 'past_due', renewals: [[0, 'failed', 'insufficient_funds']] });
      const pastDue = await subscription();
      expect(pastDue).toMatchObject({ status: 'past_due', retry_count: 1, instrument_id: bought.instrument_id });
      // The next try is a day away: without a new card nothing happens before then.
      expect(pastDue.due_at.getTime()).toBeGreaterThan(Date.now() + 23 * 3_600_000);

      const mail = await latestEmail(page.request, email, 'payment_failed', dueFrom);
      expect(mail.text).toContain('to the card ending in 9953');
      const link = /Add it here and we try the payment again right away: (\S+\/roots\/update-card\/[\w.-]+)/.exec(mail.text)?.[1];
      expect(link, mail.text).toBeTruthy();
      expect(new URL(link!).origin).toBe(new URL(page.url()).origin);

      // The link's page: which subscription, what happens next, and the checkout's secure card form.
      await page.goto(link!);
      await expect(page.getByRole('heading', { level: 1, name: 'Update your card' })).toBeVisible();
      await expect(page.getByTestId('update-card-form')).toBeVisible({ timeout: 30_000 });
      await expect(page.getByText('Card on file: ending in 9953.')).toBeVisible();
      await expect(page.getByTestId('update-card-next')).toHaveText(
        'Your last payment did not go through. We will try the payment of $24.99 again now, on the card you save here.',
      );
      const save = page.getByTestId('roots-pay');
      await expect(save).toHaveText('Save card');
      await expect(page.locator('iframe[data-roots-field="card-number"]')).toBeVisible();
      await expectNoSeriousA11yViolations(page);
      // Nothing fits wider than the phone.
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);

      await fillSecureFields(page, 'success', { within: '[data-testid=update-card-form]' });
      await expect(save).toBeEnabled();
      await save.click();
      const saved = page.getByTestId('update-card-saved');
      await expect(saved).toBeVisible({ timeout: 30_000 });
      await expect(saved.getByRole('heading', { name: 'Card saved' })).toBeFocused();
      await expect(saved).toContainText('Your card ending in 4242 is now the card for');
      await expect(saved).toContainText('We will try the payment of $24.99 again now. The receipt goes to your email.');

      // The next billing pass retries at once, on the new card, and the subscription is renewed.
      await expect.poll(billing, { timeout: 60_000, message: 'the retry on the new card' }).toEqual({
        status: 'active',
        renewals: [
          [0, 'failed', 'insufficient_funds'],
          [1, 'succeeded', null],
        ],
      });
      const renewed = await subscription();
      expect(renewed).toMatchObject({ status: 'active', card_last4: '4242', retry_count: 0 });
      expect(renewed.instrument_id).not.toBe(bought.instrument_id);
      const retry = (await renewals())[1]!;
      const paidWith = await page.request.get(`${GATEWAY_URL}/merchant/v1/executions/${retry.execution_id}`, {
        headers: { 'x-api-key': DEV_SERVER_SECRETS.GATEWAY_MERCHANT_SECRET },
      });
      expect(((await paidWith.json()) as Execution).instrument).toMatchObject({ id: renewed.instrument_id, last4: '4242' });
    } finally {
      await client.end();
    }
  });

  test('a signed-in customer puts a new card on a trial from Manage subscriptions; its due date stays', async ({ page }) => {
    const databaseUrl = process.env.E2E_DATABASE_URL;
    expect(databaseUrl, 'run with TEST_DATABASE_URL (npm test gives the product a PostgreSQL database to inspect)').toBeTruthy();
    const { subscriptionId } = await signInAsNewCustomer(page, 'update-card-account');
    const client = new pg.Client({ connectionString: databaseUrl });
    await client.connect();
    try {
      const row = async () =>
        (
          await client.query<{ status: string; instrument_id: string; card_last4: string; due_at: Date }>(
            'select status, instrument_id, card_last4, due_at from subscriptions where id = $1',
            [subscriptionId],
          )
        ).rows[0]!;
      const before = await row();
      await page.goto('/roots/webapp/manage-subscriptions');
      const item = page.getByTestId('subscription-item');
      await expect(item.getByTestId('subscription-card')).toHaveText('Card: •••• 4242', { timeout: 30_000 });
      await item.getByRole('button', { name: 'Update card' }).click();
      const form = item.getByTestId('update-card-form');
      await expect(form).toBeVisible({ timeout: 30_000 });
      const day = before.due_at.toLocaleDateString('en-US', { month: 'long', day: 'numeric', year: 'numeric' });
      await expect(form.getByTestId('update-card-next')).toHaveText(`Your next payment of $24.99 on ${day} uses this card.`);
      await expectNoSeriousA11yViolations(page);

      await fillSecureFields(page, 'successMastercard', { within: '[data-testid=update-card-form]' });
      await form.getByTestId('roots-pay').click();
      const saved = item.getByTestId('update-card-saved');
      await expect(saved).toContainText('Your card ending in 4444 is now the card for', { timeout: 30_000 });
      await expect(saved.getByTestId('update-card-next')).toHaveText(`Your next payment of $24.99 on ${day} uses this card.`);
      await expect(item.getByTestId('subscription-card')).toHaveText('Card: •••• 4444');
      const after = await row();
      expect(after).toMatchObject({ status: 'trialing', card_last4: '4444', due_at: before.due_at });
      expect(after.instrument_id).not.toBe(before.instrument_id);
    } finally {
      await client.end();
    }
  });
});
