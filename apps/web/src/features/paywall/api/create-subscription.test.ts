import {
  createNoUserApplePayRequestSchema,
  createNoUserRequestSchema,
  createSignedInApplePayRequestSchema,
  createSignedInRequestSchema,
} from '@roots/contracts/subscriptions';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createSubscription, purchaseCall, type PurchaseInput } from './create-subscription';

afterEach(() => vi.unstubAllGlobals());

const base: PurchaseInput = {
  planId: 'roots_3d1_7d2499',
  email: 'ada@example.com',
  executionId: 'exe_1',
  consent: { terms_text: 'Today you pay $1.', terms_version: 'v1' },
  attribution: { project: 'roots', country_code: 'GB' },
};
const wallet = {
  code: 'applePay' as const,
  token: { paymentData: { version: 'EC_v1' }, transactionIdentifier: 'T1' },
  displayName: 'Ada Lovelace',
  address: {
    first_name: 'Ada',
    last_name: 'Lovelace',
    country: 'GB',
    state: '',
    zip: 'W1 1AA',
    city: 'London',
    address: '12 St James Square',
    address2: '',
    phone: '+44 20 7946 0000',
  },
};

describe('purchaseCall (product-spec §7: which create call a purchase makes)', () => {
  it('a visitor paying by card: /subs/create-no-user with the execution', () => {
    const call = purchaseCall(base);
    expect(call.path).toBe('/subs/create-no-user');
    expect(createNoUserRequestSchema.parse(call.body)).toMatchObject({ card: { execution_id: 'exe_1' }, attribution: base.attribution });
  });

  it('a visitor paying by Apple Pay: /subs/create-no-user-applepay with token, address, display name and vault', () => {
    const call = purchaseCall({ ...base, wallet, vault: 'true' });
    expect(call.path).toBe('/subs/create-no-user-applepay');
    expect(createNoUserApplePayRequestSchema.parse(call.body)).toEqual({
      plan_id: base.planId,
      email: base.email,
      execution_id: 'exe_1',
      token: wallet.token,
      address: wallet.address,
      display_name: 'Ada Lovelace',
      vault: 'true',
      attribution: base.attribution,
      consent: base.consent,
    });
    expect(purchaseCall({ ...base, wallet }).body).not.toHaveProperty('vault');
  });

  it('a signed-in buyer: /subs/create and /subs/create-applepay with the identity attached', () => {
    const card = purchaseCall({ ...base, signedInUserId: 'user_1' });
    expect(card.path).toBe('/subs/create');
    expect(createSignedInRequestSchema.parse(card.body)).toMatchObject({ firebase_id: 'user_1', card: { execution_id: 'exe_1' } });
    const applePay = purchaseCall({ ...base, wallet, signedInUserId: 'user_1' });
    expect(applePay.path).toBe('/subs/create-applepay');
    expect(createSignedInApplePayRequestSchema.parse(applePay.body)).toMatchObject({
      firebase_id: 'user_1',
      execution_id: 'exe_1',
      token: wallet.token,
      address: wallet.address,
    });
  });
});

describe('createSubscription', () => {
  it('acts only on an answer naming the subscription', async () => {
    const answers = [{ id: '6f1c1d3e-8a47-4c0e-9d55-0d3c2f7a9b10' }, {}];
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => new Response(JSON.stringify(answers.shift()), { status: 200, headers: { 'content-type': 'application/json' } })),
    );
    await expect(createSubscription(base)).resolves.toEqual({ id: '6f1c1d3e-8a47-4c0e-9d55-0d3c2f7a9b10' });
    await expect(createSubscription(base)).rejects.toThrow('Something went wrong, cant create subscription');
    expect(vi.mocked(fetch).mock.calls[0]![0]).toBe('/subs/create-no-user');
  });
});
