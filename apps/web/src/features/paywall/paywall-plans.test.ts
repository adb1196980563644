import { buildPlanCatalog } from '@roots/contracts';
import { describe, expect, it } from 'vitest';
import { resolvePaywallPlans } from './paywall-plans';

const catalog = buildPlanCatalog('roots');

describe('paywall plan resolution', () => {
  it('defaults to the weekly trial plan when plan is missing', () => {
    const result = resolvePaywallPlans(new URLSearchParams(''), catalog);
    expect(result.plan.id).toBe('roots_3d1_7d2499');
    expect(result.unknown).toEqual([]);
  });

  it('uses a known plan and offer parameters', () => {
    const result = resolvePaywallPlans(new URLSearchParams('plan=roots_3m4800_3m4999&ult_pack=roots_ultimate_pack_4999_otp'), catalog);
    expect(result.plan.id).toBe('roots_3m4800_3m4999');
    expect(result.byParam.ult_pack?.sum).toBe(49.99);
  });

  it('reports every unknown plan id with its parameter and falls back to the default plan', () => {
    const result = resolvePaywallPlans(new URLSearchParams('plan=roots_nope&profile_pro=kin_profile_pro_2899_otp'), catalog);
    expect(result.plan.id).toBe('roots_3d1_7d2499');
    expect(result.unknown).toEqual([
      { param: 'plan', value: 'roots_nope' },
      { param: 'profile_pro', value: 'kin_profile_pro_2899_otp' },
    ]);
  });
});
