import { describe, expect, it } from 'vitest';
import { buildPlanCatalog } from './plans';
import { subscriptionApiBaseUrl } from './subscription-api';
import { consentTermsOf, createNoUserRequestSchema } from './subscriptions';

const consent = { terms_text: 't', terms_version: 'v' };

describe('subscription contracts', () => {
  it('uses the staging base URL when the origin contains dev (product-spec §7)', () => {
    const urls = { production: 'https://api.roots.example/', staging: 'https://api.staging.roots.example' };
    expect(subscriptionApiBaseUrl('https://dev.roots.example', urls)).toBe('https://api.staging.roots.example');
    expect(subscriptionApiBaseUrl('https://roots.example', urls)).toBe('https://api.roots.example');
  });

  it('accepts a payment reference or an add-on, never card data', () => {
    const base = { plan_id: 'roots_3d1_7d2499', email: 'a@b.co' };
    expect(createNoUserRequestSchema.safeParse({ ...base, instrument: { execution_id: 'exe_1' }, consent }).success).toBe(true);
    expect(createNoUserRequestSchema.safeParse({ ...base, card: { execution_id: 'exe_1' }, consent }).success).toBe(true);
    expect(createNoUserRequestSchema.safeParse({ ...base, subscription_id: '00000000-0000-4000-8000-000000000000' }).success).toBe(true);
    expect(
      createNoUserRequestSchema.safeParse({ ...base, card: { execution_id: 'exe_1', number: '4242424242424242' }, consent }).success,
    ).toBe(false);
    expect(
      createNoUserRequestSchema.safeParse({ ...base, card: { execution_id: 'a' }, instrument: { execution_id: 'b' }, consent }).success,
    ).toBe(false);
    expect(createNoUserRequestSchema.safeParse({ ...base, instrument: { execution_id: 'exe_1' } }).success).toBe(false);
  });

  it('discloses the trial, the renewal price and the period next to the pay button', () => {
    const [weekly] = buildPlanCatalog('roots').plans;
    expect(consentTermsOf(weekly!).terms_text).toBe(
      'Today you pay $1 for your 3-day trial. Then $24.99 every week, charged automatically to the same card until you cancel. Cancel anytime before the next charge: in your account under Manage subscriptions, or with your email on the cancel page. Cancelling takes two clicks.',
    );
  });
});
