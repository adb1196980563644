import { buildPlanCatalog } from '@roots/contracts';
import { describe, expect, it } from 'vitest';
import { resolveOffers } from './offer-plans';

const catalog = buildPlanCatalog('roots');
const ids = (query: string) => resolveOffers(new URLSearchParams(query), catalog, 'roots').offers.map((o) => o.plan.id);

describe('offers by query parameters', () => {
  it('shows the full-price packs by default', () => {
    expect(ids('')).toEqual(['roots_ultimate_pack_4999_otp', 'roots_profile_pro_2899_otp', 'roots_report_2899_otp']);
  });
  it('uses the discounted parameters with additional_offer_dc=true', () => {
    expect(ids('additional_offer_dc=true&profile_pro_s=roots_profile_pro_1499_otp')).toEqual([
      'roots_ultimate_pack_4999_otp',
      'roots_profile_pro_1499_otp',
      'roots_report_1499_otp',
    ]);
  });
  it('honours explicit plan ids and reports unknown ones', () => {
    const result = resolveOffers(new URLSearchParams('ult_pack=roots_nope&match_report=roots_report_1499_otp'), catalog, 'roots');
    expect(result.unknown).toEqual([{ param: 'ult_pack', value: 'roots_nope' }]);
    expect(result.offers.map((o) => o.plan.id)).toEqual(['roots_profile_pro_2899_otp', 'roots_report_1499_otp']);
  });
});

describe('the _s2 packs of the skip confirmation', () => {
  const lastChance = (query: string) => {
    const result = resolveOffers(new URLSearchParams(query), catalog, 'roots');
    return { ids: result.lastChance.map((o) => `${o.param}=${o.plan.id}`), unknown: result.unknown };
  };
  it('takes profile_pro_s2 and match_report_s2, defaulting to the lower-priced packs', () => {
    expect(lastChance('profile_pro_s2=roots_profile_pro_1499_otp').ids).toEqual([
      'profile_pro_s2=roots_profile_pro_1499_otp',
      'match_report_s2=roots_report_1499_otp',
    ]);
  });
  it('leaves out a family whose _s2 plan is already the one on the page', () => {
    expect(lastChance('additional_offer_dc=true').ids).toEqual([]);
    expect(lastChance('additional_offer_dc=true&match_report_s2=roots_report_2899_otp').ids).toEqual([
      'match_report_s2=roots_report_2899_otp',
    ]);
  });
  it('reports an unknown _s2 id instead of selling another pack', () => {
    expect(lastChance('profile_pro_s2=roots_nope')).toEqual({
      ids: ['match_report_s2=roots_report_1499_otp'],
      unknown: [{ param: 'profile_pro_s2', value: 'roots_nope' }],
    });
  });
});
