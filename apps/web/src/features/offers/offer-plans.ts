import type { Plan, PlanCatalog } from '@roots/contracts';

/** The one-time pack families of the offers page and the query parameters naming their plan. */
export const OFFER_FAMILIES = [
  { family: 'ult_pack', params: ['ult_pack', 'ult_pack_s'], defaults: ['ultimate_pack_4999_otp', 'ultimate_pack_4999_otp'] },
  {
    family: 'profile_pro',
    params: ['profile_pro', 'profile_pro_s', 'profile_pro_s2'],
    defaults: ['profile_pro_2899_otp', 'profile_pro_1499_otp', 'profile_pro_1499_otp'],
  },
  {
    family: 'match_report',
    params: ['match_report', 'match_report_s', 'match_report_s2'],
    defaults: ['report_2899_otp', 'report_1499_otp', 'report_1499_otp'],
  },
] as const;

export type Offer = { family: string; param: string; plan: Plan };

/**
 * Picks one plan per family: the discounted `_s` parameter when `additional_offer_dc=true`, else the
 * plain one; a missing parameter falls back to the catalog's pack for that family. Unknown ids are
 * returned so the page can say so instead of selling something else.
 */
export function resolveOffers(
  search: URLSearchParams,
  catalog: PlanCatalog,
  slug: string,
): { offers: Offer[]; unknown: Array<{ param: string; value: string }> } {
  const byId = new Map(catalog.plans.map((plan) => [plan.id, plan]));
  const discounted = search.get('additional_offer_dc') === 'true';
  const offers: Offer[] = [];
  const unknown: Array<{ param: string; value: string }> = [];
  for (const { family, params, defaults } of OFFER_FAMILIES) {
    const index = discounted ? 1 : 0;
    const param = params[index]!;
    const id = search.get(param) || `${slug}_${defaults[index]}`;
    const plan = byId.get(id);
    if (plan) offers.push({ family, param, plan });
    else unknown.push({ param, value: id });
  }
  return { offers, unknown };
}
