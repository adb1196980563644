import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { fillSecureFields } from '@roots/checkout/testing';
import { expect, test } from './support/fixtures';

async function seriousViolations(page: Page) {
  const results = await new AxeBuilder({ page }).include('[data-testid=roots-dropin]').analyze();
  // axe really looked: rules passed on the drop-in and inside the secure frames.
  expect(results.passes.length).toBeGreaterThan(10);
  return results.violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map((violation) => `${violation.id}: ${violation.help}`);
}

test('axe: no serious or critical violation on the drop-in', async ({ checkout, page }) => {
  await checkout.open({ methods: 'card,genericRedirect,pix' });
  await checkout.choose('card');
  await expect(page.frameLocator('iframe[data-roots-field="card-number"]').locator('input')).toBeVisible();
  expect(await seriousViolations(page)).toEqual([]);
});

test('axe: no serious or critical violation on the card form (holder name, save, installments, address)', async ({ checkout, page }) => {
  await checkout.open({ mode: 'card' });
  await expect(page.locator('#roots-country')).toBeVisible();
  await expect(page.locator('#roots-installments option').nth(1)).toHaveText('3 x $8.33');
  await page.locator('#roots-country').selectOption('US');
  await expect(page.locator('#roots-postal')).toBeVisible();
  await fillSecureFields(page, 'success');
  expect(await seriousViolations(page)).toEqual([]);
});

test('axe: no serious or critical violation on the Google Pay and PayPal items', async ({ checkout, page }) => {
  await checkout.open({ methods: 'card,googlePay,payPal' });
  await checkout.choose('googlePay');
  await expect(checkout.item('googlePay').getByRole('button', { name: 'Buy with Google Pay' })).toBeVisible();
  expect(await seriousViolations(page)).toEqual([]);
  await checkout.choose('payPal');
  await expect(checkout.item('payPal').getByRole('button', { name: 'PayPal' })).toBeVisible();
  expect(await seriousViolations(page)).toEqual([]);
});
