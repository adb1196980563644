import type { PaymentItem } from '@roots/contracts/gateway';
import type { CheckoutContext } from '../../client/checkout-context';
import { CheckoutError, CHECKOUT_MESSAGES } from '../../core/errors/checkout-error';
import { loadScript } from '../../core/loaders/load-script';
import type { PaymentOutcome } from '../../payment/payment-flow';
import { UIElement } from '../../ui/base-element';

/** Google-type wallet constants (checkout-spec §2, §9): API 2.0, and the button's look. */
export const GOOGLE_PAY_API_VERSION = { apiVersion: 2, apiVersionMinor: 0 } as const;
export const GOOGLE_PAY_BUTTON = { buttonColor: 'black', buttonType: 'long', buttonSizeMode: 'fill' } as const;

/** The part of a PaymentDataRequest (API 2.0) the SDK reads; the gateway builds the rest. */
export type PaymentDataRequest = {
  apiVersion: 2;
  apiVersionMinor: 0;
  allowedPaymentMethods: Array<{ type: string; parameters?: Record<string, unknown>; tokenizationSpecification?: unknown }>;
  merchantInfo: { merchantName: string; merchantId?: string };
  transactionInfo: { totalPriceStatus: 'FINAL'; totalPrice: string; currencyCode: string; countryCode?: string };
};
/** PaymentData (API 2.0) as `loadPaymentData` resolves it. */
export type PaymentData = {
  paymentMethodData: {
    type: string;
    description?: string;
    info?: { cardNetwork?: string; cardDetails?: string; billingAddress?: { countryCode?: string; postalCode?: string } };
    tokenizationData: { type: string; token: string };
  };
};
type PaymentsClient = {
  isReadyToPay(request: object): Promise<{ result: boolean }>;
  createButton(options: Record<string, unknown> & { onClick: () => void }): HTMLElement;
  loadPaymentData(request: PaymentDataRequest): Promise<PaymentData>;
};
type GooglePayGlobal = { google?: { payments?: { api?: { PaymentsClient?: new (options: { environment: string }) => PaymentsClient } } } };

/** The gateway's wallet link for `path`, next to the Apple-type session link of the session. */
export function walletLink(applePaySessionLink: string, path: string): string {
  return applePaySessionLink.replace(/\/apple-pay\/session$/, `/${path}`);
}

/** The request the button asks Google for: the gateway's, plus the billing address the payment item carries. */
export function withBillingAddress(request: PaymentDataRequest): PaymentDataRequest {
  return {
    ...request,
    allowedPaymentMethods: request.allowedPaymentMethods.map((method) =>
      method.type === 'CARD'
        ? { ...method, parameters: { ...method.parameters, billingAddressRequired: true, billingAddressParameters: { format: 'MIN' } } }
        : method,
    ),
  };
}

/** The payment item of a PaymentData: its token and billing address (checkout-spec §3). */
export function googlePayItem(paymentData: PaymentData): PaymentItem {
  const address = paymentData.paymentMethodData.info?.billingAddress;
  return {
    paymentMethodCode: 'googlePay',
    integrationType: 'api',
    storeInstrument: false,
    paymentInstrumentData: {
      paymentToken: paymentData.paymentMethodData.tokenizationData.token,
      ...(address?.countryCode
        ? { billingAddress: { country: { code: address.countryCode }, ...(address.postalCode ? { postalCode: address.postalCode } : {}) } }
        : {}),
    },
  };
}

/**
 * The Google-type wallet button (checkout-spec §2, §4): loads the wallet script, asks the gateway
 * for the PaymentDataRequest (API 2.0, price FINAL), shows Google's button when `isReadyToPay`,
 * and pays with the token of the PaymentData. A 3-D Secure pending answer opens the challenge
 * (payment flow). Cancel fires the failure event with 'Something went wrong', as Apple's does.
 */
export class GooglePayElement extends UIElement {
  private client: PaymentsClient | undefined;
  private request: PaymentDataRequest | undefined;

  constructor(
    private readonly context: CheckoutContext,
    private readonly pay: (item: PaymentItem) => Promise<PaymentOutcome>,
    private readonly onError: (error: CheckoutError) => void,
  ) {
    super(context.document);
    this.isValid = true;
  }

  protected render(root: HTMLElement): void {
    root.className = 'roots-google-pay';
    void this.setUp(root).catch((error: unknown) => {
      const failure = error instanceof CheckoutError ? error : new CheckoutError('UNKNOWN_ERROR', undefined, { cause: error });
      this.context.logger.error(failure.message, failure);
      this.onError(failure);
    });
  }

  private async setUp(root: HTMLElement): Promise<void> {
    const { config, api, window: win } = this.context;
    const method = config.session.paymentMethods.find((candidate) => candidate.code === 'googlePay');
    await loadScript(this.doc, config.walletScripts.googlePay, { name: 'google-pay', errorCode: 'GOOGLE_PAY_SDK_LOAD_FAILED' });
    const PaymentsClient = (win as unknown as GooglePayGlobal).google?.payments?.api?.PaymentsClient;
    if (!PaymentsClient) throw new CheckoutError('GOOGLE_PAY_SDK_LOAD_FAILED', 'The Google Pay script has no PaymentsClient');
    const request = await api.request<PaymentDataRequest>(
      walletLink(config.session.links.applePaySession, 'google-pay/payment-data-request'),
      {
        body: {},
      },
    );
    const client = new PaymentsClient({ environment: method?.googlePay?.environment ?? 'TEST' });
    const ready = await client.isReadyToPay({ ...GOOGLE_PAY_API_VERSION, allowedPaymentMethods: request.allowedPaymentMethods });
    if (root !== this.root) return; // unmounted meanwhile
    if (!ready.result) {
      this.context.logger.info('Google Pay is not available in this browser');
      return;
    }
    this.client = client;
    this.request = withBillingAddress(request);
    root.append(
      client.createButton({ ...GOOGLE_PAY_BUTTON, allowedPaymentMethods: request.allowedPaymentMethods, onClick: () => this.start() }),
    );
  }

  async paymentItem(): Promise<PaymentItem> {
    throw new CheckoutError('CLIENT_UI_ELEMENT_MISSING', 'Google Pay pays from its own button');
  }

  /** One payment: Google's sheet must open inside the click, so nothing is awaited before it. */
  start(): void {
    if (!this.client || !this.request) return;
    this.client.loadPaymentData(this.request).then(
      (paymentData) => void this.pay(googlePayItem(paymentData)),
      (error: unknown) => {
        const statusCode = (error as { statusCode?: string } | null)?.statusCode;
        this.context.logger.info(`Google Pay ended without payment data (${statusCode ?? 'unknown'})`);
        this.onError(new CheckoutError('UNKNOWN_ERROR', CHECKOUT_MESSAGES.somethingWentWrong, { cause: error }));
      },
    );
  }
}
