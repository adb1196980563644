// Adyen's official Node library (MIT) is CommonJS: Node's ESM loader cannot see its named exports,
// so they are taken from the default export once, here.
import adyen from '@adyen/api-library';

export const { Client, CheckoutAPI, EnvironmentEnum, Types } = adyen;
export const HmacValidator = adyen.hmacValidator;

export type AdyenClient = InstanceType<typeof Client>;
export type AdyenConfig = AdyenClient['config'];
export type PaymentRequest = InstanceType<typeof Types.checkout.PaymentRequest>;
export type PaymentResponse = InstanceType<typeof Types.checkout.PaymentResponse>;
export type PaymentDetailsResponse = InstanceType<typeof Types.checkout.PaymentDetailsResponse>;
export type NotificationRequestItem = InstanceType<typeof Types.notification.NotificationRequestItem>;
