import { expect, test, type Page } from '@playwright/test';
import { expectNoSeriousA11yViolations } from '../support/axe';
import { signInAsOperator } from './operator-session';
import { startProductServer, type ProductServer } from './product-server';
import { buy, THREE_MONTH, type Buyer } from './scenario';

/**
 * Issue 35: the console's confirmation (a refund) is the app's one dialog too (ADR 185). On each
 * phone size, landscape included: the question and "Go back" on screen, the refund button not
 * the only action in sight, focus inside, Escape goes back and gives focus to the button that asked.
 */
const PHONES = [
  { name: '320x568', width: 320, height: 568 },
  { name: '375x667', width: 375, height: 667 },
  { name: '390x844', width: 390, height: 844 },
  { name: 'landscape 667x375', width: 667, height: 375 },
] as const;

const tag = `${Date.now()}`;
const operatorEmail = `dialog-operator-${tag}@example.com`;
const buyerEmail = `dialog-buyer-${tag}@example.com`;
let server: ProductServer;
let buyer: Buyer;
let page: Page;

test.describe.configure({ mode: 'serial' });

test.beforeAll(async ({ browser }) => {
  test.setTimeout(240_000);
  server = await startProductServer([{ email: operatorEmail }]);
  buyer = await buy(server.url, THREE_MONTH, buyerEmail);
  const context = await browser.newContext({ baseURL: server.url, isMobile: true, hasTouch: true, viewport: { width: 390, height: 844 } });
  page = await context.newPage();
  await signInAsOperator(page, operatorEmail);
  await page.getByRole('button', { name: 'Customers' }).click();
  await page.getByLabel('Part of an email, an id, an execution id or a card’s last four').fill(buyerEmail);
  await page.getByRole('button', { name: 'Search' }).click();
  await expect(page.getByTestId(`subscription-${buyer.subscriptionId}`)).toBeVisible();
});
test.afterAll(async () => {
  await page?.context().close();
  await buyer?.context.dispose();
  await server?.stop();
});

/** The whole of the element lies inside the viewport, not covered by anything. */
async function expectOnScreen(name: string, locator: ReturnType<Page['locator']>): Promise<void> {
  const box = await locator.boundingBox();
  const viewport = page.viewportSize()!;
  expect(box, name).not.toBeNull();
  expect(
    box!.y >= 0 && box!.x >= 0 && box!.y + box!.height <= viewport.height + 0.5 && box!.x + box!.width <= viewport.width + 0.5,
    name,
  ).toBe(true);
}

for (const phone of PHONES) {
  test(`the refund confirmation at ${phone.name}: question and "Go back" on screen, focus in and back, Escape goes back`, async () => {
    test.setTimeout(60_000);
    await page.setViewportSize({ width: phone.width, height: phone.height });
    const refundForm = page.locator('[data-testid^="refund-"]');
    await refundForm.getByLabel('Amount ($)').fill('10.00');
    await refundForm.getByLabel('Reason').fill('goodwill');
    const opener = refundForm.getByRole('button', { name: 'Refund' });
    await opener.click();
    const dialog = page.getByTestId('confirm-dialog');
    await expect(dialog).toBeVisible();
    expect(await dialog.evaluate((element) => element.matches(':modal'))).toBe(true);
    await expectOnScreen('the question', dialog.getByRole('heading'));
    await expectOnScreen('"Go back"', dialog.getByRole('button', { name: 'Go back' }));
    await expectOnScreen('the refund button', dialog.getByRole('button', { name: 'Refund $10.00' }));
    expect(await dialog.evaluate((element) => element.contains(document.activeElement))).toBe(true);
    // Focus starts on the question, not on the button that moves money.
    await expect(dialog.getByRole('button', { name: 'Refund $10.00' })).not.toBeFocused();
    await expectNoSeriousA11yViolations(page);
    await page.keyboard.press('Escape');
    await expect(dialog).toHaveCount(0);
    await expect(opener).toBeFocused();
    await expect(page.getByTestId('customer-message')).toHaveCount(0);
  });
}
