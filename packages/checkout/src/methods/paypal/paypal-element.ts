import { PAYPAL_LOADER_VERSION } from '@roots/contracts/gateway-constants';
import type { Execution, PaymentItem } from '@roots/contracts/gateway';
import type { CheckoutContext } from '../../client/checkout-context';
import { CheckoutError, CHECKOUT_MESSAGES } from '../../core/errors/checkout-error';
import { failureMessage } from '../../core/execution/execution-machine';
import { loadScript } from '../../core/loaders/load-script';
import { debounce, type DebounceTimers } from '../../core/timing/debounce';
import type { PaymentOutcome } from '../../payment/payment-flow';
import { h, UIElement } from '../../ui/base-element';
import { DEFAULT_STORE_INSTRUMENT_LABEL } from '../card/card-element';

/** PayPal button look (checkout-spec §2). */
export const PAYPAL_BUTTON_STYLE = { color: 'gold', height: 40, label: 'paypal', shape: 'rect', tagline: false } as const;
/** Toggling the save checkbox re-renders the button after this long (checkout-spec §9). */
export const PAYPAL_RERENDER_DEBOUNCE_MS = 300;
/** SDK components the script is loaded with (checkout-spec §7). */
export const PAYPAL_COMPONENTS = 'buttons,funding-eligibility';

export type PayPalConfig = { clientId: string; captureMode: 'Instant' | 'Manual'; integrationMode: 'express' | 'standard' };
type ConfirmLink = NonNullable<Execution['links']['confirm']>;
type ApproveData = { orderID?: string; billingToken?: string; payerID?: string };
type PayPalButtons = { render(target: HTMLElement): Promise<void>; close(): Promise<void> };
/** The shopper's new delivery address as PayPal's shipping-address change reports it. */
export type DeliveryAddress = { city?: string; state?: string; countryCode?: string; postalCode?: string };
type ShippingAddressChange = { shippingAddress?: DeliveryAddress };
type ShippingActions = { reject(reason?: unknown): Promise<void> };
type PayPalNamespace = {
  Buttons(options: {
    style: typeof PAYPAL_BUTTON_STYLE;
    createOrder?: () => Promise<string>;
    createBillingAgreement?: () => Promise<string>;
    onApprove: (data: ApproveData) => Promise<void>;
    onCancel: () => Promise<void>;
    onError: (error: unknown) => void;
    onShippingAddressChange?: (data: ShippingAddressChange, actions: ShippingActions) => Promise<void>;
  }): PayPalButtons;
};

/**
 * The script's intent (checkout-spec §4): a billing agreement (`tokenize`, vault) when storing,
 * else a one-time order captured at once (`captureMode` Instant) or authorized.
 */
export function payPalIntent(config: Pick<PayPalConfig, 'captureMode'>, storeInstrument: boolean): 'tokenize' | 'capture' | 'authorize' {
  if (storeInstrument) return 'tokenize';
  return config.captureMode === 'Instant' ? 'capture' : 'authorize';
}

/** The script URL with PayPal's parameters: client-id, intent, currency, vault, components (checkout-spec §7). */
export function payPalScriptURL(
  base: string,
  config: Pick<PayPalConfig, 'clientId' | 'captureMode'>,
  currency: string,
  storeInstrument: boolean,
): string {
  const url = new URL(base);
  url.searchParams.set('client-id', config.clientId);
  url.searchParams.set('intent', payPalIntent(config, storeInstrument));
  url.searchParams.set('currency', currency);
  url.searchParams.set('vault', String(storeInstrument));
  url.searchParams.set('components', PAYPAL_COMPONENTS);
  return url.toString();
}

/** What the PayPal element asks of the drop-in around it. */
export type PayPalHooks = {
  /** Authorizes the PayPal item: the gateway creates the order (and the billing agreement when storing). */
  authorize(item: PaymentItem): Promise<Execution>;
  /** Shows the loading screen while the approval is confirmed. */
  loading(): void;
  /** From the confirmed execution to the final screen and event (the shared state machine). */
  complete(execution: Execution, item: PaymentItem): Promise<void>;
  /** Shows the outcome and fires its event. */
  finish(outcome: PaymentOutcome): void;
  /** Cancel or error emits session expiry first (checkout-spec §4 "PayPal"). */
  sessionExpired(): void;
};

export type PayPalElementOptions = {
  /** Default 'Save instrument for future payments'. */
  storeInstrumentLabel?: string;
  /** Default false (express mode: always false, no checkbox). */
  storeInstrumentDefault?: boolean;
  /**
   * The integrator checks a delivery address the shopper picked in PayPal's window; resolving false
   * or throwing rejects the shipping change and logs CALLBACK_FAILED (checkout-spec §8). Without it,
   * every address is accepted.
   * @example onDeliveryAddressChanged: async (address) => address.countryCode === 'US'
   */
  onDeliveryAddressChanged?: (address: DeliveryAddress) => boolean | Promise<boolean>;
  timers?: DebounceTimers;
};

/** A correlation id for PayPal's risk session (32 hex characters, like PayPal's CMID). */
function newCorrelationId(win: Window & typeof globalThis): string {
  return win.crypto.randomUUID().replace(/-/g, '');
}

/**
 * The PayPal button (checkout-spec §4): with the save checkbox checked a billing agreement
 * (intent tokenize, vault), otherwise a one-time order (capture or authorize). The gateway creates
 * the order on authorize; approval confirms through the confirm link with the agreement's tokenId
 * (when storing) and the risk correlation id; cancel or error emit session expiry and fail. The
 * checkbox re-renders the button after 300 ms; express mode hides it.
 */
export class PayPalElement extends UIElement {
  readonly riskSessionCorrelationId: string;
  private buttons: PayPalButtons | undefined;
  private checkbox: HTMLInputElement | undefined;
  private slot: HTMLElement | undefined;
  private pending: { confirm: ConfirmLink; item: PaymentItem; storeInstrument: boolean } | undefined;
  /** Bumped by each render; a render that finds it changed was overtaken (or unmounted). */
  private generation = 0;
  private readonly rerender: ReturnType<typeof debounce<[]>>;
  /** Only one PayPal instance may be mounted at a time (checkout-spec §4). */
  private static current: PayPalElement | undefined;

  constructor(
    private readonly context: CheckoutContext,
    private readonly hooks: PayPalHooks,
    private readonly options: PayPalElementOptions = {},
  ) {
    super(context.document);
    this.isValid = true;
    this.riskSessionCorrelationId = newCorrelationId(context.window);
    this.rerender = debounce(() => void this.renderButtons(), PAYPAL_RERENDER_DEBOUNCE_MS, options.timers);
  }

  /** The session's PayPal configuration (checkout-spec §3). */
  get config(): PayPalConfig {
    const config = this.context.config.session.paymentMethods.find((method) => method.code === 'payPal')?.payPal;
    if (!config) throw new CheckoutError('CONFIG_MALFORMED', 'payPal has no configuration in the session');
    return config;
  }

  /** Express mode: no checkbox, never storing. */
  get express(): boolean {
    return this.config.integrationMode === 'express';
  }

  get storeInstrument(): boolean {
    return !this.express && (this.checkbox?.checked ?? false);
  }

  /** The mounted instance, if any. */
  static get mounted(): PayPalElement | undefined {
    return PayPalElement.current;
  }

  protected render(root: HTMLElement): void {
    const previous = PayPalElement.current;
    if (previous && previous !== this) {
      this.context.logger.warn('only one PayPal button can be mounted; the previous one is closed');
      previous.unmount();
    }
    PayPalElement.current = this;
    root.className = 'roots-paypal';
    if (!this.express) {
      this.checkbox = h(this.doc, 'input', {
        type: 'checkbox',
        id: 'roots-paypal-store-instrument',
        name: 'storeInstrument',
        checked: this.options.storeInstrumentDefault ?? false,
      });
      this.checkbox.addEventListener('change', () => this.rerender());
      root.append(
        h(
          this.doc,
          'label',
          { class: 'roots-check', for: 'roots-paypal-store-instrument' },
          this.checkbox,
          this.options.storeInstrumentLabel ?? DEFAULT_STORE_INSTRUMENT_LABEL,
        ),
      );
    }
    this.slot = h(this.doc, 'div', { class: 'roots-paypal__buttons', 'data-testid': 'roots-paypal-buttons' });
    root.append(this.slot);
    void this.renderButtons();
  }

  protected override destroy(): void {
    this.rerender.cancel();
    this.generation += 1;
    void this.closeButtons();
    this.slot = undefined;
    this.checkbox = undefined;
    if (PayPalElement.current === this) PayPalElement.current = undefined;
  }

  async paymentItem(): Promise<PaymentItem> {
    throw new CheckoutError('CLIENT_UI_ELEMENT_MISSING', 'PayPal pays from its own button');
  }

  private async closeButtons(): Promise<void> {
    const buttons = this.buttons;
    this.buttons = undefined;
    await buttons?.close().catch(() => undefined);
  }

  /** Closes the current button and renders one for the checkbox's choice (loading the matching script). */
  async renderButtons(): Promise<void> {
    const generation = (this.generation += 1);
    await this.closeButtons();
    const storeInstrument = this.storeInstrument;
    const { session, walletScripts } = this.context.config;
    try {
      await loadScript(this.doc, payPalScriptURL(walletScripts.payPal, this.config, session.amount.currency, storeInstrument), {
        name: 'paypal',
        errorCode: 'PAYPAL_SDK_LOAD_FAILED',
        replace: { global: 'paypal' },
        // The PayPal loader version the SDK follows (checkout-spec §9), as PayPal's own loader tags its script.
        attributes: { 'data-loader-version': PAYPAL_LOADER_VERSION },
      });
      const slot = this.slot;
      if (generation !== this.generation || !slot) throw new CheckoutError('PAYPAL_BUTTON_MOUNT_FAILED', 'PayPal button loading aborted');
      const paypal = (this.context.window as unknown as { paypal?: PayPalNamespace }).paypal;
      if (!paypal?.Buttons) throw new CheckoutError('PAYPAL_SDK_LOAD_FAILED', 'The PayPal script has no Buttons');
      const create = () => this.createOrder(storeInstrument);
      const buttons = paypal.Buttons({
        style: PAYPAL_BUTTON_STYLE,
        ...(storeInstrument ? { createBillingAgreement: create } : { createOrder: create }),
        onApprove: (data) => this.approve(data),
        onCancel: () => this.stop(),
        onError: (error) => void this.stop(error),
        ...(this.options.onDeliveryAddressChanged
          ? { onShippingAddressChange: (data: ShippingAddressChange, actions: ShippingActions) => this.shippingChange(data, actions) }
          : {}),
      });
      this.buttons = buttons;
      await buttons.render(slot).catch((cause: unknown) => {
        throw new CheckoutError('PAYPAL_BUTTON_MOUNT_FAILED', 'The PayPal button could not be rendered', { cause });
      });
    } catch (error) {
      const failure = error instanceof CheckoutError ? error : new CheckoutError('UNKNOWN_ERROR', undefined, { cause: error });
      // An overtaken render is expected (the checkbox moved again): only a warning.
      if (failure.code === 'PAYPAL_BUTTON_MOUNT_FAILED' && generation !== this.generation) this.context.logger.warn(failure.message);
      else {
        this.context.logger.error(failure.message, failure);
        this.hooks.finish({ kind: 'failure', code: failure.code, message: failure.message });
      }
    }
  }

  /** createOrder / createBillingAgreement: the gateway's order (or agreement token) for PayPal's window. */
  private async createOrder(storeInstrument: boolean): Promise<string> {
    const item: PaymentItem = {
      paymentMethodCode: 'payPal',
      integrationType: 'api',
      storeInstrument,
      paymentInstrumentData: { providerData: { riskSessionCorrelationId: this.riskSessionCorrelationId } },
    };
    const execution = await this.hooks.authorize(item);
    const confirm = execution.links.confirm;
    if (!confirm) throw new CheckoutError('PAYPAL_ORDER_CREATION_FAILED', CHECKOUT_MESSAGES.noConfirmLink);
    const id = storeInstrument ? confirm.action.parameters.tokenId : confirm.action.parameters.orderId;
    if (!id) throw new CheckoutError('PAYPAL_ORDER_CREATION_FAILED', CHECKOUT_MESSAGES.noOrderId);
    this.pending = { confirm, item, storeInstrument };
    return id;
  }

  /**
   * onShippingAddressChange: asks the integrator's callback; false or a throw rejects the change
   * (PayPal keeps the shopper on the address step) and logs CALLBACK_FAILED.
   */
  private async shippingChange(data: ShippingAddressChange, actions: ShippingActions): Promise<void> {
    const callback = this.options.onDeliveryAddressChanged;
    if (!callback) return;
    let failure: CheckoutError | undefined;
    try {
      if (!(await callback(data.shippingAddress ?? {})))
        failure = new CheckoutError('CALLBACK_FAILED', 'The delivery address callback resolved to false');
    } catch (cause) {
      failure = new CheckoutError('CALLBACK_FAILED', 'The delivery address callback threw', { cause });
    }
    if (!failure) return;
    this.context.logger.error(failure.message, failure);
    await actions.reject();
  }

  /** onApprove: confirm with the order id, the agreement's tokenId when storing, and the correlation id. */
  private async approve(_data: ApproveData): Promise<void> {
    const pending = this.pending;
    if (!pending) return;
    this.pending = undefined;
    this.hooks.loading();
    const { orderId, tokenId } = pending.confirm.action.parameters;
    let execution: Execution;
    try {
      execution = await this.context.api.confirm(pending.confirm.href, {
        data: {
          ...(orderId ? { orderId } : {}),
          ...(pending.storeInstrument && tokenId ? { tokenId } : {}),
          riskSessionCorrelationId: this.riskSessionCorrelationId,
        },
      });
    } catch (error) {
      const failure = error instanceof CheckoutError ? error : new CheckoutError('UNKNOWN_ERROR', undefined, { cause: error });
      this.hooks.finish({
        kind: 'failure',
        code: failure.code === 'UNAUTHORIZED' ? 'AUTHENTICATION_ERROR' : failure.code,
        message: failure.message,
      });
      return;
    }
    await this.hooks.complete(execution, pending.item);
  }

  /**
   * onCancel / onError: the order is cancelled at the gateway (its execution fails), session expiry
   * is emitted, then the failure event: AUTHORIZATION_ERROR with the reason, or the error's own code.
   */
  private async stop(error?: unknown): Promise<void> {
    const pending = this.pending;
    this.pending = undefined;
    let execution: Execution | undefined;
    if (pending) {
      execution = await this.context.api
        .confirm(pending.confirm.href, {
          data: {
            ...(pending.confirm.action.parameters.orderId ? { orderId: pending.confirm.action.parameters.orderId } : {}),
            cancelled: true,
          },
        })
        .catch(() => undefined);
    }
    this.hooks.sessionExpired();
    if (error instanceof CheckoutError) {
      this.hooks.finish({ kind: 'failure', code: error.code, message: error.message, ...(execution ? { execution } : {}) });
      return;
    }
    if (error !== undefined) this.context.logger.error('PayPal reported an error', error);
    this.hooks.finish({
      kind: 'failure',
      code: 'AUTHORIZATION_ERROR',
      message: execution ? failureMessage(execution) : CHECKOUT_MESSAGES.authorizationFailed,
      ...(execution ? { execution } : {}),
    });
  }
}
