import { expect, test } from './support/fixtures';

test.describe('secure by default: only the merchant origins frame the gateway', () => {
  test('the secure fields render on the merchant page and refuse to render inside another origin', async ({ checkout, page, stack }) => {
    await checkout.open({ methods: 'card' });
    await expect(page.frameLocator('iframe[data-roots-field="card-number"]').locator('input')).toBeVisible();

    const refusals: string[] = [];
    page.on('console', (message) => {
      if (/frame-ancestors/.test(message.text())) refusals.push(message.text());
    });
    await page.goto(`${stack.strangerUrl}/?methods=card`);
    await expect(page.locator('body[data-ready=true]')).toBeVisible();
    const frame = page.locator('iframe[data-roots-field="card-number"]');
    await expect(frame).toHaveCount(1);
    await expect.poll(() => refusals.length, { timeout: 15_000 }).toBeGreaterThan(0);
    expect(refusals.join('\n')).toContain(stack.gatewayUrl.replace(/\/$/, ''));
    await expect(page.frameLocator('iframe[data-roots-field="card-number"]').locator('input')).toHaveCount(0);
  });
});
