import type { MethodEntry } from '../method-entry';
import { GooglePayElement } from './google-pay-element';

/** The Google-type wallet button. */
export const googlePayMethod: MethodEntry = {
  label: () => 'Google Pay',
  wallet: true,
  create: ({ context, hooks }) =>
    new GooglePayElement(
      context,
      (item) => hooks.pay(item),
      (error) => hooks.fail(error),
    ),
};
