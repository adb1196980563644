import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { GatewayConfigError, loadGatewayConfig } from '../../config/env';
import { declineCodeFor, REFUSAL_REASONS, RESULT_CODE_OUTCOMES, SOFT_DECLINE_CODES } from './adyen/adyen-codes';
import { CHECKOUT_DEFINITION } from './adyen/testing/prism';
import { HMAC_KEYS } from './adyen/testing/adyen-env';

const ADYEN = {
  GATEWAY_PROCESSOR: 'adyen',
  ADYEN_API_KEY: 'AQE_test_key_for_config_tests',
  ADYEN_MERCHANT_ACCOUNT: 'RootsTestMerchant',
  ADYEN_HMAC_KEYS: HMAC_KEYS.join(','),
};

function problems(env: Record<string, string>): string {
  try {
    loadGatewayConfig(env);
  } catch (error) {
    if (error instanceof GatewayConfigError) return error.message;
    throw error;
  }
  return '';
}

describe('GATEWAY_PROCESSOR and the Adyen settings (validated at start-up)', () => {
  it('the sandbox is the default', () => {
    expect(loadGatewayConfig({}).processor).toEqual({ name: 'sandbox' });
  });

  it('adyen with everything it needs', () => {
    expect(loadGatewayConfig(ADYEN).processor).toEqual({
      name: 'adyen',
      apiKey: ADYEN.ADYEN_API_KEY,
      merchantAccount: 'RootsTestMerchant',
      environment: 'test',
      liveUrlPrefix: undefined,
      hmacKeys: HMAC_KEYS,
      checkoutUrl: undefined,
      timeoutMs: 15_000,
    });
  });

  it.each(['ADYEN_API_KEY', 'ADYEN_MERCHANT_ACCOUNT', 'ADYEN_HMAC_KEYS'] as const)('a missing %s stops start-up naming it', (name) => {
    const env: Record<string, string> = { ...ADYEN };
    delete env[name];
    expect(problems(env)).toContain(`${name}: required when GATEWAY_PROCESSOR=adyen`);
  });

  it('malformed values stop start-up naming the variable', () => {
    expect(problems({ ...ADYEN, GATEWAY_PROCESSOR: 'stripe' })).toContain('GATEWAY_PROCESSOR');
    expect(problems({ ...ADYEN, ADYEN_HMAC_KEYS: 'not-hex' })).toContain('ADYEN_HMAC_KEYS');
    expect(problems({ ...ADYEN, ADYEN_HMAC_KEYS: [...HMAC_KEYS, HMAC_KEYS[0]].join(',') })).toContain('ADYEN_HMAC_KEYS');
    expect(problems({ ...ADYEN, ADYEN_ENVIRONMENT: 'prod' })).toContain('ADYEN_ENVIRONMENT');
    expect(problems({ ...ADYEN, ADYEN_MERCHANT_ACCOUNT: 'a b' })).toContain('ADYEN_MERCHANT_ACCOUNT');
    expect(problems({ ...ADYEN, ADYEN_CHECKOUT_URL: 'nope' })).toContain('ADYEN_CHECKOUT_URL');
  });

  it('live needs its URL prefix and Adyen’s own endpoint; production needs TLS to a replacement endpoint', () => {
    expect(problems({ ...ADYEN, ADYEN_ENVIRONMENT: 'live' })).toContain('ADYEN_LIVE_URL_PREFIX: required when ADYEN_ENVIRONMENT=live');
    expect(problems({ ...ADYEN, ADYEN_ENVIRONMENT: 'live', ADYEN_LIVE_URL_PREFIX: 'bad prefix' })).toContain('ADYEN_LIVE_URL_PREFIX');
    expect(
      problems({
        ...ADYEN,
        ADYEN_ENVIRONMENT: 'live',
        ADYEN_LIVE_URL_PREFIX: '1797a841fbb37ca7-AdyenDemo',
        ADYEN_CHECKOUT_URL: 'https://x.test',
      }),
    ).toContain('ADYEN_CHECKOUT_URL: not allowed');
    expect(
      loadGatewayConfig({ ...ADYEN, ADYEN_ENVIRONMENT: 'live', ADYEN_LIVE_URL_PREFIX: '1797a841fbb37ca7-AdyenDemo' }).processor,
    ).toMatchObject({
      environment: 'live',
      liveUrlPrefix: '1797a841fbb37ca7-AdyenDemo',
    });
    expect(problems({ ...ADYEN, ADYEN_CHECKOUT_URL: 'http://127.0.0.1:4010', NODE_ENV: 'production' })).toContain(
      'ADYEN_CHECKOUT_URL: must be https://',
    );
  });
});

describe('the Adyen code tables', () => {
  it('map every resultCode of Adyen’s Checkout v71 definition, and no other', () => {
    const definition = JSON.parse(readFileSync(CHECKOUT_DEFINITION, 'utf8')) as {
      components: { schemas: { PaymentResponse: { properties: { resultCode: { enum: string[] } } } } };
    };
    const codes = definition.components.schemas.PaymentResponse.properties.resultCode.enum;
    expect(Object.keys(RESULT_CODE_OUTCOMES).sort()).toEqual([...codes].sort());
    expect(RESULT_CODE_OUTCOMES.Authorised).toBe('authorised');
    expect(RESULT_CODE_OUTCOMES.RedirectShopper).toBe('challenge');
    expect(RESULT_CODE_OUTCOMES.Received).toBe('processing');
  });

  it('refusal reasons map by code or by text, with the kind the dunning reads', () => {
    expect(declineCodeFor({ code: '12' })).toBe('insufficient_funds');
    expect(declineCodeFor({ reason: 'Not enough balance' })).toBe('insufficient_funds');
    expect(declineCodeFor({ code: '6', reason: 'ignored' })).toBe('expired_card');
    expect(declineCodeFor({ code: '24' })).toBe('incorrect_cvc');
    expect(declineCodeFor({ code: '9' })).toBe('processing_error');
    expect(declineCodeFor({ code: '999', reason: 'Something new' })).toBeUndefined();
    const soft = Object.entries(REFUSAL_REASONS)
      .filter(([, entry]) => SOFT_DECLINE_CODES.has(entry.code))
      .map(([code]) => code);
    expect(soft).toEqual(['4', '9', '12', '21', '28', '29']);
  });
});
