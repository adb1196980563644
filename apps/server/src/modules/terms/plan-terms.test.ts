import { buildPlanCatalog } from '@roots/contracts';
import { describe, expect, it } from 'vitest';
import { periodEnd, planTerms } from './plan-terms';

const catalog = buildPlanCatalog('roots');

describe('plan terms', () => {
  it('charges the trial price for 3 days, then the weekly price every 7 days', () => {
    const terms = planTerms(catalog, 'roots_3d1_7d2499')!;
    expect(terms).toMatchObject({
      firstAmountMinor: 100,
      renewalAmountMinor: 2499,
      hasTrial: true,
      recurring: true,
      access: 'subscription',
    });
    expect(terms.firstPeriod).toEqual({ unit: 'day', count: 3 });
    expect(terms.renewalPeriod).toEqual({ unit: 'day', count: 7 });
    expect(terms.disclosure.terms_text).toContain('Today you pay $1 for your 3-day trial.');
  });

  it('treats one-time packs and one-month purchases as non-renewing', () => {
    expect(planTerms(catalog, 'roots_ultimate_pack_4999_otp')).toMatchObject({
      firstAmountMinor: 4999,
      renewalAmountMinor: null,
      firstPeriod: null,
      access: 'ultimate_pack',
    });
    expect(planTerms(catalog, 'roots_premium_one_month')).toMatchObject({
      firstAmountMinor: 1399,
      recurring: false,
      firstPeriod: { unit: 'month', count: 1 },
    });
    expect(planTerms(catalog, 'roots_nope')).toBeUndefined();
  });

  it('adds calendar months at month ends', () => {
    expect(periodEnd(new Date('2026-01-31T10:00:00Z'), { unit: 'month', count: 1 }).toISOString()).toBe('2026-02-28T10:00:00.000Z');
    expect(periodEnd(new Date('2026-01-31T10:00:00Z'), { unit: 'month', count: 3 }).toISOString()).toBe('2026-04-30T10:00:00.000Z');
  });
});
