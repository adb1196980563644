import { fillSecureFields } from '@roots/checkout/testing';
import { expect, test } from './support/fixtures';

test.describe('a session that outlives its bearer token (checkout-spec §4 "Bearer token")', () => {
  test('a token expiring between session and pay is refreshed, and the payment succeeds once', async ({ checkout }) => {
    const authorizations: string[] = [];
    checkout.page.on('request', (request) => {
      if (request.method() === 'POST' && request.url().endsWith('/authorize')) authorizations.push(request.url());
    });
    await checkout.open({ methods: 'card', ttl: '2' });
    const session = await checkout.page.evaluate(() => JSON.parse(sessionStorage.getItem('test-session') ?? '{}') as { expiresAt: string });
    // Let the first token expire before the shopper types and pays.
    await expect.poll(() => Date.now() > Date.parse(session.expiresAt) + 500, { timeout: 10_000 }).toBe(true);
    await fillSecureFields(checkout.page, 'success');
    await expect(checkout.payButton).toBeEnabled();
    await checkout.payButton.click();
    await expect(checkout.screen).toContainText('Payment successful', { timeout: 30_000 });
    const events = await checkout.events();
    expect(events.filter((event) => event.name === 'tokenRefreshed').length).toBeGreaterThanOrEqual(1);
    expect(events.filter((event) => event.name === 'success')).toHaveLength(1);
    expect(events.filter((event) => event.name === 'failure')).toHaveLength(0);
    expect(authorizations).toHaveLength(1);
  });
});
