// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { CheckoutContext } from '../../client/checkout-context';
import { CheckoutError as CheckoutErrorClass, type CheckoutError } from '../../core/errors/checkout-error';
import { APPLE_PAY_SESSION_VERSION, ApplePayElement, billingAddressFromContact, walletBillingAddress } from './apple-pay-element';

type Handlers = Record<string, ((event?: unknown) => void) | null>;
const created: Array<{ version: number; request: Record<string, unknown>; session: Handlers & Record<string, ReturnType<typeof vi.fn>> }> =
  [];
class FakeApplePaySession {
  static STATUS_SUCCESS = 0;
  static STATUS_FAILURE = 1;
  static canMakePayments = () => true;
  onvalidatemerchant = null;
  onpaymentauthorized = null;
  oncancel = null;
  begin = vi.fn();
  abort = vi.fn();
  completeMerchantValidation = vi.fn();
  completePayment = vi.fn();
  constructor(version: number, request: Record<string, unknown>) {
    created.push({ version, request, session: this as never });
  }
}

function context(requestImpl: (url: string, init: { body: unknown }) => Promise<unknown>): CheckoutContext {
  const links = { applePaySession: 'https://gw/v1/wallets/apple-pay/session' };
  return {
    window,
    document,
    config: { session: { links, amount: { value: 2499, currency: 'USD' }, paymentMethods: [] } },
    api: { request: vi.fn(requestImpl) },
  } as unknown as CheckoutContext;
}
const flush = () => new Promise((resolve) => setTimeout(resolve, 0));

afterEach(() => {
  delete (window as unknown as { ApplePaySession?: unknown }).ApplePaySession;
  created.length = 0;
});

describe('Apple-type wallet', () => {
  it("throws 'Apple Pay is not available' where unsupported", () => {
    const element = new ApplePayElement(
      context(async () => ({})),
      vi.fn(),
      vi.fn(),
    );
    expect(ApplePayElement.isAvailable(window)).toBe(false);
    expect(() => element.mount(document.body)).toThrow('Apple Pay is not available');
  });

  it('session version 3, merchant validation through the backend, pay on authorization, complete with the outcome', async () => {
    (window as unknown as { ApplePaySession: unknown }).ApplePaySession = FakeApplePaySession;
    const requests: string[] = [];
    const ctx = context(async (url) => {
      requests.push(url);
      if (url.endsWith('/session'))
        return {
          version: 3,
          paymentRequest: { countryCode: 'US', currencyCode: 'USD', total: { label: '', amount: '24.99', type: 'final' } },
        };
      return { data: { merchantSessionIdentifier: 'm1' } };
    });
    const pay = vi.fn(async () => ({ kind: 'success' as const, execution: {} as never }));
    const element = new ApplePayElement(ctx, pay, vi.fn());
    document.body.replaceChildren();
    element.mount(document.body);
    document.querySelector<HTMLButtonElement>('.roots-apple-pay')!.click();
    await flush();
    const [{ version, request, session }] = created as [(typeof created)[number]];
    expect(version).toBe(APPLE_PAY_SESSION_VERSION);
    expect(request.recurringPaymentRequest).toMatchObject({
      regularBilling: { recurringPaymentIntervalUnit: 'day', recurringPaymentIntervalCount: 7 },
    });
    expect(session.begin).toHaveBeenCalled();
    session.onvalidatemerchant!({ validationURL: 'https://apple-pay-gateway.apple.com/paymentservices/startSession' });
    await flush();
    expect(requests[1]).toBe('https://gw/v1/wallets/apple-pay/merchant-validation');
    expect(session.completeMerchantValidation).toHaveBeenCalledWith({ merchantSessionIdentifier: 'm1' });
    session.onpaymentauthorized!({ payment: { token: { paymentData: 'x' }, billingContact: { countryCode: 'US', postalCode: '94107' } } });
    await flush();
    expect(pay).toHaveBeenCalledWith(
      expect.objectContaining({
        paymentMethodCode: 'applePay',
        paymentInstrumentData: {
          paymentToken: { paymentData: 'x' },
          billingAddress: { country: { code: 'US' }, postalCode: '94107', zip: '94107' },
        },
      }),
      expect.objectContaining({ code: 'applePay', token: { paymentData: 'x' } }),
    );
    // Not asked to keep the card: a one-off wallet payment.
    expect((pay.mock.calls[0] as unknown[])[0]).toMatchObject({ storeInstrument: false });
    expect(session.completePayment).toHaveBeenCalledWith(FakeApplePaySession.STATUS_SUCCESS);
  });

  it('storeInstrument keeps the wallet card; the billing contact is mapped to the address fields and the name', async () => {
    (window as unknown as { ApplePaySession: unknown }).ApplePaySession = FakeApplePaySession;
    const ctx = context(async (url) => (url.endsWith('/session') ? { version: 3, paymentRequest: {} } : { data: {} }));
    const pay = vi.fn(async () => ({ kind: 'success' as const, execution: {} as never }));
    const element = new ApplePayElement(ctx, pay, vi.fn(), { storeInstrument: true });
    document.body.replaceChildren();
    element.mount(document.body);
    document.querySelector<HTMLButtonElement>('.roots-apple-pay')!.click();
    await flush();
    const token = { paymentData: { version: 'EC_v1' }, paymentMethod: { displayName: 'Visa 0224' }, transactionIdentifier: 'T1' };
    created[0]!.session.onpaymentauthorized!({
      payment: {
        token,
        billingContact: {
          givenName: 'Ada',
          familyName: 'Lovelace',
          countryCode: 'gb',
          administrativeArea: 'London',
          locality: 'London',
          postalCode: 'W1 1AA',
          addressLines: ['12 St James Square', 'Flat 2'],
          phoneNumber: '+44 20 7946 0000',
        },
      },
    });
    await flush();
    expect(pay).toHaveBeenCalledWith(expect.objectContaining({ paymentMethodCode: 'applePay', storeInstrument: true }), {
      code: 'applePay',
      token,
      displayName: 'Ada Lovelace',
      address: {
        first_name: 'Ada',
        last_name: 'Lovelace',
        country: 'gb',
        state: 'London',
        zip: 'W1 1AA',
        city: 'London',
        address: '12 St James Square',
        address2: 'Flat 2',
        phone: '+44 20 7946 0000',
      },
    });
  });

  it("aborts on a failed merchant validation; cancel reports 'Something went wrong'", async () => {
    (window as unknown as { ApplePaySession: unknown }).ApplePaySession = FakeApplePaySession;
    const onError = vi.fn();
    const ctx = context(async (url) => {
      if (url.endsWith('/session')) return { version: 3, paymentRequest: {} };
      throw new Error('no');
    });
    const element = new ApplePayElement(ctx, vi.fn(), onError);
    element.start();
    const { session } = created[0]!;
    session.onvalidatemerchant!({ validationURL: 'https://apple/x' });
    await flush();
    expect(session.abort).toHaveBeenCalled();
    expect((onError.mock.calls[0]![0] as CheckoutError).code).toBe('CALLBACK_FAILED');

    const cancelled = vi.fn();
    new ApplePayElement(ctx, vi.fn(), cancelled).start();
    created[1]!.session.oncancel!();
    expect((cancelled.mock.calls.at(-1)![0] as CheckoutError).message).toBe('Something went wrong');
  });

  it('creates and begins the session inside the click, before the gateway session call answers', () => {
    (window as unknown as { ApplePaySession: unknown }).ApplePaySession = FakeApplePaySession;
    const order: string[] = [];
    const ctx = context((url) => {
      order.push(`request ${url.split('/').at(-1)}`);
      return new Promise(() => {});
    });
    const element = new ApplePayElement(ctx, vi.fn(), vi.fn());
    document.body.replaceChildren();
    element.mount(document.body);
    document.querySelector<HTMLButtonElement>('.roots-apple-pay')!.click();
    // Nothing awaited: the session exists and has begun when the click handler returns.
    expect(created).toHaveLength(1);
    const { session, request } = created[0]!;
    expect(session.begin).toHaveBeenCalledTimes(1);
    expect(order).toEqual(['request session']);
    expect(request).toMatchObject({ currencyCode: 'USD', total: { label: '', amount: '24.99', type: 'final' } });
  });

  it('a failed session call aborts the sheet and reports the failure', async () => {
    (window as unknown as { ApplePaySession: unknown }).ApplePaySession = FakeApplePaySession;
    const onError = vi.fn();
    const ctx = context(async () => {
      throw new CheckoutErrorClass('UNSUCCESSFUL_REQUEST', 'Request failed with status code 500', { status: 500 });
    });
    new ApplePayElement(ctx, vi.fn(), onError).start();
    await flush();
    expect(created[0]!.session.abort).toHaveBeenCalledTimes(1);
    expect(onError).toHaveBeenCalledTimes(1);
    expect((onError.mock.calls[0]![0] as CheckoutError).code).toBe('UNSUCCESSFUL_REQUEST');
  });

  it('sends the billing contact mapped to the address fields', () => {
    expect(
      walletBillingAddress({ givenName: 'Ada', familyName: 'Lovelace', countryCode: 'gb', postalCode: 'SW1A 1AA', locality: 'London' }),
    ).toEqual({
      country: { code: 'GB' },
      postalCode: 'SW1A 1AA',
      first_name: 'Ada',
      last_name: 'Lovelace',
      zip: 'SW1A 1AA',
      city: 'London',
    });
  });

  it('maps the billing contact', () => {
    expect(
      billingAddressFromContact({
        givenName: 'Ada',
        familyName: 'L',
        countryCode: 'GB',
        addressLines: ['1 St', 'Flat 2'],
        phoneNumber: '+44',
      }),
    ).toEqual({
      first_name: 'Ada',
      last_name: 'L',
      country: 'GB',
      state: '',
      zip: '',
      city: '',
      address: '1 St',
      address2: 'Flat 2',
      phone: '+44',
    });
  });
});
