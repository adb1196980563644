import type { EnabledPaymentMethod, Execution, PaymentItem } from '@roots/contracts/gateway';
import type { CheckoutContext } from '../client/checkout-context';
import type { CheckoutError } from '../core/errors/checkout-error';
import type { PaymentOutcome } from '../payment/payment-flow';
import type { UIElement } from '../ui/base-element';
import type { ApplePayDetails, ApplePayOptions } from './apple-pay/apple-pay-element';
import type { CardFormEvents, CardFormOptions } from './card/card-element';
import type { PayPalElementOptions } from './paypal/paypal-element';

/** What a wallet payment adds to the success and pending events (the Apple-type's token and contact). */
export type WalletDetails = ApplePayDetails;

/** What the drop-in lends a method: paying an item, the PayPal confirm steps, its events. */
export type MethodHooks = {
  /**
   * Authorizes an item the method built itself (wallet buttons) and shows the outcome; `wallet`
   * goes out with the success or pending event.
   */
  pay(item: PaymentItem, wallet?: WalletDetails): Promise<PaymentOutcome>;
  authorize(item: PaymentItem): Promise<Execution>;
  loading(): void;
  complete(execution: Execution, item: PaymentItem): Promise<void>;
  finish(outcome: PaymentOutcome): void;
  fail(error: CheckoutError): void;
  sessionExpired(): void;
  emit<Name extends keyof CardFormEvents>(name: Name, payload: CardFormEvents[Name]): void;
};

/** The options of every method a drop-in may carry. */
export type MethodOptions = {
  card?: CardFormOptions;
  /** The Apple-type item: merchant validation through the integrator, storing the wallet's card. */
  applePay?: ApplePayOptions;
  payPal?: Pick<PayPalElementOptions, 'storeInstrumentLabel' | 'storeInstrumentDefault' | 'onDeliveryAddressChanged'>;
};

export type MethodInput = { context: CheckoutContext; method: EnabledPaymentMethod; hooks: MethodHooks; options: MethodOptions };

/**
 * One payment method of the registry (STYLE.md habit 7): its label, whether it is a wallet (hidden
 * and shown again, never remounted; pays from its own button), whether this browser can offer it,
 * and the factory of its element.
 */
export type MethodEntry = {
  label(method: EnabledPaymentMethod): string;
  wallet: boolean;
  isAvailable?(win: Window): boolean;
  create(input: MethodInput): UIElement;
};
