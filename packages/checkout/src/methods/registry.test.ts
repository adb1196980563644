// @vitest-environment jsdom
import { describe, expect, it } from 'vitest';
import type { EnabledPaymentMethod } from '@roots/contracts/gateway';
import type { CheckoutContext } from '../client/checkout-context';
import { applePayMethod } from './apple-pay/method';
import { cardMethod } from './card/method';
import type { MethodHooks } from './method-entry';
import { RedirectElement } from './redirect/redirect-element';
import { METHOD_REGISTRY, methodEntry } from './registry';

const context = { document, window } as unknown as CheckoutContext;
const hooks = {} as MethodHooks;
const method = (code: string, label?: string) =>
  ({ code, integrationType: 'hpp', ...(label ? { label } : {}) }) as unknown as EnabledPaymentMethod;

describe('payment method registry (issue 15)', () => {
  it('maps each registered code to its entry; wallets are marked', () => {
    expect(Object.keys(METHOD_REGISTRY).sort()).toEqual(['applePay', 'card', 'googlePay', 'payPal']);
    expect(methodEntry('card')).toBe(cardMethod);
    expect(methodEntry('applePay')).toBe(applePayMethod);
    expect(['applePay', 'googlePay', 'payPal'].every((code) => methodEntry(code).wallet)).toBe(true);
    expect(methodEntry('card').wallet).toBe(false);
  });

  it('an unknown code gets the redirect element, labelled by its code (checkout-spec §2)', () => {
    const entry = methodEntry('boleto');
    const element = entry.create({ context, method: method('boleto'), hooks, options: {} });
    expect(element).toBeInstanceOf(RedirectElement);
    expect(entry.label(method('boleto'))).toBe('boleto');
    expect(element.payLabel).toBe('Pay with boleto');
    expect(methodEntry('genericRedirect').label(method('genericRedirect'))).toBe('Generic redirect');
    expect(methodEntry('toString')).toBe(methodEntry('boleto'));
  });

  it('the Apple-type wallet is offered only where the browser supports it', () => {
    expect(applePayMethod.isAvailable?.(window)).toBe(false);
  });

  it('passes the integrator’s validateMerchant through to the Apple-type element', async () => {
    const created: Array<{
      onvalidatemerchant: ((event: { validationURL: string }) => void) | null;
      completeMerchantValidation: (s: unknown) => void;
    }> = [];
    const completed: unknown[] = [];
    (window as unknown as { ApplePaySession: unknown }).ApplePaySession = class {
      static canMakePayments = () => true;
      onvalidatemerchant = null;
      onpaymentauthorized = null;
      oncancel = null;
      constructor() {
        created.push(this as never);
      }
      begin() {}
      abort() {}
      completeMerchantValidation(session: unknown) {
        completed.push(session);
      }
      completePayment() {}
    };
    try {
      const validateMerchant = async (input: { validationURL: string; domain: string }) => ({ from: 'merchant', ...input });
      const ctx = {
        document,
        window,
        config: {
          session: {
            links: { applePaySession: 'https://gw/v1/wallets/apple-pay/session' },
            amount: { value: 100, currency: 'USD' },
            paymentMethods: [],
          },
        },
        api: { request: async () => ({}) },
      } as unknown as CheckoutContext;
      const element = applePayMethod.create({
        context: ctx,
        method: method('applePay'),
        hooks,
        options: { applePay: { validateMerchant } },
      });
      (element as unknown as { start(): void }).start();
      created[0]!.onvalidatemerchant!({ validationURL: 'https://apple.example/start' });
      await new Promise((resolve) => setTimeout(resolve, 0));
      expect(completed).toEqual([{ from: 'merchant', validationURL: 'https://apple.example/start', domain: window.location.hostname }]);
    } finally {
      delete (window as unknown as { ApplePaySession?: unknown }).ApplePaySession;
    }
  });
});
