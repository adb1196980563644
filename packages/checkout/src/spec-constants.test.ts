import { describe, expect, it } from 'vitest';
import { DEFAULT_PLACEHOLDERS } from './core/config/card-layout';
import { threeDsPopupSize } from './core/execution/execution-machine';
import {
  APPLE_PAY_BUTTON,
  APPLE_PAY_DEFAULTS,
  APPLE_PAY_RECURRING,
  APPLE_PAY_SESSION_VERSION,
} from './methods/apple-pay/apple-pay-element';
import { GOOGLE_PAY_API_VERSION, GOOGLE_PAY_BUTTON } from './methods/google-pay/google-pay-element';
import { PAYPAL_RERENDER_DEBOUNCE_MS } from './methods/paypal/paypal-element';

/**
 * checkout-spec §2 and §9 as the spec writes them (issue 33: behaviour tests compared these with the
 * code's own constants, so a changed value went unnoticed). Each expected value is the spec's text.
 */
describe('checkout spec constants', () => {
  it('§9: 3-D Secure frame size by screen width: 250x400, 390x400, 500x600, 600x400', () => {
    expect([320, 389, 390, 499, 500, 599, 600, 1280].map((width) => threeDsPopupSize(width))).toEqual([
      { width: 250, height: 400 },
      { width: 250, height: 400 },
      { width: 390, height: 400 },
      { width: 390, height: 400 },
      { width: 500, height: 600 },
      { width: 500, height: 600 },
      { width: 600, height: 400 },
      { width: 600, height: 400 },
    ]);
  });

  it('§9: PayPal re-render debounce 300 ms', () => {
    expect(PAYPAL_RERENDER_DEBOUNCE_MS).toBe(300);
  });

  it('§9: Apple-type session version 3, every 7 days, US, networks, 3DS, billing fields; §2 button', () => {
    expect(APPLE_PAY_SESSION_VERSION).toBe(3);
    expect(APPLE_PAY_RECURRING).toEqual({ intervalCount: 7, intervalUnit: 'day' });
    expect(APPLE_PAY_DEFAULTS).toEqual({
      countryCode: 'US',
      supportedNetworks: ['visa', 'masterCard', 'amex', 'discover'],
      merchantCapabilities: ['supports3DS'],
      requiredBillingContactFields: ['email', 'name', 'phone', 'postalAddress'],
    });
    expect(APPLE_PAY_BUTTON).toEqual({ style: 'black', type: 'buy', locale: 'en-GB' });
  });

  it('§9: Google-type API version 2, minor 0; §2 button', () => {
    expect(GOOGLE_PAY_API_VERSION).toEqual({ apiVersion: 2, apiVersionMinor: 0 });
    expect(GOOGLE_PAY_BUTTON).toEqual({ buttonColor: 'black', buttonType: 'long', buttonSizeMode: 'fill' });
  });

  it("§2: default placeholders 'Card holder', '1234 1234 1234 1234', 'MM', 'YY', 'MM/YY', 'CVC'", () => {
    expect(DEFAULT_PLACEHOLDERS).toEqual({
      cardholder_name: 'Card holder',
      card_number: '1234 1234 1234 1234',
      expiry_month: 'MM',
      expiry_year: 'YY',
      expiry_date: 'MM/YY',
      security_code: 'CVC',
    });
  });
});
