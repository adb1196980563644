import type { Country } from '@roots/contracts/gateway';
import { isPostalCodeValid } from '@roots/contracts/postal-code';
import { h } from '../../ui/base-element';

/** Postal code rule of checkout-spec §5, normalised as the countries asset documents (spaces and hyphens removed). */
export { isPostalCodeValid };

export const SELECTED_COUNTRY_KEY = 'roots-checkout:country';

/** The address is valid if a country is chosen and, where the country shows one, the postal code is valid. */
export function isAddressValid(country: Country | undefined, postalCode: string): boolean {
  if (!country) return false;
  return !country.showPostalCode || isPostalCodeValid(postalCode, country);
}

/** Country select and postal code input (shown only for countries that need one). */
export class AddressSelector {
  readonly root: HTMLElement;
  country: Country | undefined;
  private readonly select: HTMLSelectElement;
  private readonly postal: HTMLInputElement;
  private readonly postalField: HTMLElement;

  constructor(
    private readonly doc: Document,
    private readonly countries: Map<string, Country>,
    private readonly onChange: () => void,
  ) {
    this.select = h(
      doc,
      'select',
      { id: 'roots-country', name: 'country', autocomplete: 'country' },
      h(doc, 'option', { value: '' }, 'Select Country'),
    );
    for (const country of [...countries.values()].sort((a, b) => a.name.localeCompare(b.name)))
      this.select.append(h(doc, 'option', { value: country.code }, country.name));
    this.postal = h(doc, 'input', { id: 'roots-postal', name: 'postalCode', placeholder: 'Postal Code', autocomplete: 'postal-code' });
    this.postalField = h(
      doc,
      'div',
      { class: 'roots-field', hidden: true },
      h(doc, 'label', { for: 'roots-postal' }, 'Postal Code'),
      this.postal,
    );
    this.root = h(
      doc,
      'div',
      { class: 'roots-row roots-address' },
      h(doc, 'div', { class: 'roots-field' }, h(doc, 'label', { for: 'roots-country' }, 'Country'), this.select),
      this.postalField,
    );
    this.select.addEventListener('change', () => this.choose(this.select.value));
    this.postal.addEventListener('input', () => this.onChange());
    const saved = this.storage()?.getItem(SELECTED_COUNTRY_KEY);
    if (saved && countries.has(saved)) {
      this.select.value = saved;
      this.choose(saved);
    }
  }

  get postalCode(): string {
    return this.country?.showPostalCode ? this.postal.value.trim() : '';
  }

  isValid(): boolean {
    return isAddressValid(this.country, this.postal.value);
  }

  private choose(code: string): void {
    this.country = this.countries.get(code);
    this.postalField.hidden = !this.country?.showPostalCode;
    if (code) this.storage()?.setItem(SELECTED_COUNTRY_KEY, code);
    this.onChange();
  }

  private storage(): Storage | undefined {
    try {
      return this.doc.defaultView?.sessionStorage;
    } catch {
      return undefined;
    }
  }
}
