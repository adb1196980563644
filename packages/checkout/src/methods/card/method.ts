import type { MethodEntry } from '../method-entry';
import { CardElement } from './card-element';

/** The card form (secure fields, save checkbox, installments, address). */
export const cardMethod: MethodEntry = {
  label: () => 'Card',
  wallet: false,
  create: ({ context, hooks, options }) => new CardElement(context, options.card ?? {}, (name, payload) => hooks.emit(name, payload)),
};
