import { applePayMethod } from './apple-pay/method';
import { cardMethod } from './card/method';
import { googlePayMethod } from './google-pay/method';
import type { MethodEntry } from './method-entry';
import { payPalMethod } from './paypal/method';
import { redirectMethod } from './redirect/method';

/** Payment method code → its entry (checkout-spec §3 codes). Every drop-in method is created here. */
export const METHOD_REGISTRY: Readonly<Record<string, MethodEntry>> = {
  card: cardMethod,
  applePay: applePayMethod,
  googlePay: googlePayMethod,
  payPal: payPalMethod,
};

/** The entry of a method code: a registered one, else the redirect element (hosted-page methods and unknown codes). */
export function methodEntry(code: string): MethodEntry {
  return Object.hasOwn(METHOD_REGISTRY, code) ? METHOD_REGISTRY[code]! : redirectMethod;
}
