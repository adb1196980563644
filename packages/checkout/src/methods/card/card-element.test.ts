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
    vi.useFakeTimers();
    const element = new CardElement(context(async () => new Map(), 10));
    element.mount(document.body);
    // The retry shows when the frames' time is up (10 ms here), not before.
    await vi.advanceTimersByTimeAsync(9);
    expect(document.querySelector('[data-testid="roots-card-retry"]')).toBeNull();
    await vi.advanceTimersByTimeAsync(1);
    vi.useRealTimers();
    const notice = document.querySelector<HTMLElement>('[data-testid="roots-card-retry"]');
    expect(notice?.textContent).toContain(CARD_FORM_LOAD_FAILED);
    notice!.querySelector('button')!.click();
    expect(document.querySelector('[data-testid="roots-card-retry"]')).toBeNull();
    await expect(element.validate()).rejects.toMatchObject({ code: 'CONTAINER_MOUNT_FAILED' });
  });
});

describe('card collect result (checkout-spec §3)', () => {
  const card = { token: 'tok_1', network: 'visa', bin: '42424242', last4: '4242', expiresAt: '2030-01-01T00:00:00.000Z' };

  function collectingForm(options: ConstructorParameters<typeof CardElement>[1]) {
    const ctx = context(async () => new Map([['GB', gb]]));
    let container: CollectContainer | undefined;
    const create = ctx.container;
    (ctx as { container: typeof create }).container = (...args) => (container = create(...args));
    const element = new CardElement(ctx, options);
    element.mount(document.body);
    const collect = vi.spyOn(container!, 'collect').mockResolvedValue({ ...card, records: [] });
    return { element, collect };
  }

  it('carries the card data, the choices, and the billing country as code, fullName and iso3 with the postal code', async () => {
    const { element, collect } = collectingForm({
      showAddress: true,
      showStoreInstrumentCheckbox: true,
      enrollInstrumentToNetworkOffers: true,
      installments: [
        { count: 3, amount: { value: 833, currency: 'USD' } },
        { count: 6, amount: { value: 417, currency: 'USD' } },
      ],
    });
    await flush();
    const country = document.querySelector<HTMLSelectElement>('#roots-country')!;
    country.value = 'GB';
    country.dispatchEvent(new Event('change'));
    document.querySelector<HTMLInputElement>('#roots-postal')!.value = 'SW1A1AA';
    document.querySelector<HTMLSelectElement>('#roots-installments')!.value = '6';
    await expect(element.collect()).resolves.toEqual({
      cardData: card,
      storeInstrument: false,
      selectedInstallment: { count: 6, amount: { value: 417, currency: 'USD' } },
      enrollInstrumentToNetworkOffers: true,
      billingInfo: { billingAddress: { country: { code: 'GB', fullName: 'United Kingdom', iso3: 'GBR' }, postalCode: 'SW1A1AA' } },
    });
    expect(collect).toHaveBeenCalledTimes(1);
  });

  it("shows installments as 'count x amount' under the spec's placeholder, and no dropdown without options", async () => {
    collectingForm({
      installments: [
        { count: 3, amount: { value: 833, currency: 'USD' } },
        { count: 6, amount: { value: 417, currency: 'USD' } },
      ],
    });
    const select = document.querySelector<HTMLSelectElement>('#roots-installments')!;
    expect([...select.options].map((option) => option.textContent)).toEqual([
      'Split payment into monthly installments',
      '3 x $8.33',
      '6 x $4.17',
    ]);
    document.body.replaceChildren();
    collectingForm({ installments: [] });
    expect(document.querySelector('#roots-installments')).toBeNull();
  });

  it('without an address selector there is no billing info', async () => {
    const { element } = collectingForm({});
    const result = await element.collect();
    expect(result).toEqual({ cardData: card, storeInstrument: false });
  });
});
