import { describe, expect, it } from 'vitest';
import { buildPlanCatalog, describePlanLength, firstChargeAmount, planSummary, UnknownPlanError } from './plans';

describe('plan catalog', () => {
  it("states each recurring plan's trial and flags as its id spells them (product-spec §9: {trial}{price}_{length}{price})", () => {
    const recurring = buildPlanCatalog('roots').plans.filter((plan) => plan.length !== 'lifetime');
    expect(recurring).toHaveLength(4);
    for (const plan of recurring) {
      const [, trialCount, trialUnit, length, cents] = /_(\d)(d|m)\d+_(\d[dm])(\d+)$/.exec(plan.id) ?? [];
      const trialLength = `${trialCount}${trialUnit}`;
      expect({ id: plan.id, trial_length: plan.trial_length, length: plan.length, sum: plan.sum }).toEqual({
        id: plan.id,
        trial_length: trialLength,
        length,
        sum: Number(cents) / 100,
      });
      // A days-long trial is a trial; a 3-month plan's first period is a paid introductory one.
      expect({ id: plan.id, isTrial: plan.isTrial ?? false, isThreeMonthPlan: plan.isThreeMonthPlan ?? false }).toEqual({
        id: plan.id,
        isTrial: trialUnit === 'd',
        isThreeMonthPlan: length === '3m',
      });
    }
  });

  it('gives no trial, trial price or flag to a one-time purchase', () => {
    const oneTime = buildPlanCatalog('roots').plans.filter((plan) => plan.length === 'lifetime');
    expect(oneTime).toHaveLength(5);
    for (const plan of oneTime)
      expect([plan.id, plan.trial_length, plan.trial_sum, plan.isTrial, plan.isThreeMonthPlan]).toEqual([
        plan.id,
        undefined,
        undefined,
        undefined,
        undefined,
      ]);
  });

  it('has the nine plans of product-spec §9 with the slug as prefix', () => {
    const catalog = buildPlanCatalog('roots');
    expect(catalog.plans.map((p) => [p.id, p.trial_sum ?? null, p.sum, p.length, p.discount_percent])).toEqual([
      ['roots_3d1_7d2499', 1, 24.99, '7d', 85],
      ['roots_3m4800_3m4999', 48, 49.99, '3m', 78],
      ['roots_ultimate_pack_4999_otp', null, 49.99, 'lifetime', 50],
      ['roots_profile_pro_2899_otp', null, 28.99, 'lifetime', 33],
      ['roots_profile_pro_1499_otp', null, 14.99, 'lifetime', 65],
      ['roots_report_2899_otp', null, 28.99, 'lifetime', 45],
      ['roots_report_1499_otp', null, 14.99, 'lifetime', 72],
      ['roots_3m4800_3m4900', 48, 49, '3m', 78],
      ['roots_3d5_7d2499', 5, 24.99, '7d', 85],
    ]);
    expect(catalog.plans[0]!.prev_price).toBe(9.99);
    expect(catalog.defaultPlanId).toBe('roots_3d1_7d2499');
    expect(catalog.singlePurchases.map((s) => s.id)).toEqual(['roots_premium_one_month', 'roots_gift_one_month']);
  });

  it('uses another slug everywhere', () => {
    const catalog = buildPlanCatalog('kin');
    expect(catalog.plans.every((p) => p.id.startsWith('kin_'))).toBe(true);
  });

  it('applies overrides and rejects unknown ids', () => {
    const catalog = buildPlanCatalog('roots', { roots_3d5_7d2499: { trial_sum: 4 } });
    expect(catalog.plans.find((p) => p.id === 'roots_3d5_7d2499')!.trial_sum).toBe(4);
    expect(() => buildPlanCatalog('roots', { roots_nope: { sum: 1 } })).toThrow(UnknownPlanError);
  });

  it('charges the trial price first when there is one', () => {
    const [weekly, , ultimate] = buildPlanCatalog('roots').plans;
    expect(firstChargeAmount(weekly!)).toBe(1);
    expect(firstChargeAmount(ultimate!)).toBe(49.99);
  });
});

describe('plan summary lookup', () => {
  it.each([
    ['roots_premium_one_month', 'Premium Plan', 13.99, 'Premium', 'every 1 month'],
    ['roots_gift_one_month', 'Gift Plan', 19.99, 'Gift', 'every 1 month'],
    ['roots_3m4800_3m4900', '3-Month Plan', 49, 'Premium', 'every 3 month'],
    ['roots_3m4800_3m4999', '3-Month Plan', 49.99, 'Premium', 'every 3 month'],
    ['roots_3d5_7d2499', 'Weekly Plan', 5, 'Trial', 'every week'],
    ['roots_3d1_7d2499', 'Weekly Plan', 1, 'Trial', 'every week'],
    ['anything', 'Weekly Plan', 1, 'Trial', 'every week'],
  ])('%s → %s %s', (id, name, price, status, billingPeriod) => {
    expect(planSummary(id)).toEqual({ name, price, status, billingPeriod });
  });
});

describe('plan length words of the disclosure next to the pay button', () => {
  it('says 3 days, week, 3 months, lifetime', () => {
    expect((['3d', '7d', '3m', 'lifetime'] as const).map(describePlanLength)).toEqual(['3 days', 'week', '3 months', 'lifetime']);
  });
});
