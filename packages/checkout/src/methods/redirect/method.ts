import type { MethodEntry } from '../method-entry';
import { RedirectElement, redirectLabel } from './redirect-element';

/** Hosted-page methods: the generic redirect, pix, and every code the registry does not know. */
export const redirectMethod: MethodEntry = {
  label: (method) => redirectLabel(method),
  wallet: false,
  create: ({ context, method }) => new RedirectElement(context.document, method),
};
