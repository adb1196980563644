// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { CheckoutContext } from '../../client/checkout-context';
import type { CheckoutError } from '../../core/errors/checkout-error';
import {
  GOOGLE_PAY_BUTTON,
  GooglePayElement,
  googlePayItem,
  walletLink,
  type PaymentData,
  type PaymentDataRequest,
} from './google-pay-element';

const SCRIPT = 'https://gw.example/sandbox/google-pay/pay.js';
const request: PaymentDataRequest = {
  apiVersion: 2,
  apiVersionMinor: 0,
  allowedPaymentMethods: [
    { type: 'CARD', parameters: { allowedCardNetworks: ['VISA'] }, tokenizationSpecification: { type: 'PAYMENT_GATEWAY' } },
  ],
  merchantInfo: { merchantName: 'Roots' },
  transactionInfo: { totalPriceStatus: 'FINAL', totalPrice: '24.99', currencyCode: 'USD' },
};
const paymentData: PaymentData = {
  paymentMethodData: {
    type: 'CARD',
    info: { cardNetwork: 'VISA', cardDetails: '4242', billingAddress: { countryCode: 'US', postalCode: '10001' } },
    tokenizationData: { type: 'PAYMENT_GATEWAY', token: '{"protocolVersion":"ECv2"}' },
  },
};

/** A PaymentsClient like Google's, recording what the element asks of it. */
function installGoogle(options: { ready?: boolean; load?: () => Promise<PaymentData> } = {}) {
  const seen = {
    environment: '',
    readyRequest: undefined as unknown,
    buttonOptions: undefined as Record<string, unknown> | undefined,
    loaded: [] as unknown[],
  };
  class PaymentsClient {
    constructor(init: { environment: string }) {
      seen.environment = init.environment;
    }
    isReadyToPay(readyRequest: unknown) {
      seen.readyRequest = readyRequest;
      return Promise.resolve({ result: options.ready ?? true });
    }
    createButton(buttonOptions: Record<string, unknown> & { onClick: () => void }) {
      seen.buttonOptions = buttonOptions;
      const button = document.createElement('button');
      button.textContent = 'Buy with Google Pay';
      button.addEventListener('click', buttonOptions.onClick);
      return button;
    }
    loadPaymentData(paymentDataRequest: unknown) {
      seen.loaded.push(paymentDataRequest);
      return (options.load ?? (async () => paymentData))();
    }
  }
  (window as unknown as { google: unknown }).google = { payments: { api: { PaymentsClient } } };
  return seen;
}

function setUp() {
  const api = { request: vi.fn(async () => request) };
  const context = {
    window,
    document,
    api,
    logger: { debug: vi.fn(), info: vi.fn(), warn: vi.fn(), error: vi.fn() },
    config: {
      walletScripts: { googlePay: SCRIPT, payPal: 'x' },
      session: {
        links: { applePaySession: 'https://gw.example/v1/wallets/apple-pay/session' },
        paymentMethods: [{ code: 'googlePay', integrationType: 'api', googlePay: { environment: 'TEST' } }],
      },
    },
  } as unknown as CheckoutContext;
  const pay = vi.fn(async () => ({ kind: 'success' as const, execution: {} as never }));
  const onError = vi.fn<(error: CheckoutError) => void>();
  return { element: new GooglePayElement(context, pay, onError), api, pay, onError, context };
}

async function fireScript(event: 'load' | 'error'): Promise<void> {
  await vi.waitFor(() => expect(document.querySelector('script[data-roots-sdk="google-pay"]')).not.toBeNull());
  document.querySelector('script[data-roots-sdk="google-pay"]')!.dispatchEvent(new Event(event));
}

afterEach(() => {
  document.head.querySelectorAll('script').forEach((script) => script.remove());
  document.body.replaceChildren();
  delete (window as unknown as { google?: unknown }).google;
});

describe('Google-type wallet (API 2.0)', () => {
  it('loads the script, asks the gateway for the request, and shows the black long fill button when ready', async () => {
    const seen = installGoogle();
    const { element, api } = setUp();
    element.mount(document.body);
    expect(document.querySelector<HTMLScriptElement>('script[data-roots-sdk="google-pay"]')?.src).toBe(SCRIPT);
    await fireScript('load');
    await vi.waitFor(() => expect(document.body.textContent).toContain('Buy with Google Pay'));
    expect(api.request).toHaveBeenCalledWith('https://gw.example/v1/wallets/google-pay/payment-data-request', { body: {} });
    expect(seen.environment).toBe('TEST');
    expect(seen.readyRequest).toEqual({ apiVersion: 2, apiVersionMinor: 0, allowedPaymentMethods: request.allowedPaymentMethods });
    expect(seen.buttonOptions).toMatchObject({ ...GOOGLE_PAY_BUTTON, allowedPaymentMethods: request.allowedPaymentMethods });
    expect(GOOGLE_PAY_BUTTON).toEqual({ buttonColor: 'black', buttonType: 'long', buttonSizeMode: 'fill' });
  });

  it('the button opens the sheet at once (billing address asked) and pays with the token and billing address', async () => {
    const seen = installGoogle();
    const { element, pay } = setUp();
    element.mount(document.body);
    await fireScript('load');
    await vi.waitFor(() => expect(document.querySelector('button')).not.toBeNull());
    document.querySelector('button')!.click();
    expect(seen.loaded).toHaveLength(1);
    expect(seen.loaded[0]).toMatchObject({
      transactionInfo: { totalPriceStatus: 'FINAL' },
      allowedPaymentMethods: [{ type: 'CARD', parameters: { allowedCardNetworks: ['VISA'], billingAddressRequired: true } }],
    });
    await vi.waitFor(() => expect(pay).toHaveBeenCalledOnce());
    expect(pay).toHaveBeenCalledWith({
      paymentMethodCode: 'googlePay',
      integrationType: 'api',
      storeInstrument: false,
      paymentInstrumentData: {
        paymentToken: '{"protocolVersion":"ECv2"}',
        billingAddress: { country: { code: 'US' }, postalCode: '10001' },
      },
    });
  });

  it('no button when the browser is not ready to pay', async () => {
    installGoogle({ ready: false });
    const { element, context } = setUp();
    element.mount(document.body);
    await fireScript('load');
    await vi.waitFor(() => expect(context.logger.info).toHaveBeenCalledWith('Google Pay is not available in this browser'));
    expect(document.querySelector('button')).toBeNull();
  });

  it('a closed sheet fires the failure with Something went wrong', async () => {
    installGoogle({ load: () => Promise.reject({ statusCode: 'CANCELED' }) });
    const { element, pay, onError } = setUp();
    element.mount(document.body);
    await fireScript('load');
    await vi.waitFor(() => expect(document.querySelector('button')).not.toBeNull());
    document.querySelector('button')!.click();
    await vi.waitFor(() => expect(onError).toHaveBeenCalledOnce());
    expect(onError.mock.calls[0]![0]).toMatchObject({ code: 'UNKNOWN_ERROR', message: 'Something went wrong' });
    expect(pay).not.toHaveBeenCalled();
  });

  it('a script that fails to load: GOOGLE_PAY_SDK_LOAD_FAILED', async () => {
    const { element, onError } = setUp();
    element.mount(document.body);
    await fireScript('error');
    await vi.waitFor(() => expect(onError).toHaveBeenCalledOnce());
    expect(onError.mock.calls[0]![0]).toMatchObject({ code: 'GOOGLE_PAY_SDK_LOAD_FAILED' });
  });

  it('maps PaymentData without a billing address, and finds its gateway link beside the Apple-type one', () => {
    const { info: _info, ...bare } = paymentData.paymentMethodData;
    expect(googlePayItem({ paymentMethodData: bare }).paymentInstrumentData).toEqual({ paymentToken: '{"protocolVersion":"ECv2"}' });
    expect(walletLink('https://gw/v1/wallets/apple-pay/session', 'google-pay/payment-data-request')).toBe(
      'https://gw/v1/wallets/google-pay/payment-data-request',
    );
  });
});
