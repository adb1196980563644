import { fillSecureFields, TEST_CARDS } from '@roots/checkout/testing';
import { expect, test } from './support/fixtures';

const PAN = TEST_CARDS.success.number;
/** The PAN in any grouping: plain, spaced, hyphenated. */
const PAN_PATTERN = new RegExp(PAN.split('').join('[ -]?'));

test('the merchant page never holds a full card number: DOM, postMessage traffic, network requests', async ({ checkout, page }) => {
  // Record, in the top page only, every message the parent window receives.
  await page.addInitScript(() => {
    if (window !== window.top) return;
    const seen: string[] = [];
    (window as unknown as { __parentMessages: string[] }).__parentMessages = seen;
    window.addEventListener('message', (event) => seen.push(`${event.origin} ${JSON.stringify(event.data)}`), true);
  });
  const parentRequests: string[] = [];
  const frameRequests: string[] = [];
  page.on('request', (request) => {
    const text = `${request.method()} ${request.url()} ${request.postData() ?? ''} ${JSON.stringify(request.headers())}`;
    if (request.frame() === page.mainFrame()) parentRequests.push(text);
    else frameRequests.push(text);
  });

  await checkout.open({ methods: 'card' });
  await fillSecureFields(page, 'success');
  await checkout.payButton.click();
  await expect(checkout.screen).toContainText('Payment successful', { timeout: 30_000 });

  // DOM of the merchant page (its own document, inputs' values included).
  const dom = await page.evaluate(
    () => document.documentElement.outerHTML + [...document.querySelectorAll('input')].map((input) => input.value).join(' '),
  );
  expect(dom).not.toMatch(PAN_PATTERN);
  // Storage of the merchant origin.
  const storage = await page.evaluate(() => JSON.stringify({ ...localStorage }) + JSON.stringify({ ...sessionStorage }));
  expect(storage).not.toMatch(PAN_PATTERN);
  // postMessage traffic the parent saw: masked values only (first 8 digits, then X).
  const messages = await page.evaluate(() => (window as unknown as { __parentMessages: string[] }).__parentMessages);
  expect(messages.length).toBeGreaterThan(5);
  expect(messages.join('\n')).not.toMatch(PAN_PATTERN);
  expect(messages.join('\n')).toContain('42424242XXXXXXXX');
  // Requests made by the merchant page: none carries the card number.
  expect(parentRequests.length).toBeGreaterThan(3);
  expect(parentRequests.join('\n')).not.toMatch(PAN_PATTERN);
  // The card number went only to the vault, from the gateway-origin frame.
  const vaultCalls = frameRequests.filter((request) => PAN_PATTERN.test(request));
  expect(vaultCalls.length).toBe(1);
  expect(vaultCalls[0]).toContain(`${checkout.stack.gatewayUrl}/vault/v1/tokens`);
});
