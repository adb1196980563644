import { expect, test, type Browser, type Page } from '@playwright/test';
import type { CustomerRecord } from '@roots/contracts/admin';
import { expectNoSeriousA11yViolations } from '../support/axe';
import { freshAuthenticatorCode, signInAsOperator, signInWithEmailCode } from './operator-session';
import { startProductServer, type ProductServer } from './product-server';
import { buy, THREE_MONTH, type Buyer } from './scenario';

/**
 * Operator accounts (issue 25): roles from `npm run operator:add -- <email> --role <role>`, the
 * authenticator asked after the email code, and an owner removing an operator whose session is open.
 */
const tag = `${Date.now()}`;
const owner = `owner-${tag}@example.com`;
const support = `support-${tag}@example.com`;
const viewer = `viewer-${tag}@example.com`;
const leaver = `leaver-${tag}@example.com`;
let server: ProductServer;
let buyers: Buyer[] = [];

test.describe.configure({ mode: 'serial' });
test.setTimeout(180_000);

test.beforeAll(async () => {
  test.setTimeout(240_000);
  server = await startProductServer([
    { email: owner },
    { email: support, role: 'support' },
    { email: viewer, role: 'viewer' },
    { email: leaver, role: 'support' },
  ]);
  buyers = [await buy(server.url, THREE_MONTH, `refund-${tag}@example.com`)];
});
test.afterAll(async () => {
  for (const buyer of buyers) await buyer.context.dispose();
  await server?.stop();
});

async function newPage(browser: Browser): Promise<Page> {
  const context = await browser.newContext({ baseURL: server.url });
  return context.newPage();
}

async function lookUp(page: Page, email: string): Promise<void> {
  await page.getByRole('button', { name: 'Customers' }).click();
  await page.getByLabel('Part of an email, an id, an execution id or a card’s last four').fill(email);
  await page.getByRole('button', { name: 'Search' }).click();
  await expect(page.getByTestId('customer-record')).toBeVisible();
}

test('a viewer sees the customer but no refund, cancel or audit, and the API refuses the refund', async ({ browser }) => {
  const page = await newPage(browser);
  await signInAsOperator(page, viewer);
  await expect(page.getByTestId('operator-role')).toHaveText('viewer');
  await expect(page.getByRole('button', { name: 'Audit log' })).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Operators' })).toHaveCount(0);
  const buyer = buyers[0]!;
  await lookUp(page, buyer.email);
  await expect(page.getByTestId(`subscription-${buyer.subscriptionId}`)).toBeVisible();
  await expect(page.locator('[data-testid^="charge-"]')).toHaveCount(1);
  await expect(page.getByRole('button', { name: 'Refund' })).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Cancel now' })).toHaveCount(0);
  await expect(page.getByRole('button', { name: /Export .* as CSV/ })).toHaveCount(0);

  // The button is not the only guard: the server refuses the viewer's refund.
  const record = (await (await page.request.get(`/api/admin/customers?q=${encodeURIComponent(buyer.email)}`)).json()) as CustomerRecord;
  const refund = await page.request.post('/api/admin/customers/refund', {
    data: { charge_id: record.charges[0]!.id, reason: 'viewer tries' },
    headers: { origin: server.url },
  });
  expect(refund.status()).toBe(403);
  expect(await refund.json()).toMatchObject({ code: 'FORBIDDEN', error: 'operator-role-forbidden' });
  const again = (await (await page.request.get(`/api/admin/customers?q=${encodeURIComponent(buyer.email)}`)).json()) as CustomerRecord;
  expect(again.charges[0]!.refunded_minor).toBe(0);
});

test('a support operator refunds a charge', async ({ browser }) => {
  const page = await newPage(browser);
  await signInAsOperator(page, support);
  await expect(page.getByTestId('operator-role')).toHaveText('support');
  await expect(page.getByRole('button', { name: 'Audit log' })).toHaveCount(0);
  const buyer = buyers[0]!;
  await lookUp(page, buyer.email);
  const refundForm = page.locator('[data-testid^="refund-"]');
  await refundForm.getByLabel('Amount ($)').fill('5.00');
  await refundForm.getByLabel('Reason').fill('goodwill');
  await refundForm.getByRole('button', { name: 'Refund' }).click();
  await page.getByTestId('confirm-dialog').getByRole('button', { name: 'Refund $5.00' }).click();
  await expect(page.getByTestId('customer-message')).toContainText('Refunded $5.00');
});

test('an operator who gave only the email code is refused until the authenticator code', async ({ browser }) => {
  const page = await newPage(browser);
  // The support operator enrolled in the test before; this is a new sign-in.
  await signInWithEmailCode(page, support);
  const screen = page.getByTestId('operator-second-factor');
  await expect(screen.getByRole('heading')).toHaveText('Authenticator code');
  await expect(page.getByTestId('operator-email')).toHaveCount(0);
  await expectNoSeriousA11yViolations(page);
  for (const path of ['/api/admin/customers?q=someone@example.com', '/api/admin/funnel?from=2026-01-01&to=2026-01-02']) {
    const refused = await page.request.get(path);
    expect(refused.status(), path).toBe(403);
    expect(await refused.json()).toMatchObject({ code: 'FORBIDDEN', error: 'operator-second-factor-required' });
  }
  // A wrong code keeps the console closed.
  const right = await freshAuthenticatorCode(support);
  const wrong = String((Number(right) + 1) % 1_000_000).padStart(6, '0');
  await screen.getByLabel('Code from your authenticator app').fill(wrong);
  await screen.getByRole('button', { name: 'Open the console' }).click();
  await expect(screen.getByRole('alert')).toContainText('not right');
  await expect(page.getByTestId('operator-email')).toHaveCount(0);
  await screen.getByLabel('Code from your authenticator app').fill(right);
  await screen.getByRole('button', { name: 'Open the console' }).click();
  await expect(page.getByTestId('operator-email')).toHaveText(support);
  expect((await page.request.get('/api/admin/customers?q=someone@example.com')).status()).toBe(200);
});

test('an owner removes an operator: the operator’s open session is refused at once, and the audit shows it', async ({ browser }) => {
  const leaving = await newPage(browser);
  await signInAsOperator(leaving, leaver);
  await lookUp(leaving, buyers[0]!.email);

  const ownerPage = await newPage(browser);
  await signInAsOperator(ownerPage, owner);
  await ownerPage.getByRole('button', { name: 'Operators' }).click();
  const row = ownerPage.getByTestId(`operator-${leaver}`);
  await expect(row).toContainText('authenticator set up');
  ownerPage.once('dialog', (dialog) => void dialog.accept());
  await row.getByRole('button', { name: 'Remove' }).click();
  await expect(ownerPage.getByTestId('admin-operators').getByRole('status').filter({ hasText: 'no longer' })).toHaveText(
    `${leaver} is no longer an operator.`,
  );
  await expect(row).toHaveCount(0);

  // The leaver's open page: the next request is refused, and the console falls back to the sign-in.
  const refused = await leaving.request.get(`/api/admin/customers?q=${encodeURIComponent(buyers[0]!.email)}`);
  expect(refused.status()).toBe(401);
  await leaving.reload();
  await expect(leaving.getByTestId('operator-sign-in')).toBeVisible();

  await ownerPage.getByRole('button', { name: 'Audit log' }).click();
  const removal = ownerPage.getByTestId('audit-log').locator('tbody tr', { hasText: 'operator.remove' });
  await expect(removal).toContainText(owner);
  await expect(removal).toContainText(`operator=${leaver}`);
  await expect(ownerPage.getByTestId('audit-log').locator('tbody tr', { hasText: 'operator.sign_in' }).first()).toBeVisible();
  // The audit view filters by action.
  await ownerPage.getByLabel('Action').selectOption('customer.refund');
  await ownerPage.getByRole('button', { name: 'Filter' }).click();
  await expect(ownerPage.getByTestId('audit-log').locator('tbody tr')).toHaveCount(1);
  await expect(ownerPage.getByTestId('audit-log').locator('tbody tr')).toContainText(support);
});
