import type { EnabledPaymentMethod, PaymentItem } from '@roots/contracts/gateway';
import { UIElement } from '../../ui/base-element';

export const GENERIC_REDIRECT_DEFAULT_LABEL = 'Generic redirect';

/**
 * Label of a redirect method (checkout-spec §2): the generic redirect uses the provider's name
 * (default 'Generic redirect'); others their label, else their method code.
 */
export function redirectLabel(method: Pick<EnabledPaymentMethod, 'code' | 'label'>): string {
  if (method.code === 'genericRedirect') return method.label ?? GENERIC_REDIRECT_DEFAULT_LABEL;
  return method.label ?? method.code;
}

/** Hosted-page methods (generic redirect, pix and any unknown code): pay, then redirect or popup. */
export class RedirectElement extends UIElement {
  constructor(
    doc: Document,
    readonly method: EnabledPaymentMethod,
  ) {
    super(doc);
    this.isValid = true;
  }

  get label(): string {
    return redirectLabel(this.method);
  }

  override get payLabel(): string {
    return `Pay with ${this.label}`;
  }

  protected render(_root: HTMLElement): void {}

  async paymentItem(): Promise<PaymentItem> {
    return { paymentMethodCode: this.method.code, integrationType: this.method.integrationType, storeInstrument: false };
  }
}
