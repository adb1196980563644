export { initCheckout, CheckoutClient, SDK_VERSION_KEY } from './client/checkout-client';
export type { ClientInitOptions, LogLevel, Environment } from './core/config/client-config';
export { CheckoutError, CHECKOUT_ERROR_CODES, CHECKOUT_MESSAGES, type CheckoutErrorCode } from './core/errors/checkout-error';
export type { CollectElementOptions, CollectOptions, ElementType, ValidationRule } from './core/config/collect-validation';
export type { CardField } from './core/config/card-layout';
export type { ElementState } from '@roots/contracts/frame-protocol';
export { Dropin, type DropinEvents, type DropinOptions } from './dropin/dropin';
export type { CardCollectResult, CardFormOptions, InstallmentOption } from './methods/card/card-element';
export type { DeliveryAddress } from './methods/paypal/paypal-element';
export type { CollectContainer, CollectElement, CollectResult } from './elements/collect-container';
export type { PaymentOutcome } from './payment/payment-flow';
export type { ApplePayAddress, ApplePayDetails, ApplePayOptions } from './methods/apple-pay/apple-pay-element';
export type { WalletDetails } from './methods/method-entry';
/** Delay before mounting the drop-in on the paywall (checkout-spec §2, §9). */
export const MOUNT_DELAY_MS = 50;
