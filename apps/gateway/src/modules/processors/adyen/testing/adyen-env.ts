/** Two HMAC keys (hex), as during a rotation: Adyen signs with one of them. Test values only. */
export const HMAC_KEYS = [
  '44782DEF547AAA06C910C43932B1EB0C71FC68D9D0C057550C48EC2ACF6BA056',
  '11223344556677889900AABBCCDDEEFF11223344556677889900AABBCCDDEEFF',
];
export const MERCHANT_ACCOUNT = 'RootsTestMerchant';

/** The gateway's environment with the Adyen processor pointed at a mock of Adyen's definition. */
export function adyenEnv(checkoutUrl: string, extra: Record<string, string> = {}): Record<string, string> {
  return {
    GATEWAY_PROCESSOR: 'adyen',
    ADYEN_API_KEY: 'AQE_test_key_for_the_definition_mock',
    ADYEN_MERCHANT_ACCOUNT: MERCHANT_ACCOUNT,
    ADYEN_ENVIRONMENT: 'test',
    ADYEN_HMAC_KEYS: HMAC_KEYS.join(','),
    ADYEN_CHECKOUT_URL: checkoutUrl,
    ADYEN_TIMEOUT_MS: '3000',
    ...extra,
  };
}
