import { createHmac } from 'node:crypto';
import { expect, request as playwrightRequest, test, type Browser, type Page } from '@playwright/test';
import type { Execution } from '@roots/contracts/gateway';
import { DEV_GATEWAY_WEBHOOK_SECRET, DEV_SERVER_SECRETS } from '../../apps/server/src/config/env';
import { expectNoSeriousA11yViolations } from '../support/axe';
import { signInAsOperator } from './operator-session';
import { startProductServer, type ProductServer } from './product-server';
import { buy, WEEKLY, type Buyer } from './scenario';

/**
 * A card dispute's life in the console (issue 36, ADR 181-182): the gateway announces it, the
 * operator finds it on the customer with no refund offered, answers one with evidence before its
 * due date (the sandbox bank decides for us) and accepts another, which ends that purchase.
 */
const tag = `${Date.now()}`;
const operatorEmail = `dispute-operator-${tag}@example.com`;
/** The sandbox's "dispute: fraudulent" card: pays, then the bank disputes the payment at once. */
const DISPUTE_CARD = '4000000000000259';

let server: ProductServer;
const buyers: Buyer[] = [];

test.describe.configure({ mode: 'serial' });
test.setTimeout(180_000);

test.beforeAll(async () => {
  test.setTimeout(240_000);
  server = await startProductServer([{ email: operatorEmail }], { PAYMENT_SWEEP_INTERVAL_MS: '0' });
});
test.afterAll(async () => {
  for (const buyer of buyers) await buyer.context.dispose();
  await server?.stop();
});

/** Buys with the dispute card and delivers the gateway's signed disputeOpened notice, as the gateway would. */
async function disputedBuyer(email: string): Promise<Buyer> {
  const buyer = await buy(server.url, WEEKLY, email, DISPUTE_CARD);
  buyers.push(buyer);
  const gatewaySide = await playwrightRequest.newContext();
  const read = await gatewaySide.get(`${server.gatewayUrl}/merchant/v1/executions/${buyer.executionId}`, {
    headers: { 'x-api-key': DEV_SERVER_SECRETS.GATEWAY_MERCHANT_SECRET },
  });
  const execution = (await read.json()) as Execution;
  expect(execution.dispute).toMatchObject({ status: 'needs_response' });
  const body = JSON.stringify({
    id: `evt_e2e_lifecycle_${buyer.executionId}`,
    type: 'execution.disputeOpened',
    createdAt: new Date().toISOString(),
    data: { execution, dispute: execution.dispute },
  });
  const t = Math.floor(Date.now() / 1000);
  const signature = `t=${t},v1=${createHmac('sha256', DEV_GATEWAY_WEBHOOK_SECRET).update(`${t}.${body}`).digest('hex')}`;
  const delivered = await gatewaySide.post(`${server.url}/api/gateway/webhooks`, {
    headers: { 'content-type': 'application/json', 'roots-signature': signature },
    data: body,
  });
  expect(delivered.status(), await delivered.text()).toBe(200);
  await gatewaySide.dispose();
  return buyer;
}

async function openCustomer(browser: Browser, email: string): Promise<Page> {
  const context = await browser.newContext({ baseURL: server.url, timezoneId: 'Europe/Lisbon' });
  const page = await context.newPage();
  await signInAsOperator(page, operatorEmail);
  await page.getByRole('button', { name: 'Customers' }).click();
  await page.getByLabel('Part of an email, an id, an execution id or a card’s last four').fill(email);
  await page.getByRole('button', { name: 'Search' }).click();
  await expect(page.getByTestId('customer-record')).toBeVisible();
  return page;
}

const atGateway = async (page: Page, executionId: string) =>
  (await (
    await page.request.get(`${server.gatewayUrl}/merchant/v1/executions/${executionId}`, {
      headers: { 'x-api-key': DEV_SERVER_SECRETS.GATEWAY_MERCHANT_SECRET },
    })
  ).json()) as Execution;

test('an open dispute shows on the customer with no refund offered; evidence sent before the due date wins it', async ({ browser }) => {
  const email = `disputed-won-${tag}@example.com`;
  const buyer = await disputedBuyer(email);
  const page = await openCustomer(browser, email);
  const dispute = page.locator('[data-testid^="dispute-dp_"]');
  await expect(dispute).toHaveCount(1);
  await expect(dispute.getByTestId('dispute-status')).toHaveText('open, waiting for our answer');
  await expect(dispute).toContainText('$1.00');
  await expect(dispute).toContainText('cannot be refunded');
  // The disputed charge offers no refund.
  await expect(page.locator('[data-testid^="refund-"]')).toHaveCount(0);
  await expectNoSeriousA11yViolations(page);

  await dispute
    .getByLabel('Evidence for the bank')
    .fill('The customer consented, received the receipt and read the report. winning_evidence');
  await dispute.getByRole('button', { name: 'Submit evidence' }).click();
  // Nothing is sent before the operator confirms.
  await expect(page.getByRole('dialog')).toBeVisible();
  expect((await atGateway(page, buyer.executionId)).dispute?.status).toBe('needs_response');
  await page.getByRole('button', { name: 'Send evidence' }).click();
  await expect(page.getByTestId('customer-message')).toContainText('Evidence sent with');
  await expect(page.getByTestId('customer-message')).toContainText('won');
  await expect(dispute.getByTestId('dispute-status')).toHaveText('won: the money stays with us');
  await expect(dispute.getByRole('button', { name: 'Submit evidence' })).toHaveCount(0);
  expect((await atGateway(page, buyer.executionId)).dispute).toMatchObject({ status: 'won' });
  // Won: the charge may be refunded again, and the audit shows the answer once.
  await expect(page.locator('[data-testid^="refund-"]')).toHaveCount(1);
  await expect(page.getByTestId('audit-log').locator('tbody tr', { hasText: 'dispute.evidence_submitted' })).toHaveCount(1);
});

test('accepting a dispute ends the purchase at once; the charge stays without a refund', async ({ browser }) => {
  const email = `disputed-accepted-${tag}@example.com`;
  const buyer = await disputedBuyer(email);
  const page = await openCustomer(browser, email);
  const dispute = page.locator('[data-testid^="dispute-dp_"]');
  await dispute.getByRole('button', { name: 'Accept the dispute' }).click();
  await page.getByRole('button', { name: 'Accept and lose $1.00' }).click();
  await expect(page.getByTestId('customer-message')).toContainText('Dispute accepted');
  await expect(dispute.getByTestId('dispute-status')).toHaveText('accepted: charged back to the cardholder');
  await expect(dispute).toContainText('the bank already returned it');
  await expect(page.getByTestId(`subscription-${buyer.subscriptionId}`).getByRole('heading')).toContainText('expired');
  await expect(page.locator('[data-testid^="refund-"]')).toHaveCount(0);
  expect((await atGateway(page, buyer.executionId)).dispute).toMatchObject({ status: 'accepted' });
  expect((await atGateway(page, buyer.executionId)).amountRefunded).toBe(0);
});
