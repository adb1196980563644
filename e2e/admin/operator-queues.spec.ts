import { createHmac, randomUUID } from 'node:crypto';
import { expect, request as playwrightRequest, test, type Browser, type Page } from '@playwright/test';
import type { Execution, SdkInitPayload } from '@roots/contracts/gateway';
import type { InitSessionResponse } from '@roots/contracts/subscriptions';
import { DEV_GATEWAY_WEBHOOK_SECRET, DEV_SERVER_SECRETS } from '../../apps/server/src/config/env';
import { maskEmail } from '../../apps/server/src/lib/mask';
import { expectNoSeriousA11yViolations } from '../support/axe';
import { signInAsOperator } from './operator-session';
import { startProductServer, type ProductServer } from './product-server';
import { buy, THREE_MONTH, WEEKLY, type Buyer } from './scenario';

/**
 * The operator's queues (issue 25): an operator finds a customer by part of their email, reads
 * their timeline in the browser's own time zone, refunds only after confirming (going back does
 * nothing), finds a shopper's declined first payment in the failed-payments queue with its reason,
 * and a chargeback the gateway announced in the disputes queue (ADR 158).
 */
const tag = `${Date.now()}`;
const operatorEmail = `queues-operator-${tag}@example.com`;
const buyerEmail = `queue-buyer-${tag}@example.com`;
const declinedEmail = `declined-shopper-${tag}@example.com`;
const disputedEmail = `disputed-buyer-${tag}@example.com`;
/** The sandbox's "dispute: fraudulent" card: pays, then the bank disputes the payment at once. */
const DISPUTE_CARD = '4000000000000259';
/** The sandbox's card declined for insufficient funds with the shopper present. */
const INSUFFICIENT_FUNDS_CARD = '4000000000009995';
const TIME_ZONE = 'Asia/Tokyo';

let server: ProductServer;
let buyer: Buyer;
let declinedExecutionId: string;

test.describe.configure({ mode: 'serial' });
test.setTimeout(180_000);

/** The checkout as the SDK drives it for a shopper the funnel knows by email, declined at the gateway. */
async function declinedCheckout(baseURL: string, email: string): Promise<string> {
  const context = await playwrightRequest.newContext({ baseURL });
  const init = await context.post('/init/session', { data: { plan_id: WEEKLY, email }, headers: { origin: baseURL } });
  expect(init.status(), await init.text()).toBe(200);
  const session: SdkInitPayload = (await init.json()) as InitSessionResponse;
  const headers = () => ({
    authorization: `Bearer ${session.bearerToken}`,
    'x-client-version': '5.26.0',
    'x-client-type': 'web',
    'idempotency-key': randomUUID(),
  });
  const token = await context.post(session.links.tokenize, {
    headers: headers(),
    data: { cardNumber: INSUFFICIENT_FUNDS_CARD, expiryMonth: '12', expiryYear: '2034', cvv: '123' },
  });
  expect(token.status(), await token.text()).toBe(201);
  const instrument = await context.post(session.links.saveInstrument, {
    headers: headers(),
    data: {
      holderReference: session.holderReference,
      paymentMethod: 'card',
      storeInstrument: true,
      futureUsage: 'Subscription',
      data: { encryptedData: ((await token.json()) as { token: string }).token, vaultProviderConfigId: session.vaultProviderConfigId },
    },
  });
  expect(instrument.status(), await instrument.text()).toBe(201);
  const execution = await context.post(session.links.authorize, {
    headers: headers(),
    data: {
      amount: session.amount,
      paymentComposition: [
        { paymentMethodCode: 'card', integrationType: 'api', paymentInstrumentId: ((await instrument.json()) as { id: string }).id },
      ],
    },
  });
  expect(execution.status(), await execution.text()).toBe(200);
  const paid = (await execution.json()) as Execution;
  expect(paid.status).toBe('authorizeFailed');
  await context.dispose();
  return paid.id;
}

test.beforeAll(async () => {
  test.setTimeout(240_000);
  // The scheduler ticks often and sweeps on every tick: the declined payment is found in seconds.
  server = await startProductServer([{ email: operatorEmail }], { BILLING_TICK_MS: '500', PAYMENT_SWEEP_INTERVAL_MS: '0' });
  buyer = await buy(server.url, THREE_MONTH, buyerEmail);
  declinedExecutionId = await declinedCheckout(server.url, declinedEmail);
});
test.afterAll(async () => {
  await buyer?.context.dispose();
  await server?.stop();
});

async function operatorPage(browser: Browser): Promise<Page> {
  const context = await browser.newContext({ baseURL: server.url, timezoneId: TIME_ZONE });
  const page = await context.newPage();
  await signInAsOperator(page, operatorEmail);
  return page;
}

async function refundedAtGateway(page: Page): Promise<number> {
  const answer = await page.request.get(`${server.gatewayUrl}/merchant/v1/executions/${buyer.executionId}`, {
    headers: { 'x-api-key': DEV_SERVER_SECRETS.GATEWAY_MERCHANT_SECRET },
  });
  return ((await answer.json()) as Execution).amountRefunded;
}

test('an operator finds a customer by part of the email, reads the timeline in local time, and refunds only after confirming', async ({
  browser,
}) => {
  const page = await operatorPage(browser);
  await page.getByRole('button', { name: 'Customers' }).click();
  // Part of the address, in other letters' case.
  await page.getByLabel('Part of an email, an id, an execution id or a card’s last four').fill(`BUYER-${tag}`);
  await page.getByRole('button', { name: 'Search' }).click();
  const subscription = page.getByTestId(`subscription-${buyer.subscriptionId}`);
  await expect(subscription).toBeVisible();
  // The plan's name from the catalog, not its id.
  await expect(subscription.getByRole('heading')).toContainText('3-Month Plan');
  await expect(subscription).not.toContainText(THREE_MONTH);

  // The timeline: purchase, first charge and receipt, in the browser's zone.
  const timeline = page.getByTestId('customer-timeline');
  await expect(timeline.locator('caption')).toContainText(TIME_ZONE);
  for (const what of ['purchase', 'charge', 'email'])
    await expect(timeline.locator('tbody tr', { has: page.getByRole('cell', { name: what, exact: true }) }).first()).toBeVisible();
  await expect(timeline.locator('tbody tr', { hasText: 'receipt' }).first()).toBeVisible();
  // Japan is UTC+9 all year: a local time names it, never a bare UTC instant.
  await expect(timeline.locator('tbody tr').first().locator('td').first()).toContainText(/GMT\+9/);
  await expect(timeline).not.toContainText(/\d{4}-\d{2}-\d{2}T/);
  await expectNoSeriousA11yViolations(page);

  // Refund $10.00: the dialog states amount, plan and customer; going back refunds nothing.
  const refundForm = page.locator('[data-testid^="refund-"]');
  await refundForm.getByLabel('Amount ($)').fill('10.00');
  await refundForm.getByLabel('Reason').fill('goodwill');
  await refundForm.getByRole('button', { name: 'Refund' }).click();
  const dialog = page.getByTestId('confirm-dialog');
  await expect(dialog).toBeVisible();
  await expect(dialog).toContainText('$10.00');
  await expect(dialog).toContainText('3-Month Plan');
  await expect(dialog).toContainText(buyerEmail);
  await expectNoSeriousA11yViolations(page);
  await dialog.getByRole('button', { name: 'Go back' }).click();
  await expect(dialog).toHaveCount(0);
  await expect(page.getByTestId('customer-message')).toHaveCount(0);
  expect(await refundedAtGateway(page)).toBe(0);

  await refundForm.getByRole('button', { name: 'Refund' }).click();
  await page.getByTestId('confirm-dialog').getByRole('button', { name: 'Refund $10.00' }).click();
  await expect(page.getByTestId('customer-message')).toContainText('Refunded $10.00');
  expect(await refundedAtGateway(page)).toBe(1000);
  // The refund joins the timeline.
  await expect(timeline.locator('tbody tr', { has: page.getByRole('cell', { name: 'refund', exact: true }) })).toContainText('$10.00');
});

test('a declined first payment at the checkout shows in the failed-payments queue with its reason', async ({ browser }) => {
  const page = await operatorPage(browser);
  await page.getByRole('button', { name: 'Queues' }).click();
  const queue = page.getByTestId('queue-failed-payments');
  const row = queue.locator('tbody tr', { hasText: declinedExecutionId });
  // The sweep finds it on a scheduler tick: look again until it is there.
  await expect(async () => {
    await page.getByRole('button', { name: 'Webhooks' }).click();
    await page.getByRole('button', { name: 'Failed payments' }).click();
    await expect(row).toBeVisible({ timeout: 1_000 });
  }).toPass({ timeout: 60_000 });
  await expect(row).toContainText('Your card has insufficient funds. (insufficient_funds)');
  await expect(row).toContainText(maskEmail(declinedEmail));
  await expect(row).not.toContainText(declinedEmail);
  await expect(row).toContainText('Weekly Plan');
  await expect(row).toContainText('•••• 9995');
  await expect(row).toContainText('GMT+9');
  await expectNoSeriousA11yViolations(page);
});

test('a dispute the gateway announced shows in the disputes queue with the customer, plan, amount and deadline in local time', async ({
  browser,
}) => {
  const disputed = await buy(server.url, WEEKLY, disputedEmail, DISPUTE_CARD);
  try {
    const page = await operatorPage(browser);
    // The suite's gateway sends no webhooks to this server: its signed notice is delivered as the gateway would.
    const read = await page.request.get(`${server.gatewayUrl}/merchant/v1/executions/${disputed.executionId}`, {
      headers: { 'x-api-key': DEV_SERVER_SECRETS.GATEWAY_MERCHANT_SECRET },
    });
    const execution = (await read.json()) as Execution;
    expect(execution.dispute).toMatchObject({ reason: 'fraudulent', status: 'needs_response' });
    const body = JSON.stringify({
      id: `evt_e2e_dispute_${tag}`,
      type: 'execution.disputeOpened',
      createdAt: new Date().toISOString(),
      data: { execution, dispute: execution.dispute },
    });
    const t = Math.floor(Date.now() / 1000);
    const signature = `t=${t},v1=${createHmac('sha256', DEV_GATEWAY_WEBHOOK_SECRET).update(`${t}.${body}`).digest('hex')}`;
    // From the gateway, not the operator's browser: no cookie, no origin.
    const gatewaySide = await playwrightRequest.newContext();
    const delivered = await gatewaySide.post(`${server.url}/api/gateway/webhooks`, {
      headers: { 'content-type': 'application/json', 'roots-signature': signature },
      data: body,
    });
    expect(delivered.status(), await delivered.text()).toBe(200);
    await gatewaySide.dispose();

    await page.getByRole('button', { name: 'Queues' }).click();
    await page.getByRole('button', { name: 'Disputes' }).click();
    const row = page.getByTestId('queue-disputes').locator('tbody tr', { hasText: disputed.executionId });
    await expect(row).toBeVisible();
    await expect(row).toContainText(disputedEmail);
    await expect(row).toContainText('Weekly Plan');
    await expect(row).toContainText('$1.00');
    await expect(row).toContainText('fraudulent');
    await expect(row).toContainText('needs response');
    // Opened and evidence due by, both in Tokyo time, never as ISO text.
    await expect(row.locator('td', { hasText: 'GMT+9' })).toHaveCount(2);
    await expect(row).not.toContainText(/\d{4}-\d{2}-\d{2}T/);
    await expectNoSeriousA11yViolations(page);
  } finally {
    await disputed.context.dispose();
  }
});
