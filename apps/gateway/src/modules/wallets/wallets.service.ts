import { createHmac, randomBytes } from 'node:crypto';
import type { z } from 'zod';
import type {
  applePayMerchantSessionSchema,
  applePaySessionRequestSchema,
  applePaySessionResponseSchema,
  googlePayPaymentDataRequestSchema,
  merchantValidationRequestSchema,
} from '@roots/contracts/gateway';
import { APPLE_PAY_SESSION_VERSION } from '@roots/contracts/gateway-constants';
import { GatewayError } from '../../errors';
import type { SessionRow } from '../sessions/sessions.repository';
import { describePaymentMethod } from '../sessions/payment-methods';

/** Lifetime of a simulated Apple merchant session. */
export const MERCHANT_SESSION_TTL_MS = 5 * 60_000;

function majorUnits(value: number): string {
  return (value / 100).toFixed(2);
}

/** Wallet sessions of the sandbox: no Apple or Google servers are reachable, so both are simulated faithfully in shape. */
export class WalletsService {
  constructor(
    private readonly merchantName: string,
    private readonly signingSecret: string,
  ) {}

  applePaySession(session: SessionRow, input: z.infer<typeof applePaySessionRequestSchema>): z.infer<typeof applePaySessionResponseSchema> {
    if (!session.paymentMethods.includes('applePay'))
      throw new GatewayError('PAYMENT_METHOD_NOT_ENABLED', 'applePay is not enabled for this session');
    if (input.amount.value !== session.amountValue || input.amount.currency !== session.currency) {
      throw new GatewayError('AMOUNT_MISMATCH', 'Amount differs from the session amount');
    }
    const config = describePaymentMethod('applePay', { countryCode: session.countryCode, merchantName: this.merchantName }).applePay;
    if (!config) throw new Error('applePay config missing');
    return {
      paymentRequest: {
        countryCode: config.countryCode,
        currencyCode: session.currency,
        supportedNetworks: config.supportedNetworks,
        merchantCapabilities: config.merchantCapabilities,
        requiredBillingContactFields: config.requiredBillingContactFields,
        total: { label: '', amount: majorUnits(session.amountValue), type: 'final' },
      },
      version: APPLE_PAY_SESSION_VERSION,
    };
  }

  /** Simulated Apple merchant validation: an opaque, signed merchant session for the client domain. */
  merchantValidation(
    input: z.infer<typeof merchantValidationRequestSchema>,
    now = new Date(),
  ): z.infer<typeof applePayMerchantSessionSchema> {
    const sessionUrl = new URL(input.sessionUrl);
    if (sessionUrl.protocol !== 'https:') throw new GatewayError('VALIDATION_ERROR', 'sessionUrl: must be https');
    const merchantSessionIdentifier = randomBytes(16).toString('hex');
    const nonce = randomBytes(4).toString('hex');
    const epochTimestamp = now.getTime();
    const signature = createHmac('sha256', this.signingSecret)
      .update(`${merchantSessionIdentifier}.${nonce}.${input.clientDomain}.${epochTimestamp}`)
      .digest('base64');
    return {
      epochTimestamp,
      expiresAt: epochTimestamp + MERCHANT_SESSION_TTL_MS,
      merchantSessionIdentifier,
      nonce,
      merchantIdentifier: 'merchant.roots.sandbox',
      domainName: input.clientDomain,
      displayName: this.merchantName,
      signature,
    };
  }

  /** Google-type PaymentDataRequest (API 2.0, price status FINAL) for the session. */
  googlePayPaymentDataRequest(session: SessionRow): z.infer<typeof googlePayPaymentDataRequestSchema> {
    if (!session.paymentMethods.includes('googlePay'))
      throw new GatewayError('PAYMENT_METHOD_NOT_ENABLED', 'googlePay is not enabled for this session');
    const config = describePaymentMethod('googlePay', { countryCode: session.countryCode, merchantName: this.merchantName }).googlePay;
    if (!config) throw new Error('googlePay config missing');
    return {
      apiVersion: 2,
      apiVersionMinor: 0,
      allowedPaymentMethods: [
        {
          type: 'CARD',
          parameters: { allowedAuthMethods: config.allowedAuthMethods, allowedCardNetworks: config.allowedCardNetworks },
          tokenizationSpecification: {
            type: 'PAYMENT_GATEWAY',
            parameters: { gateway: config.gateway, gatewayMerchantId: config.gatewayMerchantId },
          },
        },
      ],
      merchantInfo: { merchantName: config.merchantName, merchantId: config.gatewayMerchantId },
      transactionInfo: {
        totalPriceStatus: 'FINAL',
        totalPrice: majorUnits(session.amountValue),
        currencyCode: session.currency,
        countryCode: session.countryCode,
      },
    };
  }
}
