import { describe, expect, it } from 'vitest';
import {
  CHECKOUT_CLIENT_VERSION,
  GATEWAY_UNAUTHORIZED_MESSAGE,
  PAYMENT_METHOD_CODES,
  PAYPAL_LOADER_VERSION,
  VAULT_INVALID_TOKEN_MESSAGE,
} from './gateway-constants';
import { CHECKOUT_MESSAGES, formatMessage, MESSAGES, REQUEST_FAILURE_MESSAGES } from './messages';

/**
 * The constants and messages as the specs write them (issue 26: mutation testing found spec values
 * no test held). Each expected value here is the spec's text, not the code's constant.
 */
describe('spec constants', () => {
  it('checkout-spec §9: client version, PayPal loader; §3: method codes', () => {
    expect([CHECKOUT_CLIENT_VERSION, PAYPAL_LOADER_VERSION]).toEqual(['5.26.0', '5.1.4']);
    expect([...PAYMENT_METHOD_CODES].sort()).toEqual(['applePay', 'card', 'genericRedirect', 'googlePay', 'payPal', 'pix']);
  });

  it('checkout-spec §8: the vault and payment API messages', () => {
    expect(VAULT_INVALID_TOKEN_MESSAGE).toBe('Invalid token');
    expect(GATEWAY_UNAUTHORIZED_MESSAGE).toBe('API token is not valid or expired.');
    expect(CHECKOUT_MESSAGES).toMatchObject({
      paymentPending: 'Payment pending',
      somethingWentWrong: 'Something went wrong',
      applePayNotAvailable: 'Apple Pay is not available',
      unauthorized: 'API token is not valid or expired.',
      networkError: 'Network Error',
      invalidToken: 'Invalid token',
    });
  });

  it('product-spec §5, §6, §8: the sign-in modal and the cancel outcomes', () => {
    expect(MESSAGES).toMatchObject({
      joinProductNow: 'Join {product} now',
      notNow: 'Not now',
      noSubscriptions: 'No subscriptions',
      checkYourEmail: 'Check your email',
    });
    expect(formatMessage(MESSAGES.joinProductNow, { product: 'Roots' })).toBe('Join Roots now');
  });

  it('product-spec §8: the fallbacks and the generic request failures', () => {
    expect(MESSAGES).toMatchObject({
      somethingWentWrong: 'Something went wrong',
      cantCreateSubscription: 'Something went wrong, cant create subscription',
      finalizeError: 'Finalize error',
      noSubscriptionData: 'No subscription data',
      applePayNotAvailable: 'Apple Pay is not available',
    });
    expect(REQUEST_FAILURE_MESSAGES).toEqual({
      status: 'Request failed with status code {status}',
      network: 'Network Error',
      aborted: 'Request aborted',
      timeout: 'timeout of {ms}ms exceeded',
      unsupportedProtocol: 'Unsupported protocol {protocol}',
      canceled: 'canceled',
    });
  });

  it('fills every {name} it has a value for, leaves the others as written', () => {
    expect(formatMessage('timeout of {ms}ms exceeded', { ms: '30000' })).toBe('timeout of 30000ms exceeded');
    expect(formatMessage('{product} and {product}: {missing} {a_b1}', { product: 'Roots', a_b1: 'x' })).toBe(
      'Roots and Roots: {missing} x',
    );
    expect(formatMessage('no placeholders {}', { '': 'x' })).toBe('no placeholders {}');
  });
});
