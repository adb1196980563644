import type { BillingAddress, PaymentItem } from '@roots/contracts/gateway';
import { APPLE_PAY_REQUEST_DEFAULTS, APPLE_PAY_SESSION_VERSION } from '@roots/contracts/gateway-constants';
import type { CheckoutContext } from '../../client/checkout-context';
import { CheckoutError, CHECKOUT_MESSAGES, type CheckoutErrorCode } from '../../core/errors/checkout-error';
import type { PaymentOutcome } from '../../payment/payment-flow';
import { h, UIElement } from '../../ui/base-element';

/** Apple-type wallet constants (checkout-spec §2, §9); the session version and request defaults are the contracts'. */
export { APPLE_PAY_SESSION_VERSION };
export const APPLE_PAY_BUTTON = { style: 'black', type: 'buy', locale: 'en-GB' } as const;
export const APPLE_PAY_RECURRING = { intervalCount: 7, intervalUnit: 'day' } as const;
/** checkout-spec §9, used when the session's method config leaves a field out. */
export const APPLE_PAY_DEFAULTS = APPLE_PAY_REQUEST_DEFAULTS;

type ApplePayContact = {
  givenName?: string;
  familyName?: string;
  countryCode?: string;
  administrativeArea?: string;
  postalCode?: string;
  locality?: string;
  addressLines?: string[];
  phoneNumber?: string;
};
type ApplePaySessionLike = {
  onvalidatemerchant: ((event: { validationURL: string }) => void) | null;
  onpaymentauthorized: ((event: { payment: { token: unknown; billingContact?: ApplePayContact } }) => void) | null;
  oncancel: (() => void) | null;
  begin(): void;
  abort(): void;
  completeMerchantValidation(session: unknown): void;
  completePayment(status: number): void;
};
type ApplePaySessionConstructor = {
  new (version: number, request: unknown): ApplePaySessionLike;
  canMakePayments(): boolean;
  STATUS_SUCCESS: number;
  STATUS_FAILURE: number;
};

/** Maps an Apple billing contact to the address shape of checkout-spec §3. */
export function billingAddressFromContact(contact: ApplePayContact | undefined) {
  return {
    first_name: contact?.givenName ?? '',
    last_name: contact?.familyName ?? '',
    country: contact?.countryCode ?? '',
    state: contact?.administrativeArea ?? '',
    zip: contact?.postalCode ?? '',
    city: contact?.locality ?? '',
    address: contact?.addressLines?.[0] ?? '',
    address2: contact?.addressLines?.[1] ?? '',
    phone: contact?.phoneNumber ?? '',
  };
}

/** The address of product-spec §3 an Apple billing contact maps to. */
export type ApplePayAddress = ReturnType<typeof billingAddressFromContact>;

/**
 * What an Apple-type payment gives the merchant besides the execution (product-spec §3, §7): the
 * wallet token (`token` of the Apple Pay creation calls), the billing contact mapped to the address
 * fields, and the buyer's name from it.
 */
export type ApplePayDetails = { code: 'applePay'; token: unknown; address: ApplePayAddress; displayName: string };

/** Options of the Apple-type item. */
export type ApplePayOptions = {
  /**
   * Merchant validation through the merchant's backend (checkout-spec §7): receives the validation
   * URL and the page's domain, resolves the merchant session object. Default: the gateway's.
   */
  validateMerchant?: (input: { validationURL: string; domain: string }) => Promise<unknown>;
  /**
   * Keep the wallet's card at the gateway (its network token) for merchant-initiated charges:
   * renewals and one-click add-ons. Default false. Say so next to the button, as for a stored card.
   */
  storeInstrument?: boolean;
};

function applePaySession(win: Window): ApplePaySessionConstructor | undefined {
  const candidate = (win as unknown as { ApplePaySession?: ApplePaySessionConstructor }).ApplePaySession;
  return typeof candidate === 'function' ? candidate : undefined;
}

/**
 * The Apple-type wallet button (checkout-spec §4): creates a session from the gateway, completes
 * merchant validation through the backend, pays on authorization and completes the sheet with
 * the outcome. Unsupported browsers: not listed by the drop-in; mounting throws 'Apple Pay is not available'.
 */
export class ApplePayElement extends UIElement {
  constructor(
    private readonly context: CheckoutContext,
    private readonly pay: (item: PaymentItem, details: ApplePayDetails) => Promise<PaymentOutcome>,
    private readonly onError: (error: CheckoutError) => void,
    private readonly options: ApplePayOptions = {},
  ) {
    super(context.document);
    this.isValid = true;
  }

  static isAvailable(win: Window): boolean {
    try {
      return applePaySession(win)?.canMakePayments() === true;
    } catch {
      return false;
    }
  }

  protected render(root: HTMLElement): void {
    if (!ApplePayElement.isAvailable(this.context.window)) throw new CheckoutError('APPLE_PAY_NOT_AVAILABLE');
    const button = h(this.doc, 'button', {
      type: 'button',
      class: 'roots-apple-pay',
      lang: APPLE_PAY_BUTTON.locale,
      'data-style': APPLE_PAY_BUTTON.style,
      'data-type': APPLE_PAY_BUTTON.type,
      'aria-label': 'Buy with Apple Pay',
      style: '-webkit-appearance:-apple-pay-button;-apple-pay-button-style:black;-apple-pay-button-type:buy;width:100%;height:44px',
    });
    button.addEventListener('click', () => this.start());
    root.append(button);
  }

  async paymentItem(): Promise<PaymentItem> {
    throw new CheckoutError('CLIENT_UI_ELEMENT_MISSING', 'Apple Pay pays from its own button');
  }

  /**
   * The payment request, built from the session alone so that the sheet's session can be created
   * inside the click (Safari refuses one created after a network await, outside the user gesture).
   */
  paymentRequest(): Record<string, unknown> {
    const { session } = this.context.config;
    const config = session.paymentMethods.find((method) => method.code === 'applePay')?.applePay;
    const total = { label: '', amount: (session.amount.value / 100).toFixed(2), type: 'final' };
    return {
      countryCode: config?.countryCode ?? APPLE_PAY_DEFAULTS.countryCode,
      currencyCode: session.amount.currency,
      supportedNetworks: config?.supportedNetworks ?? APPLE_PAY_DEFAULTS.supportedNetworks,
      merchantCapabilities: config?.merchantCapabilities ?? APPLE_PAY_DEFAULTS.merchantCapabilities,
      requiredBillingContactFields: config?.requiredBillingContactFields ?? APPLE_PAY_DEFAULTS.requiredBillingContactFields,
      total,
      recurringPaymentRequest: {
        paymentDescription: total.label,
        regularBilling: {
          ...total,
          paymentTiming: 'recurring',
          recurringPaymentIntervalUnit: APPLE_PAY_RECURRING.intervalUnit,
          recurringPaymentIntervalCount: APPLE_PAY_RECURRING.intervalCount,
        },
        managementURL: this.context.window.location.origin,
      },
    };
  }

  /**
   * Runs one Apple Pay session, synchronously from the click: the session is created and begun
   * before anything is awaited. The gateway's session call (checkout-spec §7) runs alongside and
   * merchant validation waits for it; if it fails the sheet is aborted and the failure reported.
   */
  start(): void {
    const Session = applePaySession(this.context.window);
    if (!Session) return this.onError(new CheckoutError('APPLE_PAY_NOT_AVAILABLE'));
    const { api, config, window: win } = this.context;
    const links = config.session.links;
    let session: ApplePaySessionLike;
    try {
      session = new Session(APPLE_PAY_SESSION_VERSION, this.paymentRequest());
    } catch (cause) {
      return this.onError(new CheckoutError('UNKNOWN_ERROR', 'The Apple Pay session could not start', { cause }));
    }
    let settled = false;
    const fail = (error: CheckoutError, abort: boolean) => {
      if (settled) return;
      settled = true;
      if (abort) {
        try {
          session.abort();
        } catch {
          // the sheet may already be gone
        }
      }
      this.onError(error);
    };
    const gatewaySession = api.request<unknown>(links.applePaySession, {
      body: {
        integrationType: 'api',
        paymentMethodCode: 'applePay',
        amount: config.session.amount,
        meta: { sessionURL: links.applePaySession },
        clientContext: { host: win.location.host },
      },
    });
    session.onvalidatemerchant = (event) => {
      const domain = win.location.hostname;
      gatewaySession
        .then(() =>
          this.options.validateMerchant
            ? this.options.validateMerchant({ validationURL: event.validationURL, domain })
            : api
                .request<{ data: unknown }>(links.applePaySession.replace(/\/session$/, '/merchant-validation'), {
                  body: { requestUrl: win.location.href, sessionUrl: event.validationURL, clientDomain: domain },
                })
                .then((response) => response.data),
        )
        .then(
          (merchantSession) => session.completeMerchantValidation(merchantSession),
          (cause: unknown) => fail(asCheckoutError(cause, 'CALLBACK_FAILED', 'Apple Pay merchant validation failed'), true),
        );
    };
    session.onpaymentauthorized = (event) => {
      const contact = event.payment.billingContact;
      const address = billingAddressFromContact(contact);
      const item: PaymentItem = {
        paymentMethodCode: 'applePay',
        integrationType: 'api',
        storeInstrument: this.options.storeInstrument ?? false,
        paymentInstrumentData: {
          paymentToken: event.payment.token,
          ...(contact ? { billingAddress: walletBillingAddress(contact) } : {}),
        },
      };
      const displayName = `${address.first_name} ${address.last_name}`.trim();
      void this.pay(item, { code: 'applePay', token: event.payment.token, address, displayName }).then((outcome) => {
        settled = true;
        session.completePayment(outcome.kind === 'success' ? Session.STATUS_SUCCESS : Session.STATUS_FAILURE);
      });
    };
    session.oncancel = () => fail(new CheckoutError('UNKNOWN_ERROR', CHECKOUT_MESSAGES.somethingWentWrong), false);
    session.begin();
    gatewaySession.catch((cause: unknown) =>
      fail(asCheckoutError(cause, 'UNKNOWN_ERROR', 'The Apple Pay session could not be created'), true),
    );
  }
}

function asCheckoutError(cause: unknown, code: CheckoutErrorCode, message: string): CheckoutError {
  return cause instanceof CheckoutError ? cause : new CheckoutError(code, message, { cause });
}

/**
 * The billing address a wallet payment carries (checkout-spec §3): country code and postal code,
 * and the contact mapped to the address fields ({@link billingAddressFromContact}), empty ones left out.
 */
export function walletBillingAddress(contact: ApplePayContact): BillingAddress {
  const mapped = billingAddressFromContact(contact);
  const fields = Object.fromEntries(Object.entries(mapped).filter(([key, value]) => value !== '' && key !== 'country'));
  return {
    ...(contact.countryCode ? { country: { code: contact.countryCode.toUpperCase() } } : {}),
    ...(contact.postalCode ? { postalCode: contact.postalCode } : {}),
    ...fields,
  };
}
