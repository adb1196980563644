import type { MethodEntry } from '../method-entry';
import { PayPalElement } from './paypal-element';

/** The PayPal button (one-time order or billing agreement). */
export const payPalMethod: MethodEntry = {
  label: () => 'PayPal',
  wallet: true,
  create: ({ context, hooks, options }) =>
    new PayPalElement(
      context,
      {
        authorize: (item) => hooks.authorize(item),
        loading: () => hooks.loading(),
        complete: (execution, item) => hooks.complete(execution, item),
        finish: (outcome) => hooks.finish(outcome),
        sessionExpired: () => hooks.sessionExpired(),
      },
      options.payPal ?? {},
    ),
};
