import type { BinLookupResult, CardNetwork, Country, PaymentItem } from '@roots/contracts/gateway';
import { cardLayout, DEFAULT_PLACEHOLDERS, type CardField, type CardLayoutOptions } from '../../core/config/card-layout';
import type { ElementType } from '../../core/config/collect-validation';
import { CheckoutError, type CheckoutErrorCode } from '../../core/errors/checkout-error';
import type { CollectSuccess, ElementState } from '@roots/contracts/frame-protocol';
import type { CheckoutContext } from '../../client/checkout-context';
import type { CollectContainer, CollectElement } from '../../elements/collect-container';
import { h, UIElement } from '../../ui/base-element';
import { formatMoney } from '../../ui/format-money';
import { AddressSelector } from './address-selector';
import { createBinLookup } from './bin-lookup';

const ELEMENT_TYPE_OF: Record<CardField, ElementType> = {
  card_number: 'CARD_NUMBER',
  cardholder_name: 'CARDHOLDER_NAME',
  security_code: 'CVV',
  expiry_date: 'EXPIRATION_DATE',
  expiry_month: 'EXPIRATION_MONTH',
  expiry_year: 'EXPIRATION_YEAR',
};
const LABELS: Record<CardField, string> = {
  card_number: 'Card number',
  cardholder_name: 'Cardholder name',
  security_code: 'Security code',
  expiry_date: 'Expiry date',
  expiry_month: 'Expiry month',
  expiry_year: 'Expiry year',
};

/** The product's card form does not accept Discover (product-spec §5, §8). */
export const DEFAULT_REJECTED_NETWORKS: CardNetwork[] = ['discover'];
export const DEFAULT_STORE_INSTRUMENT_LABEL = 'Save instrument for future payments';
export const INSTALLMENTS_PLACEHOLDER = 'Split payment into monthly installments';

export type InstallmentOption = { count: number; amount: { value: number; currency: string } };

/** Card form options (checkout-spec §2, §3). */
export type CardFormOptions = CardLayoutOptions & {
  placeholders?: Partial<Record<CardField, string>>;
  /** Card number grouping: 'space' (default) or 'hyphen'. */
  format?: 'space' | 'hyphen';
  /** Default true. */
  enableCardIcon?: boolean;
  /**
   * Networks the form refuses, each with '{Network} cards are not accepted.' under the card
   * number. Default `['discover']` (product-spec §5: 'Discover cards are not accepted.'); `[]` accepts all.
   */
  rejectedNetworks?: CardNetwork[];
  /** Expiry date format: MM/YY (default), YYYY/MM, YY/MM, MM/YYYY. */
  expiryFormat?: string;
  /** Expiry year format: YY (default) or YYYY. */
  yearFormat?: 'YY' | 'YYYY';
  styles?: Record<string, string>;
  showStoreInstrumentCheckbox?: boolean;
  /** Default 'Save instrument for future payments'. */
  storeInstrumentLabel?: string;
  storeInstrumentDefault?: boolean;
  /**
   * Always store the card (no checkbox choice), for subscriptions whose renewals charge it; the
   * merchant must say so next to the pay button. Default false.
   */
  alwaysStoreInstrument?: boolean;
  /** Installment options; the dropdown is hidden when empty. */
  installments?: InstallmentOption[];
  /** Show the billing address selector (country, postal code where needed). */
  showAddress?: boolean;
  enrollInstrumentToNetworkOffers?: boolean;
};

/**
 * What collecting the card form answers (checkout-spec §3 "Card collect result"): the vault's card
 * data (a token and what may be shown, never the card), the shopper's choices, and the billing
 * country as `code`, `fullName` and `iso3` with the postal code.
 */
export type CardCollectResult = {
  cardData: CollectSuccess;
  storeInstrument: boolean;
  selectedInstallment?: InstallmentOption;
  enrollInstrumentToNetworkOffers?: boolean;
  billingInfo?: { billingAddress: { country: { code: string; fullName: string; iso3: string }; postalCode?: string } };
};

export type CardFormEvents = {
  change: { valid: boolean; fields: Partial<Record<CardField, ElementState>> };
  binChanged: BinLookupResult;
  /** A secure field did not load in time (CONTAINER_MOUNT_FAILED) or the countries could not be loaded; the form offers a retry. */
  error: { code: CheckoutErrorCode; message: string };
};

/** Shown (with a 'Try again' button) when the secure fields do not load in time. */
export const CARD_FORM_LOAD_FAILED = 'The card form could not be loaded.';
/** Shown (with a 'Try again' button) when the countries asset cannot be fetched. */
export const COUNTRIES_LOAD_FAILED = 'The list of countries could not be loaded.';

/**
 * The card form: secure frames for the sensitive fields (one per field, gateway origin), plus the
 * save-instrument checkbox, installments and address selector, which hold no card data.
 */
export class CardElement extends UIElement {
  private container: CollectContainer | undefined;
  private readonly fields = new Map<CardField, CollectElement>();
  private storeCheckbox: HTMLInputElement | undefined;
  private installmentSelect: HTMLSelectElement | undefined;
  private address: AddressSelector | undefined;
  private binResult: BinLookupResult | undefined;
  /** Last known per-field state (masked). */
  readonly states: Partial<Record<CardField, ElementState>> = {};

  constructor(
    private readonly context: CheckoutContext,
    readonly options: CardFormOptions = {},
    private readonly emit: <Name extends keyof CardFormEvents>(name: Name, payload: CardFormEvents[Name]) => void = () => {},
  ) {
    super(context.document);
    cardLayout(options); // fail fast on a bad layout
  }

  protected render(root: HTMLElement): void {
    const doc = this.doc;
    const options = this.options;
    root.className = 'roots-card';
    this.container = this.context.container('COLLECT');
    const container = this.container;
    container.on('error', (error) => {
      this.emit('error', { code: error.code, message: error.message });
      if (error.code !== 'CONTAINER_MOUNT_FAILED' || root.querySelector('[data-testid="roots-card-retry"]')) return;
      const retry = retryNotice(doc, CARD_FORM_LOAD_FAILED, 'roots-card-retry', () => container.retry());
      root.prepend(retry);
    });
    const binLookup = createBinLookup(
      (bin) => this.context.api.binLookup(this.context.config.session.links.binLookup, bin),
      (result) => {
        this.binResult = result;
        this.emit('binChanged', result);
      },
      undefined,
      (error) => this.context.logger.warn(error.message, error),
    );
    for (const row of cardLayout(options)) {
      const rowElement = h(doc, 'div', { class: 'roots-row' });
      root.append(rowElement);
      for (const field of row) {
        const format =
          field === 'card_number'
            ? options.format === 'hyphen'
              ? 'XXXX-XXXX-XXXX-XXXX'
              : undefined
            : field === 'expiry_date'
              ? options.expiryFormat
              : field === 'expiry_year'
                ? options.yearFormat
                : undefined;
        const element = this.container.create({
          type: ELEMENT_TYPE_OF[field],
          name: field,
          label: LABELS[field],
          placeholder:
            options.placeholders?.[field] ??
            (field === 'card_number' && options.format === 'hyphen'
              ? '1234-1234-1234-1234'
              : field === 'expiry_year' && options.yearFormat === 'YYYY'
                ? 'YYYY'
                : DEFAULT_PLACEHOLDERS[field]),
          ...(format ? { format } : {}),
          ...(field === 'card_number'
            ? { enableCardIcon: options.enableCardIcon ?? true, rejectedNetworks: options.rejectedNetworks ?? DEFAULT_REJECTED_NETWORKS }
            : {}),
          ...(options.styles ? { styles: options.styles } : {}),
        });
        const cell = h(doc, 'div', { class: 'roots-cell' });
        rowElement.append(cell);
        element.mount(cell);
        this.fields.set(field, element);
        const update = (state: ElementState) => {
          this.states[field] = state;
          if (field === 'card_number') binLookup(state.value);
          this.refresh();
        };
        element.on('CHANGE', update);
        element.on('READY', update);
        element.on('BLUR', update);
      }
    }
    if (options.showStoreInstrumentCheckbox) {
      this.storeCheckbox = h(doc, 'input', {
        type: 'checkbox',
        id: 'roots-store-instrument',
        name: 'storeInstrument',
        checked: options.storeInstrumentDefault ?? false,
      });
      root.append(
        h(
          doc,
          'label',
          { class: 'roots-check', for: 'roots-store-instrument' },
          this.storeCheckbox,
          options.storeInstrumentLabel ?? DEFAULT_STORE_INSTRUMENT_LABEL,
        ),
      );
    }
    const installments = options.installments ?? [];
    if (installments.length > 0) {
      this.installmentSelect = h(
        doc,
        'select',
        { id: 'roots-installments', name: 'installments', 'aria-label': INSTALLMENTS_PLACEHOLDER },
        h(doc, 'option', { value: '' }, INSTALLMENTS_PLACEHOLDER),
      );
      for (const option of installments)
        this.installmentSelect.append(h(doc, 'option', { value: String(option.count) }, `${option.count} x ${formatMoney(option.amount)}`));
      root.append(h(doc, 'div', { class: 'roots-field' }, this.installmentSelect));
    }
    if (options.showAddress) {
      const slot = h(doc, 'div', { class: 'roots-address-slot' });
      root.append(slot);
      this.loadCountries(slot);
    }
  }

  /** The countries asset; a failed fetch shows a retry instead of leaving the form invalid for good. */
  private loadCountries(slot: HTMLElement): void {
    void this.context.api.countries(this.context.config.session.links.countries).then(
      (countries: Map<string, Country>) => {
        if (!this.root) return;
        this.address = new AddressSelector(this.doc, countries, () => this.refresh());
        slot.replaceChildren(this.address.root);
        this.refresh();
      },
      (error: unknown) => {
        this.context.logger.error('countries could not be loaded', error);
        const code = error instanceof CheckoutError ? error.code : 'UNKNOWN_ERROR';
        this.emit('error', { code, message: COUNTRIES_LOAD_FAILED });
        slot.replaceChildren(retryNotice(this.doc, COUNTRIES_LOAD_FAILED, 'roots-countries-retry', () => this.loadCountries(slot)));
      },
    );
  }

  protected override destroy(): void {
    this.container?.destroy();
    this.fields.clear();
  }

  /** The card form is valid if all fields are non-empty and valid, and the address is valid when present (checkout-spec §5). */
  private refresh(): void {
    const framesValid = [...this.fields.keys()].every((field) => {
      const state = this.states[field];
      return state !== undefined && !state.isEmpty && state.isValid;
    });
    const addressValid = this.options.showAddress ? (this.address?.isValid() ?? false) : true;
    const valid = framesValid && addressValid;
    this.setValid(valid);
    this.emit('change', { valid, fields: { ...this.states } });
  }

  /** Shows every field's error inside its frame. */
  override async validate(): Promise<boolean> {
    if (!this.container) throw new CheckoutError('CARD_FORM_COLLECT_ELEMENT_NOT_MOUNTED');
    await this.container.validate();
    return this.isValid;
  }

  get storeInstrument(): boolean {
    return this.options.alwaysStoreInstrument === true || (this.storeCheckbox?.checked ?? false);
  }

  get bin(): BinLookupResult | undefined {
    return this.binResult;
  }

  /**
   * Collects the card into the vault (inside the frames) and answers the collect result of
   * checkout-spec §3; the billing country carries `code`, `fullName` and `iso3`.
   * @example const { cardData, billingInfo } = await card.collect(); // billingInfo.billingAddress.country.iso3 === 'GBR'
   */
  async collect(): Promise<CardCollectResult> {
    if (!this.container) throw new CheckoutError('CARD_FORM_COLLECT_ELEMENT_NOT_MOUNTED');
    const { token, network, bin, last4, expiresAt } = await this.container.collect();
    if (!token || network === undefined || bin === undefined || last4 === undefined || expiresAt === undefined)
      throw new CheckoutError('COLLECT_OPERATION_FAILED', 'the vault answered no card token');
    const installmentCount = Number(this.installmentSelect?.value ?? '');
    const selectedInstallment = (this.options.installments ?? []).find((option) => option.count === installmentCount);
    const country = this.address?.country;
    const postalCode = this.address?.postalCode;
    return {
      cardData: { token, network, bin, last4, expiresAt },
      storeInstrument: this.storeInstrument,
      ...(selectedInstallment ? { selectedInstallment } : {}),
      ...(this.options.enrollInstrumentToNetworkOffers !== undefined
        ? { enrollInstrumentToNetworkOffers: this.options.enrollInstrumentToNetworkOffers }
        : {}),
      ...(country
        ? {
            billingInfo: {
              billingAddress: {
                country: { code: country.code, fullName: country.name, iso3: country.iso3 },
                ...(postalCode ? { postalCode } : {}),
              },
            },
          }
        : {}),
    };
  }

  /** Collects the card into the vault, saves the instrument, and builds the card payment item. */
  async paymentItem(): Promise<PaymentItem> {
    const { session } = this.context.config;
    const collected = await this.collect();
    const instrument = await this.context.api.saveInstrument(session.links.saveInstrument, {
      holderReference: session.holderReference,
      paymentMethod: 'card',
      storeInstrument: collected.storeInstrument,
      futureUsage: 'CardOnFile',
      data: { encryptedData: collected.cardData.token, vaultProviderConfigId: session.vaultProviderConfigId },
    });
    const billingAddress = collected.billingInfo?.billingAddress;
    return {
      paymentMethodCode: 'card',
      integrationType: 'api',
      storeInstrument: collected.storeInstrument,
      paymentInstrumentId: instrument.id,
      ...(collected.selectedInstallment ? { installments: { count: collected.selectedInstallment.count } } : {}),
      ...(billingAddress
        ? {
            paymentInstrumentData: {
              billingAddress: {
                country: { code: billingAddress.country.code, name: billingAddress.country.fullName },
                ...(billingAddress.postalCode ? { postalCode: billingAddress.postalCode } : {}),
              },
            },
          }
        : {}),
      ...(collected.enrollInstrumentToNetworkOffers !== undefined
        ? { enrollInstrumentToNetworkOffers: collected.enrollInstrumentToNetworkOffers }
        : {}),
    };
  }
}

/** An alert with a 'Try again' button that removes itself and runs `retry`. */
function retryNotice(doc: Document, text: string, testId: string, retry: () => void): HTMLElement {
  const button = h(doc, 'button', { type: 'button', class: 'roots-retry' }, 'Try again');
  const notice = h(doc, 'div', { class: 'roots-notice', role: 'alert', 'data-testid': testId }, h(doc, 'p', {}, text), button);
  button.addEventListener('click', () => {
    notice.remove();
    retry();
  });
  return notice;
}
