import type { EnabledPaymentMethod } from '@roots/contracts/gateway';
import { APPLE_PAY_REQUEST_DEFAULTS } from '@roots/contracts/gateway-constants';

/** Methods a session enables when the merchant names none, in display order. */
export const DEFAULT_PAYMENT_METHODS = ['card', 'applePay', 'googlePay', 'payPal', 'genericRedirect', 'pix'] as const;

/** The Google-type wallet's gateway merchant id (tokenizationSpecification); its tokens must name it. */
export const GOOGLE_PAY_GATEWAY_MERCHANT_ID = 'roots-sandbox';
/** The PayPal client id of the sandbox; the PayPal script stand-in refuses any other. */
export const PAYPAL_SANDBOX_CLIENT_ID = 'sb-roots-sandbox';

/** Label of the generic redirect: the name of the (simulated) regional redirect provider. */
export const GENERIC_REDIRECT_LABEL = 'Roots Pay';

/** The SDK-facing description of one enabled method; unknown codes are hosted-page redirects. */
export function describePaymentMethod(code: string, context: { countryCode: string; merchantName: string }): EnabledPaymentMethod {
  switch (code) {
    case 'card':
      return { code, integrationType: 'api' };
    case 'applePay':
      return {
        code,
        integrationType: 'api',
        applePay: {
          countryCode: context.countryCode,
          supportedNetworks: [...APPLE_PAY_REQUEST_DEFAULTS.supportedNetworks],
          merchantCapabilities: [...APPLE_PAY_REQUEST_DEFAULTS.merchantCapabilities],
          requiredBillingContactFields: [...APPLE_PAY_REQUEST_DEFAULTS.requiredBillingContactFields],
          merchantIdentifier: 'merchant.roots.sandbox',
        },
      };
    case 'googlePay':
      return {
        code,
        integrationType: 'api',
        googlePay: {
          gateway: 'rootsgateway',
          gatewayMerchantId: GOOGLE_PAY_GATEWAY_MERCHANT_ID,
          merchantName: context.merchantName,
          allowedCardNetworks: ['AMEX', 'DISCOVER', 'JCB', 'MASTERCARD', 'VISA'],
          allowedAuthMethods: ['PAN_ONLY', 'CRYPTOGRAM_3DS'],
          environment: 'TEST',
        },
      };
    case 'payPal':
      return {
        code,
        integrationType: 'api',
        payPal: { clientId: PAYPAL_SANDBOX_CLIENT_ID, captureMode: 'Instant', integrationMode: 'standard' },
      };
    case 'genericRedirect':
      return { code, integrationType: 'hpp', label: GENERIC_REDIRECT_LABEL, clientConfig: { flow: 'redirect' } };
    case 'pix':
      return { code, integrationType: 'hpp', label: 'Pix', clientConfig: { flow: 'redirect', popup: true } };
    default:
      return { code, integrationType: 'hpp', clientConfig: { flow: 'redirect' } };
  }
}
