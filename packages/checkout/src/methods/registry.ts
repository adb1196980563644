import type { PAYMENT_METHOD_CODES, PaymentMethodCode } from '@roots/contracts/gateway';
import { applePayMethod } from './apple-pay/method';
import { cardMethod } from './card/method';
import { googlePayMethod } from './google-pay/method';
import type { MethodEntry } from './method-entry';
import { payPalMethod } from './paypal/method';
import { redirectMethod } from './redirect/method';

/**
 * Payment method code → its entry, keyed by the contracts' method codes (checkout-spec §3). Every
 * drop-in method is created here; the hosted-page codes (genericRedirect, pix, unknown ones) use the
 * redirect element.
 */
export const METHOD_REGISTRY: Readonly<Partial<Record<(typeof PAYMENT_METHOD_CODES)[number], MethodEntry>>> = {
  card: cardMethod,
  applePay: applePayMethod,
  googlePay: googlePayMethod,
  payPal: payPalMethod,
};

/** The entry of a method code: a registered one, else the redirect element (hosted-page methods and unknown codes). */
export function methodEntry(code: PaymentMethodCode): MethodEntry {
  return (Object.hasOwn(METHOD_REGISTRY, code) && METHOD_REGISTRY[code as keyof typeof METHOD_REGISTRY]) || redirectMethod;
}
