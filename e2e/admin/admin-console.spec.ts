import { expect, test, type Browser, type Page } from '@playwright/test';
import type { Execution } from '@roots/contracts/gateway';
import { DEV_SERVER_SECRETS } from '../../apps/server/src/config/env';
import { expectNoSeriousA11yViolations } from '../support/axe';
import { codeIds, mailbox, newCode, signInAsOperator } from './operator-session';
import { COUNTRY_HEADER, startProductServer, type ProductServer } from './product-server';
import { runScenario, type ScenarioFigures } from './scenario';

/**
 * The operator console (issue 13): an operator added by `npm run operator:add` (the first, so an
 * owner) signs in with the email code and their authenticator (issue 25) and sees the funnel and revenue of a scenario driven through the product; refunds a
 * charge (gateway, email, audit log); a customer is refused every admin page and endpoint; a
 * visitor from the EU gets the geo-policy screen instead of the face analysis.
 */
const tag = `${Date.now()}`;
const operatorEmail = `operator-${tag}@example.com`;
let server: ProductServer;
let figures: ScenarioFigures;

test.describe.configure({ mode: 'serial' });
test.setTimeout(180_000);

/**
 * A tracked visit by a real page (wmq=1): its landing sends `intro`; a reload is the same visit,
 * so it counts once (docs/metrics.md).
 */
async function trackedBrowserVisit(browser: Browser, path: string): Promise<void> {
  const context = await browser.newContext({ baseURL: server.url });
  const page = await context.newPage();
  const intro = () =>
    page.waitForResponse(
      (response) =>
        new URL(response.url()).pathname === '/event' && (response.request().postDataJSON() as { event?: string }).event === 'intro',
    );
  for (const load of [() => page.goto(`${path}?wmq=1`), () => page.reload()]) {
    const sent = intro();
    await load();
    expect((await sent).status()).toBe(201);
  }
  await context.close();
}

test.beforeAll(async ({ browser }) => {
  test.setTimeout(240_000);
  server = await startProductServer([{ email: operatorEmail }]);
  await trackedBrowserVisit(browser, '/roots/');
  await trackedBrowserVisit(browser, '/roots/quiz');
  figures = await runScenario(server.url, tag, 2, 1);
});
test.afterAll(async () => {
  for (const buyer of figures?.buyers ?? []) await buyer.context.dispose();
  await server?.stop();
});

async function newPage(browser: Browser, options: { country?: string; phone?: boolean } = {}): Promise<Page> {
  const context = await browser.newContext({
    baseURL: server.url,
    ...(options.country ? { extraHTTPHeaders: { [COUNTRY_HEADER]: options.country } } : {}),
    ...(options.phone ? { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true } : {}),
  });
  return context.newPage();
}

const rowOf = (page: Page, testId: string, first: string) =>
  page.getByTestId(testId).locator('tbody tr', { has: page.getByRole('cell', { name: first, exact: true }) });

test('the operator added by the command sees the scenario’s funnel and revenue, and refunds a charge', async ({ browser }) => {
  const page = await newPage(browser);
  await signInAsOperator(page, operatorEmail);

  // Funnel: unique visits per step, as the scenario made them, with conversion from landing.
  await expect(page.getByTestId('admin-funnel')).toBeVisible();
  const table: Array<[string, string, string]> = [];
  const expectations: Array<[string, number]> = [
    ['Landing', figures.landing],
    ['Consent', figures.consent],
    ['Selfie', figures.selfie],
    ['Email', figures.email],
    ['Paywall', figures.paywall],
    ['Purchase', figures.purchase],
  ];
  for (const [step, count] of expectations) {
    const cells = rowOf(page, 'funnel-steps', step).locator('td');
    await expect(cells.nth(1)).toHaveText(String(count));
    await expect(cells.nth(2)).toHaveText(`${((count / figures.landing) * 100).toFixed(1)}%`);
    table.push([`funnel: ${step} (visits)`, String(count), (await cells.nth(1).textContent()) ?? '']);
  }
  const quizLanding = rowOf(page, 'funnel-sources', 'quiz').locator('td').nth(2);
  await expect(quizLanding).toHaveText(String(figures.quizLanding));
  table.push(['funnel: quiz variant landing', String(figures.quizLanding), (await quizLanding.textContent()) ?? '']);
  await expectNoSeriousA11yViolations(page);

  // Revenue: each figure with the span it covers; no mismatch with the gateway.
  await page.getByRole('button', { name: 'Revenue' }).click();
  const money = (minor: number) => `$${(minor / 100).toFixed(2)}`;
  const shown: Array<[string, string, string]> = [
    ['trials started', 'figure-trials', String(figures.trialsStarted)],
    ['direct purchases', 'figure-direct', String(figures.directPurchases)],
    ['gross', 'figure-gross', money(figures.grossMinor)],
    ['refunded to customers', 'figure-refunded', money(figures.refundedMinor)],
    ['refunds to customers', 'figure-refunds', String(figures.refunds)],
    ['cancellations', 'figure-cancellations', String(figures.cancellations)],
    ['now: active paying', 'figure-active', String(figures.activePaying)],
    ['now: active trials', 'figure-active-trials', String(figures.activeTrials)],
    ['now: MRR', 'figure-mrr', money(figures.mrrMinor)],
  ];
  for (const [name, testId, truth] of shown) {
    await expect(page.getByTestId(testId)).toHaveText(truth);
    table.push([name, truth, (await page.getByTestId(testId).textContent()) ?? '']);
  }
  await expect(page.getByRole('heading', { name: 'In the range' })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Now' })).toBeVisible();
  // Plans by name, never by id.
  await expect(page.getByTestId('revenue-plans')).toContainText('3-Month Plan ($48.00 first, then $49.99 every 3 months)');
  await expect(page.getByTestId('revenue-plans')).not.toContainText('roots_3m4800_3m4999');
  await expect(page.getByTestId('reconciliation')).toContainText(`${figures.buyers.length} charges checked`);
  await expect(page.getByTestId('reconciliation')).toContainText('no mismatch');
  const width = Math.max(...table.map(([name]) => name.length));
  console.info(
    ['Console (browser) against the scenario’s tally:', `${'figure'.padEnd(width)} | truth | console`]
      .concat(table.map(([name, truth, onScreen]) => `${name.padEnd(width)} | ${truth} | ${onScreen}`))
      .join('\n'),
  );
  await expectNoSeriousA11yViolations(page);

  // Customer care: refund $10.00 of the three-month buyer's charge.
  const quarter = figures.buyers[2]!;
  await page.getByRole('button', { name: 'Customers' }).click();
  await page.getByLabel('Part of an email, an id, an execution id or a card’s last four').fill(quarter.email);
  await page.getByRole('button', { name: 'Search' }).click();
  await expect(page.getByTestId(`subscription-${quarter.subscriptionId}`)).toBeVisible();
  const refundForm = page.locator('[data-testid^="refund-"]');
  await refundForm.getByLabel('Amount ($)').fill('10.00');
  await refundForm.getByLabel('Reason').fill('goodwill');
  await refundForm.getByRole('button', { name: 'Refund' }).click();
  await page.getByTestId('confirm-dialog').getByRole('button', { name: 'Refund $10.00' }).click();
  await expect(page.getByTestId('customer-message')).toContainText('Refunded $10.00');
  await expectNoSeriousA11yViolations(page);

  // The gateway shows the refund; the customer got the email; the audit log shows the action.
  const execution = (await (
    await page.request.get(`${server.gatewayUrl}/merchant/v1/executions/${quarter.executionId}`, {
      headers: { 'x-api-key': DEV_SERVER_SECRETS.GATEWAY_MERCHANT_SECRET },
    })
  ).json()) as Execution;
  expect(execution.amountRefunded).toBe(1000);
  await expect
    .poll(async () => (await mailbox(page.request)).filter((item) => item.to === quarter.email && item.kind === 'refund_receipt').length)
    .toBe(1);
  await page.getByRole('button', { name: 'Audit log' }).click();
  const refundRow = page.getByTestId('audit-log').locator('tbody tr', { hasText: 'customer.refund' });
  await expect(refundRow).toContainText(operatorEmail);
  await expect(refundRow).toContainText(quarter.email);
  await expect(refundRow).toContainText('amount_minor=1000');
});

test('the console works on a phone', async ({ browser }) => {
  const page = await newPage(browser, { phone: true });
  await signInAsOperator(page, operatorEmail);
  await page.getByRole('button', { name: 'Revenue' }).click();
  await expect(page.getByTestId('figure-trials')).toBeVisible();
  // Nothing but the tables' own scroll areas is wider than the screen.
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await expectNoSeriousA11yViolations(page);
});

test('a customer cannot open any admin page or endpoint', async ({ browser }) => {
  const page = await newPage(browser);
  const customer = figures.buyers[1]!.email;
  await page.goto('/roots/');
  const seen = await codeIds(page.request, customer);
  await page.request.post('/api/auth/email-otp/send-verification-otp', {
    data: { email: customer, type: 'sign-in' },
    headers: { origin: server.url },
  });
  const signedIn = await page.request.post('/api/auth/sign-in/email-otp', {
    data: { email: customer, otp: await newCode(page.request, customer, seen) },
    headers: { origin: server.url },
  });
  expect(signedIn.status()).toBe(200);
  expect((await page.request.get('/api/account/me')).status()).toBe(200);

  await page.goto('/roots/admin');
  await expect(page.getByTestId('admin-forbidden')).toBeVisible();
  await expect(page.getByTestId('admin-funnel')).toHaveCount(0);
  const range = 'from=2026-01-01&to=2026-12-31';
  for (const path of [
    '/api/admin/me',
    '/api/admin/audit',
    `/api/admin/funnel?${range}`,
    `/api/admin/revenue?${range}`,
    `/api/admin/quality?${range}`,
    `/api/admin/customers?q=${customer}`,
  ])
    expect((await page.request.get(path)).status(), path).toBe(403);
  const refund = await page.request.post('/api/admin/customers/refund', {
    data: { charge_id: crypto.randomUUID(), reason: 'me' },
    headers: { origin: server.url },
  });
  // Refused by the operator guard itself, not only by the origin check.
  expect(refund.status()).toBe(403);
  expect((await refund.json()) as { code: string; error: string }).toMatchObject({ code: 'FORBIDDEN' });
  expect(await refund.text()).not.toContain('did not come from our site');
});

test('a visitor from an EU country gets the geo-policy screen instead of the selfie', async ({ browser }) => {
  const page = await newPage(browser, { country: 'DE' });
  await page.goto('/roots/');
  await expect(page.getByTestId('geo-policy-screen')).toBeVisible();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('The face analysis is not available in your country');
  await expect(page.getByRole('link', { name: 'population insights' })).toBeVisible();
  await expectNoSeriousA11yViolations(page);
  const faceCheck = await page.request.post('/api/face-check', { data: {} });
  expect(faceCheck.status()).toBe(403);

  const elsewhere = await newPage(browser, { country: 'US' });
  await elsewhere.goto('/roots/');
  await expect(elsewhere.getByTestId('landing-screen')).toBeVisible();
});
