import type { EnabledPaymentMethod, Execution, PaymentItem, ReturnInfo, StoredInstrument } from '@roots/contracts/gateway';
import { CARD_VERIFICATION_AMOUNT } from '@roots/contracts/gateway-constants';
import type { CheckoutContext } from '../client/checkout-context';
import { validatePaymentMethod } from '../core/config/client-config';
import { resolveMountTarget } from '../core/config/collect-validation';
import { CheckoutError, CHECKOUT_MESSAGES } from '../core/errors/checkout-error';
import { EventEmitter } from '../core/events/event-emitter';
import { nextStep } from '../core/execution/execution-machine';
import { pollExecution } from '../core/execution/poll-execution';
import { CardElement, type CardCollectResult, type CardFormEvents, type CardFormOptions } from '../methods/card/card-element';
import {
  isInstrumentUsable,
  networkIcon,
  storedInstrumentLabel,
  StoredInstrumentElement,
} from '../methods/stored-instrument/stored-instrument-element';
import type { PayPalElementOptions } from '../methods/paypal/paypal-element';
import { failureEvent, failureScreenText, outcomeOfError, type FailureEvent } from '../payment/failure-report';
import type { MethodHooks, MethodOptions, WalletDetails } from '../methods/method-entry';
import { methodEntry } from '../methods/registry';
import { authorizeItem, continuePayment, runPayment, type PaymentFlowContext, type PaymentOutcome } from '../payment/payment-flow';
import { h, type UIElement } from '../ui/base-element';
import { formatMoney } from '../ui/format-money';
import { loadingButton, showMessage } from '../ui/messages';
import { ensureStyles } from '../ui/styles';

/** Drop-in events; `failure` carries a failure reason code (checkout-spec §3) and a message. */
export type DropinEvents = CardFormEvents & {
  ready: { items: string[] };
  activate: { id: string; code: string };
  deactivate: { id: string; code: string };
  visibility: { id: string; visible: boolean };
  /** `wallet`: what an Apple-type payment adds (token, billing address, name). */
  success: { execution: Execution; wallet?: WalletDetails };
  pending: { execution: Execution; wallet?: WalletDetails };
  failure: FailureEvent;
  sessionExpired: Record<string, never>;
};
export const DROPIN_EVENTS = [
  'ready',
  'activate',
  'deactivate',
  'visibility',
  'success',
  'pending',
  'failure',
  'sessionExpired',
  'change',
  'binChanged',
  'error',
] as const;

/** Drop-in options. */
export type DropinOptions = {
  /** Method codes to show, in order; default: the session's. */
  paymentMethods?: string[];
  /** Default true: list the holder's stored instruments first. */
  showStoredInstruments?: boolean;
  /** Item to preselect: a method code or a stored instrument id. */
  preselect?: string;
  card?: CardFormOptions;
  /**
   * The Apple-type item: `validateMerchant` passes merchant validation through the merchant's
   * backend; `storeInstrument` keeps the wallet's card for renewals and one-click charges.
   */
  applePay?: MethodOptions['applePay'];
  /** The PayPal item's save checkbox (hidden in express mode). */
  payPal?: Pick<PayPalElementOptions, 'storeInstrumentLabel' | 'storeInstrumentDefault' | 'onDeliveryAddressChanged'>;
  /** Where hosted pages send the shopper back; default: this page with `?roots-return=…`. */
  returnInfo?: ReturnInfo;
  /** Translations of failure messages, keyed by the error message. */
  translations?: Record<string, string>;
  /**
   * Shown when a failure is not a known one (no translation, not the execution's own reason); default
   * 'Authorization failed, please try again.'. Internal detail never reaches the screen: it goes to
   * the log and the failure event's `cause`.
   */
  defaultFailureMessage?: string;
  /** Pre-payment callback: resolving false or throwing blocks the payment (VALIDATION_FAILED). */
  onBeforePay?: () => boolean | Promise<boolean>;
  /** Keep the pay button enabled even while the card form is invalid. Default false. */
  payButtonAlwaysEnabled?: boolean;
  /** Auto-hide the 'Authorization failed' message after this many ms; default: stays until clicked. */
  messageTtlMs?: number;
  /** Generic redirect in a 'popup' or the whole 'page' (default). Pix always uses a popup. */
  redirectMode?: 'popup' | 'page';
  riskSessionId?: string;
  /**
   * Label of the shared pay button for card and stored-instrument payments, so it can say what it
   * does (e.g. 'Pay $1 and start trial'). Default: 'Pay {amount}'. Redirect methods keep 'Pay with …'.
   */
  payButtonLabel?: string;
};

type Item = {
  id: string;
  code: string;
  label: string;
  element: UIElement;
  /** Wallets pay from their own button and are hidden, not remounted (checkout-spec §4). */
  wallet: boolean;
  payLabel: () => string;
  wrapper: HTMLElement;
  body: HTMLElement;
  radio: HTMLInputElement;
  shown: boolean;
};

/**
 * The drop-in (checkout-spec §2, §4): a fieldset of radio items — stored instruments, card,
 * wallets, redirect methods — one active at a time, a shared pay button, and the loading,
 * success, pending and failure screens.
 */
export class Dropin {
  readonly events = new EventEmitter<DropinEvents>([...DROPIN_EVENTS]);
  private root: HTMLElement | undefined;
  private form: HTMLElement | undefined;
  private screen: HTMLElement | undefined;
  private payButton: HTMLButtonElement | undefined;
  private items: Item[] = [];
  private active: Item | undefined;
  private stopSessionEvents: (() => void) | undefined;

  constructor(
    private readonly context: CheckoutContext,
    readonly options: DropinOptions = {},
  ) {}

  on<Name extends keyof DropinEvents & string>(name: Name, handler: (payload: DropinEvents[Name]) => void): () => void {
    return this.events.on(name, handler);
  }

  /** Mounts into a selector or element; resolves once the items are listed. */
  async mount(target: string | HTMLElement): Promise<this> {
    const doc = this.context.document;
    const host = resolveMountTarget(target, doc);
    ensureStyles(doc);
    // sessionExpired comes from the client's calls (any 401/403), refreshed and retried there.
    this.stopSessionEvents?.();
    this.stopSessionEvents = this.context.sessionEvents.on('sessionExpired', () => this.events.emit('sessionExpired', {}));
    this.screen = h(doc, 'div', {
      class: 'roots-screen',
      role: 'status',
      'aria-live': 'polite',
      hidden: true,
      'data-testid': 'roots-screen',
    });
    const fieldset = h(doc, 'fieldset', {}, h(doc, 'legend', {}, 'Payment method'));
    this.payButton = loadingButton(doc, this.defaultPayLabel(), async () => void (await this.pay()));
    this.payButton.dataset.testid = 'roots-pay';
    this.form = h(doc, 'div', { class: 'roots-form' }, fieldset, this.payButton);
    this.root = h(doc, 'div', { class: 'roots-dropin', 'data-testid': 'roots-dropin' }, this.form, this.screen);
    host.append(this.root);

    const methods = this.methods();
    const stored =
      this.options.showStoredInstruments === false || !methods.some((method) => method.code === 'card')
        ? []
        : await this.storedInstruments();
    for (const instrument of stored) {
      const element = new StoredInstrumentElement(doc, instrument);
      this.addItem(fieldset, {
        id: instrument.id,
        code: 'storedInstrument',
        label: storedInstrumentLabel(instrument),
        disabled: !isInstrumentUsable(instrument),
        element,
        icon: instrument.data.network ?? 'card',
      });
    }
    const hooks = this.methodHooks();
    for (const method of methods) {
      const entry = methodEntry(method.code);
      if (entry.isAvailable && !entry.isAvailable(this.context.window)) {
        // Apple Pay in a browser without it: not listed.
        this.context.logger.info(`${method.code} is not available in this browser; hidden`);
        continue;
      }
      const element = entry.create({ context: this.context, method, hooks, options: this.options });
      this.addItem(fieldset, { id: method.code, code: method.code, label: entry.label(method), element, wallet: entry.wallet });
    }
    if (this.items.length === 1) this.root.classList.add('roots-single');
    const preselected = this.items.find((item) => item.id === this.options.preselect || item.code === this.options.preselect);
    if (preselected) this.activate(preselected);
    else if (this.items.length === 1) this.activate(this.items[0]!);
    else this.updatePayButton();
    this.events.emit('ready', { items: this.items.map((item) => item.id) });
    void this.resumeAfterRedirect();
    return this;
  }

  /**
   * Back from a hosted page (generic redirect, 3-D Secure by redirect): the return URL carries
   * `roots-return` and `executionId`; poll that execution and show its final screen.
   */
  private async resumeAfterRedirect(): Promise<void> {
    const params = new URL(this.context.window.location.href).searchParams;
    const session = this.context.config.session;
    if (!params.has('roots-return') || params.get('executionId') !== session.executionId) return;
    this.showScreen('loading');
    try {
      const execution = await pollExecution({
        fetchExecution: () => this.context.api.getExecution(session.links.execution),
        initialDelayMs: 0,
      });
      const step = nextStep(execution);
      this.finish(
        step.kind === 'success'
          ? { kind: 'success', execution }
          : step.kind === 'failure'
            ? { kind: 'failure', code: step.code, message: step.message, execution }
            : { kind: 'pending', execution },
      );
    } catch (error) {
      this.finish({
        kind: 'failure',
        code: error instanceof CheckoutError ? error.code : 'UNKNOWN_ERROR',
        message: CHECKOUT_MESSAGES.authorizationFailed,
      });
    }
  }

  unmount(): void {
    this.stopSessionEvents?.();
    this.stopSessionEvents = undefined;
    this.items.forEach((item) => item.element.unmount());
    this.items = [];
    this.root?.remove();
  }

  /**
   * Collects the card form into the vault without paying and answers the card collect result
   * (checkout-spec §3): card data (token, never the card), choices, billing country `code`,
   * `fullName`, `iso3` and postal code.
   * @throws CLIENT_UI_ELEMENT_MISSING when the drop-in has no mounted card form.
   */
  collectCard(): Promise<CardCollectResult> {
    const card = this.items.find((item) => item.element instanceof CardElement)?.element;
    if (!(card instanceof CardElement)) throw new CheckoutError('CLIENT_UI_ELEMENT_MISSING', 'mount a drop-in with the card form first');
    return card.collect();
  }

  private methods(): EnabledPaymentMethod[] {
    const all = this.context.config.session.paymentMethods;
    all.forEach(validatePaymentMethod);
    if (!this.options.paymentMethods) return all;
    return this.options.paymentMethods
      .map((code) => all.find((method) => method.code === code))
      .filter((method): method is EnabledPaymentMethod => !!method);
  }

  private async storedInstruments(): Promise<StoredInstrument[]> {
    try {
      const items = await this.context.api.listInstruments(this.context.config.session.links.instruments);
      return items.filter((instrument) => instrument.status !== 'deleted');
    } catch (error) {
      this.context.logger.warn('stored instruments could not be loaded', error);
      return [];
    }
  }

  private addItem(
    fieldset: HTMLElement,
    spec: { id: string; code: string; label: string; element: UIElement; wallet?: boolean; icon?: string; disabled?: boolean },
  ): void {
    const doc = this.context.document;
    const radioId = `roots-item-${spec.id}`;
    const radio = h(doc, 'input', {
      type: 'radio',
      name: 'roots-payment-method',
      id: radioId,
      value: spec.id,
      disabled: spec.disabled ?? false,
    });
    const label = h(doc, 'label', { for: radioId }, radio, spec.label);
    if (spec.icon) label.append(networkIcon(doc, spec.icon));
    const body = h(doc, 'div', { class: 'roots-item__body', hidden: true });
    const wrapper = h(doc, 'div', { class: 'roots-item', 'data-testid': `roots-item-${spec.code}`, 'data-item': spec.id }, label, body);
    fieldset.append(wrapper);
    const item: Item = {
      ...spec,
      wallet: spec.wallet ?? false,
      payLabel: () => spec.element.payLabel ?? this.defaultPayLabel(),
      wrapper,
      body,
      radio,
      shown: false,
    };
    radio.addEventListener('change', () => radio.checked && this.activate(item));
    spec.element.onValidityChange(() => {
      if (item !== this.active) return;
      // A card being typed anew: the previous decline no longer speaks of it (issue 24).
      this.clearFailure();
      this.updatePayButton();
    });
    this.items.push(item);
  }

  /** Activating one item deactivates the others (checkout-spec §4). Wallets are hidden, not remounted. */
  private activate(item: Item): void {
    if (this.active === item) return;
    const previous = this.active;
    if (previous) {
      previous.wrapper.classList.remove('roots-item--active');
      previous.body.hidden = true;
      if (previous.wallet) previous.element.setVisible(false);
      else if (previous.element.mounted) previous.element.unmount();
      this.events.emit('deactivate', { id: previous.id, code: previous.code });
      this.events.emit('visibility', { id: previous.id, visible: false });
    }
    this.active = item;
    this.clearFailure();
    item.radio.checked = true;
    item.wrapper.classList.add('roots-item--active');
    item.body.hidden = false;
    if (item.wallet && item.shown) item.element.setVisible(true);
    else item.element.mount(item.body);
    item.shown = true;
    this.events.emit('activate', { id: item.id, code: item.code });
    this.events.emit('visibility', { id: item.id, visible: true });
    this.updatePayButton();
  }

  /** A zero-amount session verifies and stores a card: nothing is paid (ADR 143). */
  private get verifiesCard(): boolean {
    return this.context.config.session.amount.value === CARD_VERIFICATION_AMOUNT;
  }

  private defaultPayLabel(): string {
    if (this.options.payButtonLabel) return this.options.payButtonLabel;
    return this.verifiesCard ? CHECKOUT_MESSAGES.saveCard : `Pay ${formatMoney(this.context.config.session.amount)}`;
  }

  private updatePayButton(): void {
    const button = this.payButton;
    if (!button) return;
    const active = this.active;
    button.textContent = active ? active.payLabel() : this.defaultPayLabel();
    button.hidden = active?.wallet ?? false;
    button.disabled = !active || (!active.element.isValid && !this.options.payButtonAlwaysEnabled);
  }

  /** Pay with the active item (checkout-spec §4 "Pay gating", "Payment execution"). */
  async pay(): Promise<PaymentOutcome | undefined> {
    const button = this.payButton;
    if (!button) throw new CheckoutError('CLIENT_UI_ELEMENT_MISSING', 'mount the drop-in before paying');
    const active = this.active;
    if (!active) return undefined;
    button.disabled = true;
    try {
      let allowed = true;
      try {
        allowed = this.options.onBeforePay ? (await this.options.onBeforePay()) !== false : true;
      } catch {
        allowed = false;
      }
      // submit → handle response → handle action: the base element's flow, the same for every method.
      const outcome: PaymentOutcome = allowed
        ? await active.element.submit(this.flowContext(), () => this.showScreen('loading'))
        : { kind: 'failure', code: 'VALIDATION_FAILED', message: CHECKOUT_MESSAGES.paymentBlocked };
      if (outcome.kind === 'failure' && outcome.code === 'VALIDATION_FAILED') this.events.emit('failure', failureEvent(outcome));
      else this.finish(outcome);
      return outcome;
    } finally {
      this.updatePayButton();
    }
  }

  /** What the drop-in lends its methods (the registry's factories take them). */
  private methodHooks(): MethodHooks {
    return {
      pay: (item, wallet) => this.payItem(item, wallet),
      authorize: (item) => authorizeItem(this.flowContext(), item),
      loading: () => this.showScreen('loading'),
      complete: (execution, item) => this.completeFrom(execution, item),
      finish: (outcome) => this.finish(outcome),
      fail: (error) => this.finish(outcomeOfError(error)),
      sessionExpired: () => this.events.emit('sessionExpired', {}),
      emit: (name, payload) => this.events.emit(name, payload as DropinEvents[typeof name]),
    };
  }

  private flowContext(): PaymentFlowContext {
    return {
      api: this.context.api,
      session: this.context.config.session,
      window: this.context.window,
      returnInfo: this.options.returnInfo ?? this.defaultReturnInfo(),
      ...(this.options.redirectMode ? { redirectMode: this.options.redirectMode } : {}),
      ...(this.options.riskSessionId ? { riskSessionId: this.options.riskSessionId } : {}),
    };
  }

  /** Authorizes one payment item and shows its outcome (the pay button and wallet buttons end here). */
  async payItem(item: PaymentItem, wallet?: WalletDetails): Promise<PaymentOutcome> {
    this.showScreen('loading');
    let outcome: PaymentOutcome;
    try {
      outcome = await runPayment(this.flowContext(), item);
    } catch (error) {
      outcome = outcomeOfError(error);
    }
    this.finish(outcome, wallet);
    return outcome;
  }

  /** From an execution a wallet confirmed (PayPal) through the state machine to the final screen. */
  private async completeFrom(execution: Execution, item: PaymentItem): Promise<void> {
    this.showScreen('loading');
    let outcome: PaymentOutcome;
    try {
      outcome = await continuePayment(this.flowContext(), execution, item);
    } catch (error) {
      outcome = outcomeOfError(error);
    }
    this.finish(outcome);
  }

  private finish(outcome: PaymentOutcome, wallet?: WalletDetails): void {
    switch (outcome.kind) {
      case 'success':
        this.showScreen('success');
        this.events.emit('success', { execution: outcome.execution, ...(wallet ? { wallet } : {}) });
        break;
      case 'pending':
        this.showScreen('pending');
        this.events.emit('pending', { execution: outcome.execution, ...(wallet ? { wallet } : {}) });
        break;
      case 'failure': {
        const event = failureEvent(outcome);
        if (event.cause) this.context.logger.error(`payment failed: ${event.cause.code}: ${event.cause.message}`, event.cause);
        this.showScreen('failure', failureScreenText(event, this.options));
        this.events.emit('failure', event);
        break;
      }
    }
  }

  private defaultReturnInfo(): ReturnInfo {
    const base = new URL(this.context.window.location.href);
    const at = (outcome: string) => {
      const url = new URL(base);
      url.searchParams.set('roots-return', outcome);
      return url.toString();
    };
    return { success: at('success'), cancel: at('cancel'), error: at('error'), pending: at('pending') };
  }

  /** Hides a failure screen (the form stays): the shopper has changed what a retry would pay with. */
  private clearFailure(): void {
    const screen = this.screen;
    if (screen?.dataset.state !== 'failure') return;
    screen.replaceChildren();
    screen.hidden = true;
    delete screen.dataset.state;
  }

  /** Loading → success / 'Payment pending' / failure screens; failure can go back to the form. */
  private showScreen(kind: 'loading' | 'success' | 'pending' | 'failure', message?: string): void {
    const doc = this.context.document;
    const screen = this.screen!;
    const form = this.form!;
    screen.replaceChildren();
    screen.dataset.state = kind;
    screen.hidden = false;
    form.hidden = kind !== 'failure';
    if (kind === 'loading')
      screen.append(h(doc, 'div', { class: 'roots-spinner', role: 'progressbar', 'aria-label': 'Loading' }), h(doc, 'p', {}, 'Loading'));
    if (kind === 'success')
      screen.append(h(doc, 'h2', {}, this.verifiesCard ? CHECKOUT_MESSAGES.cardSaved : CHECKOUT_MESSAGES.paymentSuccessful));
    if (kind === 'pending') screen.append(h(doc, 'h2', {}, CHECKOUT_MESSAGES.paymentPending));
    if (kind === 'failure') {
      const text = message ?? CHECKOUT_MESSAGES.authorizationFailedToast;
      screen.append(
        h(doc, 'h2', {}, this.verifiesCard ? CHECKOUT_MESSAGES.cardNotSaved : 'Payment failed'),
        h(doc, 'p', { 'data-testid': 'roots-failure-message' }, text),
      );
      // The 'Authorization failed' message once (issue 35: a decline showed it twice, toast and text).
      if (text !== CHECKOUT_MESSAGES.authorizationFailedToast)
        showMessage(screen, 'error', this.options.messageTtlMs ? { ttlMs: this.options.messageTtlMs } : {});
    }
  }
}
