// @vitest-environment jsdom
import { afterEach, describe, expect, it } from 'vitest';
import type { Execution, SdkInitPayload } from '@roots/contracts/gateway';
import { initCheckout, type CheckoutClient } from '../../client/checkout-client';
import { runPayment } from '../../payment/payment-flow';
import { validatePaymentMethod } from '../config/client-config';
import { validateCollectOptions } from '../config/collect-validation';
import { GatewayClient } from '../http/gateway-client';
import { BearerTokenCache } from '../security/bearer-token-cache';
import { GATEWAY_UNAUTHORIZED_MESSAGE } from '@roots/contracts/gateway-constants';
import { CHECKOUT_MESSAGES, CheckoutError, VALIDATION_ERROR_CODES } from './checkout-error';

/**
 * The validation catalogue of checkout-spec §5 and §8: every code of VALIDATION_ERROR_CODES,
 * each triggered through the API an integrator calls (client init, containers, elements, the
 * drop-in, the payment flow). The type makes a new code without a row a compile error too.
 */

type ValidationErrorCode = (typeof VALIDATION_ERROR_CODES)[number];

const base64url = (value: object) => btoa(JSON.stringify(value)).replace(/=+$/, '').replace(/\+/g, '-').replace(/\//g, '_');
const jwt = (exp: number) => `${base64url({ alg: 'HS256' })}.${base64url({ exp })}.signature`;
const validToken = jwt(Math.floor(Date.now() / 1000) + 3600);
const gateway = 'https://gw.example';
const session = {
  sessionId: 'ses_1',
  bearerToken: validToken,
  expiresAt: new Date(Date.now() + 3_600_000).toISOString(),
  gatewayOrigin: gateway,
  vaultURL: `${gateway}/vault`,
  vaultProviderConfigId: 'vault',
  executionId: 'exe_1',
  amount: { value: 2499, currency: 'USD' },
  holderReference: 'holder',
  paymentMethods: [{ code: 'genericRedirect', integrationType: 'hpp', label: 'Roots Pay', clientConfig: { flow: 'redirect' } }],
  links: {
    execution: `${gateway}/v1/executions/exe_1`,
    authorize: `${gateway}/v1/executions/exe_1/authorize`,
    saveInstrument: `${gateway}/v1/instruments`,
    binLookup: `${gateway}/v1/bin-lookup`,
    instruments: `${gateway}/v1/instruments`,
    countries: `${gateway}/countries.json`,
    applePaySession: `${gateway}/v1/wallets/apple-pay/session`,
    tokenize: `${gateway}/vault/v1/tokens`,
  },
} satisfies SdkInitPayload;

const client = (): CheckoutClient => initCheckout({ session, getBearerToken: () => validToken, options: { env: 'SANDBOX' } }, window);
const init = (options: Record<string, unknown>) => () => initCheckout({ session, getBearerToken: () => validToken, ...options } as never);
const create = (options: unknown) => () => client().container('COLLECT').create(options);
const collect = (options: unknown) => () => validateCollectOptions(options);
const element = () => client().container('COLLECT').create({ type: 'CVV' });
const record = { table: 'cards', fields: { name: 'x' } };
const rule = (validation: unknown) => create({ type: 'INPUT_FIELD', validations: [validation] });

const TRIGGERS: Record<ValidationErrorCode, () => unknown> = {
  INVALID_RECORDS: collect({ additionalFields: { records: 'x' } }),
  EMPTY_RECORDS: collect({ additionalFields: { records: [] } }),
  MISSING_RECORDS: collect({ additionalFields: {} }),
  INVALID_TABLE: collect({ additionalFields: { records: [{ table: 3, fields: { a: 1 } }] } }),
  MISSING_TABLE: collect({ upsert: [{ column: 'c' }] }),
  EMPTY_TABLE: create({ type: 'CVV', table: ' ' }),
  INVALID_FIELDS: collect({ additionalFields: { records: [{ table: 't', fields: [] }] } }),
  MISSING_FIELDS: collect({ additionalFields: { records: [{ table: 't' }] } }),
  EMPTY_FIELDS: collect({ additionalFields: { records: [{ table: 't', fields: {} }] } }),
  INVALID_SKYFLOW_ID: create({ type: 'CVV', skyflowID: 1 }),
  EMPTY_SKYFLOW_ID: collect({ additionalFields: { records: [{ ...record, skyflowID: '' }] } }),
  INVALID_ELEMENT_TYPE: create({ type: 'IBAN' }),
  MISSING_ELEMENT_TYPE: create({}),
  EMPTY_ELEMENT_TYPE: create({ type: '' }),
  INVALID_UPSERT: collect({ upsert: {} }),
  EMPTY_UPSERT: collect({ upsert: [] }),
  INVALID_COLUMN: create({ type: 'CVV', column: 2 }),
  MISSING_COLUMN: collect({ upsert: [{ table: 't' }] }),
  EMPTY_COLUMN: collect({ upsert: [{ table: 't', column: '' }] }),
  INVALID_TOKENS: () =>
    client()
      .container('COLLECT')
      .collect({ tokens: 'yes' } as never),
  INVALID_REQUIRED: create({ type: 'CVV', required: 'yes' }),
  INVALID_ENABLE_CARD_ICON: create({ type: 'CARD_NUMBER', enableCardIcon: 1 }),
  INVALID_VALIDATIONS: create({ type: 'CVV', validations: {} }),
  INVALID_VALIDATION_RULE_TYPE: rule({ type: 'FOO', params: {} }),
  INVALID_VALIDATION_RULE_PARAMS: rule({ type: 'REGEX_MATCH_RULE' }),
  INVALID_REGEX: rule({ type: 'REGEX_MATCH_RULE', params: { regex: '([' } }),
  MISSING_MIN_MAX: rule({ type: 'LENGTH_MATCH_RULE', params: {} }),
  MISSING_ELEMENT_IN_ELEMENT_MATCH: rule({ type: 'ELEMENT_VALUE_MATCH_RULE', params: {} }),
  INVALID_ELEMENT_IN_ELEMENT_MATCH: rule({ type: 'ELEMENT_VALUE_MATCH_RULE', params: { element: 'ghost' } }),
  INVALID_EVENT_LISTENER: () => element().on('KEYDOWN' as never, () => {}),
  INVALID_EVENT_HANDLER: () =>
    client()
      .createDropin()
      .on('success', 'nope' as never),
  INVALID_CONTAINER_TYPE: () => client().container('GRID' as never),
  INVALID_COMPOSABLE_OPTIONS: () => client().container('COMPOSABLE', 'x' as never),
  MISSING_LAYOUT: () => client().container('COMPOSABLE', {} as never),
  INVALID_LAYOUT: () => client().container('COMPOSABLE', { layout: ['1'] } as never),
  EMPTY_LAYOUT: () => client().container('COMPOSABLE', { layout: [] }),
  NEGATIVE_LAYOUT_VALUE: () => client().container('COMPOSABLE', { layout: [1, -1] }),
  LAYOUT_ELEMENT_COUNT_MISMATCH: () => {
    const container = client().container('COMPOSABLE', { layout: [1, 1] });
    container.create({ type: 'CARD_NUMBER' });
    container.mount(document.body);
  },
  NON_UNIQUE_ELEMENT_NAME: () => {
    const container = client().container('COLLECT');
    container.create({ type: 'CVV', table: 'cards', column: 'cvv' });
    container.create({ type: 'CVV', table: 'cards', column: 'cvv' });
  },
  DUPLICATE_ELEMENT: () => {
    const container = client().container('COLLECT');
    container.create({ type: 'CARD_NUMBER', name: 'first' });
    container.create({ type: 'CARD_NUMBER', name: 'second' });
  },
  INVALID_ELEMENT_SELECTOR: () => element().mount('#nowhere'),
  EMPTY_ELEMENT_IN_MOUNT: () => element().mount(''),
  CONTAINER_MOUNT_FAILED: () => client().container('COLLECT').mount(document.body),
  MISSING_GET_BEARER_TOKEN: () => initCheckout({ session } as never),
  CANNOT_CHANGE_ELEMENT_NAME_OR_TYPE: () => element().update({ type: 'PIN' }),
  MISSING_VALUE: create({ type: 'RADIO' }),
  INVALID_DROPDOWN_OPTIONS: create({ type: 'DROPDOWN', options: [] }),
  INVALID_MASK: create({ type: 'INPUT_FIELD', mask: [1] }),
  INVALID_REPLACE_PATTERN: create({ type: 'INPUT_FIELD', replacePattern: [/x/] }),
  INVALID_FORMAT: create({ type: 'INPUT_FIELD', format: 3 }),
  INVALID_TRANSLATION: create({ type: 'INPUT_FIELD', translation: 'x' }),
  INVALID_CUSTOM_ELEMENTS_URL: init({ options: { customElementsURL: 'http://frames.example' } }),
  INVALID_VAULT_URL: init({ vaultURL: 'vault' }),
  INVALID_LOG_LEVEL: init({ options: { logLevel: 'LOUD' } }),
  INVALID_ENV: init({ options: { env: 'STAGING' } }),
  DUPLICATE_LAYOUT_FIELD: () => client().createCardForm({ layout: [['card_number'], ['card_number']] }),
  CARD_FORM_COLLECT_ELEMENT_NOT_MOUNTED: () => {
    const container = client().container('COLLECT');
    container.create({ type: 'CARD_NUMBER' });
    return container.collect();
  },
  CLIENT_UI_ELEMENT_MISSING: () => client().createDropin().pay(),
  PARENT_ELEMENT_MISSING: () => element().mount(document.createElement('div')),
  INVALID_BEARER_TOKEN: () =>
    new BearerTokenCache({ getBearerToken: () => jwt(Math.floor(Date.now() / 1000) - 60), logError: () => {} }).get(),
  CONFIG_MALFORMED: () => validatePaymentMethod({ code: 'card' }),
  MISSING_PAYMENT_METHOD_CODE: () => validatePaymentMethod({ integrationType: 'api' }),
  REDIRECT_LINK_MISSING: async () => {
    const pending = { id: 'exe_1', status: 'authorizePending', links: { execution: session.links.execution } } as Execution;
    const api = { authorize: async () => pending, getExecution: async () => pending } as unknown as GatewayClient;
    const returnInfo = { success: 'https://shop/s', cancel: 'https://shop/c', error: 'https://shop/e', pending: 'https://shop/p' };
    const outcome = await runPayment(
      { api, session, window, returnInfo },
      { paymentMethodCode: 'genericRedirect', integrationType: 'hpp', storeInstrument: false },
    );
    if (outcome.kind === 'failure') throw new CheckoutError(outcome.code, outcome.message);
  },
  CLIENT_CONFIG_MALFORMED: () => initCheckout({ getBearerToken: () => validToken } as never),
  COLLECT_CREATION_FAILED: create({ type: 'CARD_NUMBER', rejectedNetworks: ['cheques'] }),
  COLLECT_OPERATION_FAILED: () =>
    client()
      .container('COLLECT')
      .collect('nope' as never),
  API_URL_NOT_FOUND: () => new GatewayClient({ getToken: async () => validToken }).request(''),
  VALIDATION_FAILED: async () => {
    const dropin = client().createDropin({ onBeforePay: () => false });
    await dropin.mount(document.body);
    const outcome = await dropin.pay();
    if (outcome?.kind === 'failure') throw new CheckoutError(outcome.code, outcome.message);
  },
};

/** The code a trigger fails with (sync throw or rejection); undefined when it does not fail. */
async function codeOf(trigger: () => unknown): Promise<string | undefined> {
  try {
    await trigger();
  } catch (error) {
    expect(error).toBeInstanceOf(CheckoutError);
    return (error as CheckoutError).code;
  }
  return undefined;
}

afterEach(() => {
  document.body.replaceChildren();
});

describe('validation error catalogue (checkout-spec §5, §8)', () => {
  it('has a trigger for every validation code', () => {
    expect(Object.keys(TRIGGERS).sort()).toEqual([...VALIDATION_ERROR_CODES].sort());
  });

  it.each(Object.entries(TRIGGERS))('%s', async (code, trigger) => {
    expect(await codeOf(trigger)).toBe(code);
  });

  it('prefixes every code with the provider prefix', () => {
    expect(new CheckoutError('INVALID_TABLE').fullCode).toBe('ROOTS_INVALID_TABLE');
  });
});

describe('texts the gateway sends too', () => {
  it("unauthorized is the gateway's own text", () => {
    expect(CHECKOUT_MESSAGES.unauthorized).toBe(GATEWAY_UNAUTHORIZED_MESSAGE);
  });
});
