// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Country } from '@roots/contracts/gateway';
import type { CheckoutContext } from '../../client/checkout-context';
import { CheckoutError } from '../../core/errors/checkout-error';
import { CollectContainer } from '../../elements/collect-container';
import { CARD_FORM_LOAD_FAILED, CardElement, COUNTRIES_LOAD_FAILED } from './card-element';

const gb: Country = {
  code: 'GB',
  name: 'United Kingdom',
  iso3: 'GBR',
  timezones: [],
  showPostalCode: true,
  postalCodeRegex: '^(?:[A-Z0-9]{5,7})$',
};
const flush = () => new Promise((resolve) => setTimeout(resolve, 0));

function context(countries: () => Promise<Map<string, Country>>, readyTimeoutMs = 60_000): CheckoutContext {
  const logger = { debug: vi.fn(), info: vi.fn(), warn: vi.fn(), error: vi.fn() };
  return {
    window,
    document,
    logger,
    config: { session: { links: { countries: 'https://gw/assets/countries.json', binLookup: 'https://gw/v1/bin-lookup' } } },
    api: { countries: vi.fn(countries), binLookup: vi.fn() },
    container: () =>
      new CollectContainer({
        gatewayOrigin: 'https://gw.example',
        elementsURL: 'https://gw.example/secure-fields/v1',
        tokenizeURL: 'https://gw.example/vault/v1/tokens',
        recordsURL: 'https://gw.example/vault/v1/records',
        getBearerToken: async () => 't',
        env: 'SANDBOX',
        warn: () => {},
        window,
        readyTimeoutMs,
      }),
  } as unknown as CheckoutContext;
}

afterEach(() => document.body.replaceChildren());

describe('card element', () => {
  it('mounts one secure frame per field of the default layout', () => {
    new CardElement(context(async () => new Map())).mount(document.body);
    expect([...document.querySelectorAll('iframe')].map((frame) => frame.dataset.rootsField)).toEqual([
      'card-number',
      'expiry-date',
      'cvv',
    ]);
  });

  it('a failed countries fetch offers a retry instead of a form invalid for good', async () => {
    let calls = 0;
    const ctx = context(async () => {
      calls += 1;
      if (calls === 1) throw new CheckoutError('NETWORK_ERROR');
      return new Map([['GB', gb]]);
    });
    const errors: string[] = [];
    new CardElement(
      ctx,
      { showAddress: true },
      (name, payload) => name === 'error' && errors.push((payload as { message: string }).message),
    ).mount(document.body);
    await flush();
    const retry = document.querySelector<HTMLElement>('[data-testid="roots-countries-retry"]');
    expect(retry?.textContent).toContain(COUNTRIES_LOAD_FAILED);
    expect(errors).toEqual([COUNTRIES_LOAD_FAILED]);
    retry!.querySelector('button')!.click();
    await flush();
    expect(document.querySelector('[data-testid="roots-countries-retry"]')).toBeNull();
    expect(document.querySelector<HTMLSelectElement>('#roots-country')?.options).toHaveLength(2);
  });

  it('frames that do not load in time show a retry that reloads them', async () => {
    const element = new CardElement(context(async () => new Map(), 10));
    element.mount(document.body);
    await new Promise((resolve) => setTimeout(resolve, 40));
    const notice = document.querySelector<HTMLElement>('[data-testid="roots-card-retry"]');
    expect(notice?.textContent).toContain(CARD_FORM_LOAD_FAILED);
    notice!.querySelector('button')!.click();
    expect(document.querySelector('[data-testid="roots-card-retry"]')).toBeNull();
    await expect(element.validate()).rejects.toMatchObject({ code: 'CONTAINER_MOUNT_FAILED' });
  });
});
