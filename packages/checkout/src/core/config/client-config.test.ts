import { describe, expect, it } from 'vitest';
import type { SdkInitPayload } from '@roots/contracts/gateway';
import type { CheckoutError } from '../errors/checkout-error';
import { cardLayout } from './card-layout';
import { resolveClientConfig, validatePaymentMethod } from './client-config';

const session = {
  gatewayOrigin: 'https://gw.example',
  vaultURL: 'https://gw.example/vault/',
  links: {},
} as unknown as SdkInitPayload;
const getBearerToken = () => 'token';

function code(run: () => unknown): string | undefined {
  try {
    run();
  } catch (error) {
    return (error as CheckoutError).code;
  }
  return undefined;
}

describe('client init options', () => {
  it('applies the defaults and strips the vault URL trailing slash', () => {
    const config = resolveClientConfig({ session, getBearerToken });
    expect(config).toMatchObject({
      logLevel: 'ERROR',
      env: 'PROD',
      vaultURL: 'https://gw.example/vault',
      elementsURL: 'https://gw.example/secure-fields/v1',
    });
  });
  it.each([
    [{ session }, 'MISSING_GET_BEARER_TOKEN'],
    [{ session, getBearerToken: 'x' }, 'MISSING_GET_BEARER_TOKEN'],
    [{ getBearerToken }, 'CLIENT_CONFIG_MALFORMED'],
    [{ session, getBearerToken, vaultURL: 'vault' }, 'INVALID_VAULT_URL'],
    [{ session, getBearerToken, options: { logLevel: 'LOUD' } }, 'INVALID_LOG_LEVEL'],
    [{ session, getBearerToken, options: { env: 'QA' } }, 'INVALID_ENV'],
    [{ session, getBearerToken, options: { customElementsURL: 'http://cdn.example' } }, 'INVALID_CUSTOM_ELEMENTS_URL'],
    [null, 'CLIENT_CONFIG_MALFORMED'],
  ])('%j → %s', (input, expected) => {
    expect(code(() => resolveClientConfig(input))).toBe(expected);
  });
  it('accepts an https customElementsURL on the session’s gateway origin, refuses another origin', () => {
    expect(resolveClientConfig({ session, getBearerToken, options: { customElementsURL: 'https://gw.example/sf/' } }).elementsURL).toBe(
      'https://gw.example/sf',
    );
    expect(code(() => resolveClientConfig({ session, getBearerToken, options: { customElementsURL: 'https://cdn.example/sf/' } }))).toBe(
      'INVALID_CUSTOM_ELEMENTS_URL',
    );
  });
});

describe('wallet script URLs (configurable, checkout-spec §7)', () => {
  it('PROD loads the providers’ scripts; other environments the gateway’s stand-ins', () => {
    expect(resolveClientConfig({ session, getBearerToken }).walletScripts).toEqual({
      googlePay: 'https://pay.google.com/gp/p/js/pay.js',
      payPal: 'https://www.paypal.com/sdk/js',
    });
    expect(resolveClientConfig({ session, getBearerToken, options: { env: 'SANDBOX' } }).walletScripts).toEqual({
      googlePay: 'https://gw.example/sandbox/google-pay/pay.js',
      payPal: 'https://gw.example/sandbox/paypal/sdk/js',
    });
  });
  it('takes the integrator’s URLs, absolute only', () => {
    const walletScripts = { googlePay: 'https://cdn.example/pay.js', payPal: 'https://cdn.example/paypal.js' };
    expect(resolveClientConfig({ session, getBearerToken, options: { walletScripts } }).walletScripts).toEqual(walletScripts);
    expect(code(() => resolveClientConfig({ session, getBearerToken, options: { walletScripts: { payPal: '/paypal.js' } } }))).toBe(
      'CLIENT_CONFIG_MALFORMED',
    );
  });
});

describe('payment method config', () => {
  it('needs a code and an integration type', () => {
    expect(code(() => validatePaymentMethod({ integrationType: 'api' }))).toBe('MISSING_PAYMENT_METHOD_CODE');
    expect(code(() => validatePaymentMethod({ code: 'card' }))).toBe('CONFIG_MALFORMED');
    expect(code(() => validatePaymentMethod({ code: 'card', integrationType: 'api' }))).toBeUndefined();
  });
});

describe('card layout (checkout-spec §2)', () => {
  it('defaults: number, then expiry+CVV (single) or month/year then CVV', () => {
    expect(cardLayout()).toEqual([['card_number'], ['expiry_date', 'security_code']]);
    expect(cardLayout({ showSingleExpiryDateField: false })).toEqual([['card_number'], ['expiry_month', 'expiry_year'], ['security_code']]);
    expect(cardLayout({ showCardHolderName: true })).toHaveLength(3);
    expect(cardLayout({ showCardHolderName: true, showSingleExpiryDateField: false })).toHaveLength(4);
  });
  it('rejects duplicate and unknown fields in a custom layout', () => {
    expect(code(() => cardLayout({ layout: [['card_number'], ['card_number']] }))).toBe('DUPLICATE_LAYOUT_FIELD');
    expect(code(() => cardLayout({ layout: [['iban' as never]] }))).toBe('INVALID_ELEMENT_TYPE');
    expect(code(() => cardLayout({ layout: ['card_number' as never] }))).toBe('INVALID_LAYOUT');
    expect(cardLayout({ layout: [['card_number', 'security_code'], ['expiry_date']] })).toHaveLength(2);
  });
});
