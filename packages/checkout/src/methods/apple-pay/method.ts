import type { MethodEntry } from '../method-entry';
import { ApplePayElement } from './apple-pay-element';

/** The Apple-type wallet button: listed only where the browser supports it; merchant validation may go through the integrator. */
export const applePayMethod: MethodEntry = {
  label: () => 'Apple Pay',
  wallet: true,
  isAvailable: (win) => ApplePayElement.isAvailable(win),
  create: ({ context, hooks, options }) =>
    new ApplePayElement(
      context,
      (item, details) => hooks.pay(item, details),
      (error) => hooks.fail(error),
      options.applePay,
    ),
};
