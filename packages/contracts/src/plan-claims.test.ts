import { describe, expect, it } from 'vitest';
import { buildPlanCatalog, type Plan } from './plans';
import { DEFAULT_PRODUCT_COPY } from './product-defaults';
import { claimContradictions, contradictedClaims, planAccountSummary, planClaims, readClaimFacts, struckPrice } from './plan-claims';

const catalog = buildPlanCatalog('roots');
const plan = (suffix: string): Plan => catalog.plans.find((p) => p.id === `roots_${suffix}`)!;
const context = { guaranteeDays: 30 };

describe('reading what a claim says', () => {
  it('reads trial length, discount, renewal period, prices and the refund window', () => {
    expect(readClaimFacts('7-day trial')).toMatchObject({ trialDays: 7, mentionsTrial: true });
    expect(readClaimFacts('Try it with a trial of two weeks').trialDays).toBe(14);
    expect(readClaimFacts('Get 85% Discount Today').discountPercent).toBe(85);
    expect(readClaimFacts('Save 40% now').discountPercent).toBe(40);
    expect(readClaimFacts('100% money back guarantee').discountPercent).toBeNull();
    expect(readClaimFacts('renews automatically every week').renewalPeriodDays).toBe(7);
    expect(readClaimFacts('billed every 3 months').renewalPeriodDays).toBe(90);
    expect(readClaimFacts('a monthly plan').renewalPeriodDays).toBe(30);
    expect(readClaimFacts('only $1 then $24.99').amounts).toEqual([1, 24.99]);
    expect(readClaimFacts('write within 14 days').windowDays).toBe(14);
  });
});

describe('claims against the plan on screen', () => {
  it('finds the contradictions of the issue: a 7-day trial and weekly renewal beside other plans', () => {
    expect(claimContradictions('7-day trial', plan('3d1_7d2499'), context)).toEqual(['says a 7-day trial; the plan has a 3-day trial']);
    expect(claimContradictions(DEFAULT_PRODUCT_COPY.renewalClaim, plan('3m4800_3m4999'), context)).toHaveLength(1);
    expect(claimContradictions('Get 85% Discount Today', plan('3m4800_3m4999'), context)[0]).toContain('78%');
    expect(claimContradictions('Only $9.99', plan('3d1_7d2499'), context)[0]).toContain('$9.99');
    expect(claimContradictions('Refund within 14 days', plan('3d1_7d2499'), context)[0]).toContain('30 days');
    expect(claimContradictions('renews until you cancel', plan('ultimate_pack_4999_otp'), context)).toEqual([
      'says it renews; the plan is a one-time purchase',
    ]);
  });

  it('lets the default copy through on the default plan, so a plain start has nothing to warn about', () => {
    expect(contradictedClaims(DEFAULT_PRODUCT_COPY, [catalog.plans[0]!], context)).toEqual([]);
  });

  it('replaces every untrue claim with the plan-derived one, for every plan of the catalog', () => {
    const copy = { ...DEFAULT_PRODUCT_COPY, trialClaim: '7-day trial' };
    for (const p of catalog.plans) {
      const claims = planClaims(copy, p, context);
      const shown = [claims.discountHeadline, claims.trialClaim, claims.guaranteeClaim, claims.guaranteeText, claims.renewalClaim];
      for (const sentence of shown) if (sentence) expect(claimContradictions(sentence, p, context), `${p.id}: ${sentence}`).toEqual([]);
      // No plan of the default catalog has a reference price its discount is computed from (ADR 148).
      expect(claims.discountHeadline, p.id).toBeNull();
      expect(claims.trialClaim === null).toBe(!(p.trial_sum !== undefined && p.trial_length === '3d'));
      expect(claims.renewalClaim === null).toBe(p.length === 'lifetime');
    }
    expect(planClaims(copy, plan('3d1_7d2499'), context).trialClaim).toBe('3-day trial');
    expect(planClaims(DEFAULT_PRODUCT_COPY, plan('3m4800_3m4999'), context).renewalClaim).toBe(
      'Your plan renews automatically every 3 months until cancelled.',
    );
  });

  it('keeps a configured claim that is true of the plan', () => {
    const copy = { ...DEFAULT_PRODUCT_COPY, trialClaim: 'Three-day trial for $1' };
    expect(planClaims(copy, plan('3d1_7d2499'), context).trialClaim).toBe('Three-day trial for $1');
    expect(planClaims(copy, plan('3d5_7d2499'), context).trialClaim).toBe('3-day trial');
  });

  it('promises no money back when no guarantee is configured', () => {
    const claims = planClaims(DEFAULT_PRODUCT_COPY, plan('3d1_7d2499'), { guaranteeDays: 0 });
    expect(claims.guaranteeClaim).toBeNull();
    expect(claims.guaranteeText).toBeNull();
  });
});

describe('a discount is said only beside its struck reference price (ADR 148)', () => {
  it('says no discount for a plan without a reference price, whatever the copy says', () => {
    // The issue: 'Get 78% Discount Today' beside '$48 then $49.99', with nothing it is 78% off.
    const threeMonth = plan('3m4800_3m4999');
    expect(threeMonth.prev_price).toBeUndefined();
    expect(
      planClaims({ ...DEFAULT_PRODUCT_COPY, discountClaim: 'Get 78% Discount Today' }, threeMonth, context).discountHeadline,
    ).toBeNull();
  });

  it('says no discount where the reference price does not give the stated saving ($9.99 → $1 is 90%, not 85%)', () => {
    expect(planClaims(DEFAULT_PRODUCT_COPY, plan('3d1_7d2499'), context).discountHeadline).toBeNull();
  });

  it('says the discount together with the struck price it is computed from, both from the plan', () => {
    const [weekly] = buildPlanCatalog('roots', { roots_3d1_7d2499: { prev_price: 6.67 } }).plans;
    const claims = planClaims(DEFAULT_PRODUCT_COPY, weekly!, context);
    expect(claims.discountHeadline).toBe('Get 85% Discount Today');
    expect(claims.struckPrice).toEqual({ previous: 6.67, current: 1, percentOff: 85 });
  });
});

describe('struck-through price', () => {
  it('is not shown where the saving on screen is not the plan discount ($9.99 → $1 is 90%, not 85%)', () => {
    expect(struckPrice(plan('3d1_7d2499'))).toBeNull();
  });

  it('is shown when the arithmetic holds', () => {
    const [weekly] = buildPlanCatalog('roots', { roots_3d1_7d2499: { prev_price: 6.67 } }).plans;
    expect(struckPrice(weekly!)).toEqual({ previous: 6.67, current: 1, percentOff: 85 });
  });
});

describe("the account's words for a purchase (product-spec §3 plan summary)", () => {
  it('names each plan with its recurring price, period and status; single purchases as charged once', () => {
    const summary = (suffix: string) => planAccountSummary(catalog, `roots_${suffix}`);
    expect(summary('3d1_7d2499')).toEqual({ name: 'Weekly Plan', price: 24.99, period: 'every week', status: 'Trial' });
    expect(summary('3m4800_3m4999')).toEqual({ name: '3-Month Plan', price: 49.99, period: 'every 3 months', status: 'Premium' });
    expect(summary('report_1499_otp')).toEqual({ name: 'Heritage Report', price: 14.99, period: 'one-time purchase', status: 'Premium' });
    expect(summary('premium_one_month')).toEqual({
      name: 'Premium Plan',
      price: 13.99,
      period: 'one month, charged once',
      status: 'Premium',
    });
    expect(summary('gift_one_month')).toEqual({ name: 'Gift Plan', price: 19.99, period: 'one month, charged once', status: 'Gift' });
    expect(planAccountSummary(catalog, 'roots_unknown')).toBeNull();
  });
});
