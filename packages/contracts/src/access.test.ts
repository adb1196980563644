import { describe, expect, it } from 'vitest';
import {
  ACCESS_GIVES,
  ACCESS_INCLUDES,
  ACCESS_KINDS,
  FACE_ANALYSIS_ACCESS_KINDS,
  accessKindForPlan,
  coveredAccess,
  includesFaceAnalysis,
  planGives,
} from './access';
import { buildPlanCatalog } from './plans';
import { sellablePlans } from './plan-claims';

describe('what a purchase gives (issue 35, ADR 194)', () => {
  it('Profile Pro includes the heritage report of its buyer’s selfie, and so the face analysis', () => {
    expect([...coveredAccess(['profile_pro'])]).toEqual(['profile_pro', 'report']);
    expect(includesFaceAnalysis(['profile_pro'])).toBe(true);
    expect(FACE_ANALYSIS_ACCESS_KINDS).toContain('profile_pro');
    // The Ultimate Pack still holds both; nothing live holds nothing.
    expect([...coveredAccess(['ultimate_pack'])].sort()).toEqual(['profile_pro', 'report', 'ultimate_pack']);
    expect(includesFaceAnalysis([])).toBe(false);
  });

  it('whatever includes a report includes the face analysis (the geo policy and the report rights agree)', () => {
    for (const kind of ACCESS_KINDS) if (coveredAccess([kind]).has('report')) expect(FACE_ANALYSIS_ACCESS_KINDS, kind).toContain(kind);
    for (const [kind, included] of Object.entries(ACCESS_INCLUDES)) expect(included, kind).not.toContain(kind);
  });

  it('every product sold says in one line what it gives', () => {
    const plans = sellablePlans(buildPlanCatalog('roots'));
    expect(plans).toHaveLength(11);
    for (const plan of plans) expect(planGives(plan.id), plan.id).toBe(ACCESS_GIVES[accessKindForPlan(plan.id)]);
    for (const kind of ACCESS_KINDS) {
      expect(ACCESS_GIVES[kind].length, kind).toBeGreaterThan(30);
      expect(ACCESS_GIVES[kind], kind).not.toContain('\n');
    }
    // Profile Pro says what the paywall's selfie notice implies: a report made from the buyer's selfie.
    expect(planGives('roots_profile_pro_2899_otp')).toMatch(/^Your heritage profile from one selfie: a report of /);
    expect(planGives('roots_profile_pro_1499_otp')).toBe(planGives('roots_profile_pro_2899_otp'));
    // The one-time packs say they last; the subscription that it lasts while the plan runs.
    for (const id of ['roots_profile_pro_2899_otp', 'roots_report_2899_otp', 'roots_ultimate_pack_4999_otp'])
      expect(planGives(id), id).toMatch(/for good/);
    expect(planGives('roots_3d1_7d2499')).toMatch(/for as long as your plan runs/);
  });
});
