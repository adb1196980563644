import type { SdkInitPayload } from '@roots/contracts/gateway';

/**
 * Fixtures of the SDK's unit tests (not part of `@roots/checkout/testing`): a payment session as
 * the gateway hands it to the SDK, and the merchant's return pages.
 */
export const TEST_LINKS = { execution: 'https://gw/x', authorize: 'https://gw/a' };

/** A session of execution `ex_1` on gateway origin `https://gw` for 24.99 USD; `overrides` replace fields. */
export const testSession = (overrides: Partial<SdkInitPayload> = {}): SdkInitPayload =>
  ({
    gatewayOrigin: 'https://gw',
    executionId: 'ex_1',
    amount: { value: 2499, currency: 'USD' },
    links: TEST_LINKS,
    // As the gateway lists them: the hosted methods say how they open (pix in a popup).
    paymentMethods: [
      { code: 'card', integrationType: 'api' },
      { code: 'genericRedirect', integrationType: 'hpp', clientConfig: { flow: 'redirect' } },
      { code: 'pix', integrationType: 'hpp', clientConfig: { flow: 'redirect', popup: true } },
    ],
    ...overrides,
  }) as unknown as SdkInitPayload;

export const TEST_RETURN_INFO = { success: 'https://shop/s', cancel: 'https://shop/c', error: 'https://shop/e', pending: 'https://shop/p' };
