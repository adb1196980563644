import type { PaymentItem, StoredInstrument } from '@roots/contracts/gateway';
import { h, UIElement } from '../../ui/base-element';

const UNAVAILABLE_LABEL = 'Unavailable';

/** A stored instrument the shopper may choose: enabled and named (the others show 'Unavailable', disabled). */
export function isInstrumentUsable(instrument: Pick<StoredInstrument, 'displayName' | 'status'>): boolean {
  return instrument.status === 'enabled' && Boolean(instrument.displayName);
}

/** Label of a stored instrument: its display name, or 'Unavailable' when it cannot be used (checkout-spec §2). */
export function storedInstrumentLabel(instrument: Pick<StoredInstrument, 'displayName' | 'status'>): string {
  return isInstrumentUsable(instrument) ? instrument.displayName : UNAVAILABLE_LABEL;
}

/** A card-network badge (text, so it needs no image asset and reads well to screen readers). */
export function networkIcon(doc: Document, network: string | undefined): HTMLElement {
  return h(doc, 'span', { class: 'roots-network', 'data-network': network ?? 'card' }, (network ?? 'card').toUpperCase());
}

/** A previously saved card: pays by its instrument id, no secure fields needed. */
export class StoredInstrumentElement extends UIElement {
  constructor(
    doc: Document,
    readonly instrument: StoredInstrument,
  ) {
    super(doc);
    this.isValid = instrument.status === 'enabled';
  }

  protected render(_root: HTMLElement): void {}

  async paymentItem(): Promise<PaymentItem> {
    return { paymentMethodCode: 'card', integrationType: 'api', storeInstrument: false, paymentInstrumentId: this.instrument.id };
  }
}
