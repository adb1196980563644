import type { EnabledPaymentMethod } from '@roots/contracts/gateway';
import { describe, expect, it } from 'vitest';
import { methodEntry } from './registry';

/**
 * The drop-in item of each method code (checkout-spec §2, §3): its label and whether it is a wallet
 * button (which pays by itself) or a form the pay button submits; unknown and hosted codes redirect.
 */
describe('method entries', () => {
  const method = (code: string, label?: string) => ({ code, integrationType: 'api', ...(label ? { label } : {}) }) as EnabledPaymentMethod;

  it('label each item as the spec names it, and tell wallets from forms', () => {
    const rows = ['card', 'applePay', 'googlePay', 'payPal', 'genericRedirect', 'pix', 'someBank'].map((code) => {
      const entry = methodEntry(code);
      return [code, entry.label(method(code)), entry.wallet];
    });
    expect(rows).toEqual([
      ['card', 'Card', false],
      ['applePay', 'Apple Pay', true],
      ['googlePay', 'Google Pay', true],
      ['payPal', 'PayPal', true],
      ['genericRedirect', 'Generic redirect', false],
      ['pix', 'pix', false],
      ['someBank', 'someBank', false],
    ]);
    // A hosted method's provider name wins over its code.
    expect(methodEntry('genericRedirect').label(method('genericRedirect', 'Roots Pay'))).toBe('Roots Pay');
  });

  it('lists Apple Pay only where the browser has ApplePaySession; the others everywhere', () => {
    const ApplePaySession = Object.assign(function ApplePaySession() {}, { canMakePayments: () => true });
    const withApple = { ApplePaySession } as unknown as Window & typeof globalThis;
    const without = {} as Window & typeof globalThis;
    expect(methodEntry('applePay').isAvailable?.(withApple)).toBe(true);
    expect(methodEntry('applePay').isAvailable?.(without)).toBe(false);
    for (const code of ['card', 'googlePay', 'payPal', 'pix']) expect(methodEntry(code).isAvailable, code).toBeUndefined();
  });
});
