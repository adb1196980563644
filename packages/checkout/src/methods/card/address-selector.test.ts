// @vitest-environment jsdom
import { describe, expect, it, vi } from 'vitest';
import type { Country } from '@roots/contracts/gateway';
import { AddressSelector, isAddressValid, isPostalCodeValid, SELECTED_COUNTRY_KEY } from './address-selector';

const us: Country = {
  code: 'US',
  name: 'United States',
  iso3: 'USA',
  timezones: [],
  showPostalCode: true,
  // As the gateway's countries asset has it: applied after removing spaces and hyphens.
  postalCodeRegex: '^(?:[0-9]{5}([0-9]{4})?)$',
};
const ie: Country = { code: 'IE', name: 'Ireland', iso3: 'IRL', timezones: [], showPostalCode: false };
const gb: Country = { code: 'GB', name: 'United Kingdom', iso3: 'GBR', timezones: [], showPostalCode: true };

describe('address validation (checkout-spec §5)', () => {
  it('postal code: non-empty and matching the regex when there is one', () => {
    expect(isPostalCodeValid('94107', us)).toBe(true);
    expect(isPostalCodeValid('9410', us)).toBe(false);
    expect(isPostalCodeValid(' ', gb)).toBe(false);
    expect(isPostalCodeValid('SW1A 1AA', gb)).toBe(true);
    expect(isPostalCodeValid('94107-1234', us)).toBe(true);
  });
  it('postal code: spaces and hyphens people type are removed before the asset regex', () => {
    const digitsOnly = { postalCodeRegex: '^(?:[0-9]{5}([0-9]{4})?)$' };
    expect(isPostalCodeValid('12345-6789', digitsOnly)).toBe(true);
    expect(isPostalCodeValid(' 12345 6789 ', digitsOnly)).toBe(true);
    expect(isPostalCodeValid('12345-678', digitsOnly)).toBe(false);
    const brazil = { postalCodeRegex: '^(?:[0-9]{8})$' };
    expect(isPostalCodeValid('01310-100', brazil)).toBe(true);
  });
  it('address: a country, and a valid postal code where the country shows one', () => {
    expect(isAddressValid(undefined, '')).toBe(false);
    expect(isAddressValid(ie, '')).toBe(true);
    expect(isAddressValid(us, '')).toBe(false);
    expect(isAddressValid(us, '94107')).toBe(true);
  });
});

describe('AddressSelector', () => {
  it('shows the postal code only where needed and remembers the country for the session', () => {
    sessionStorage.clear();
    const onChange = vi.fn();
    const selector = new AddressSelector(
      document,
      new Map([
        ['US', us],
        ['IE', ie],
      ]),
      onChange,
    );
    document.body.replaceChildren(selector.root);
    const select = document.querySelector<HTMLSelectElement>('#roots-country')!;
    expect(select.options[0]!.textContent).toBe('Select Country');
    expect(document.querySelector('label[for=roots-country]')!.textContent).toBe('Country');
    const postalField = document.querySelector<HTMLInputElement>('#roots-postal')!.parentElement!;
    expect(postalField.hidden).toBe(true);
    select.value = 'US';
    select.dispatchEvent(new Event('change'));
    expect(postalField.hidden).toBe(false);
    expect(document.querySelector<HTMLInputElement>('#roots-postal')!.placeholder).toBe('Postal Code');
    expect(selector.isValid()).toBe(false);
    expect(sessionStorage.getItem(SELECTED_COUNTRY_KEY)).toBe('US');
    select.value = 'IE';
    select.dispatchEvent(new Event('change'));
    expect(postalField.hidden).toBe(true);
    expect(selector.isValid()).toBe(true);
    expect(onChange).toHaveBeenCalled();
    const again = new AddressSelector(
      document,
      new Map([
        ['US', us],
        ['IE', ie],
      ]),
      vi.fn(),
    );
    expect(again.country?.code).toBe('IE');
  });
});
