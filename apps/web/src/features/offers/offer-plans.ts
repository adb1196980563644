import type { Plan, PlanCatalog } from '@roots/contracts';

/**
 * The one-time pack families of the offers page and the query parameters naming their plan: plain,
 * `_s` (with `additional_offer_dc=true`) and, for two families, `_s2` (the skip confirmation's pack).
 */
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

export type ResolvedOffers = {
  /** One pack per family, shown on the page. */
  offers: Offer[];
  /**
   * The `_s2` packs (profile pro, match report) the `sure_popup` confirmation offers when the buyer
   * tries to skip: only where that plan differs from the one already on the page (ADR 131).
   */
  lastChance: Offer[];
  /** Parameters naming no known plan: shown as the full-screen message instead of selling another pack. */
  unknown: Array<{ param: string; value: string }>;
};

/**
 * Picks one plan per family: the discounted `_s` parameter when `additional_offer_dc=true`, else the
 * plain one; a missing parameter falls back to the catalog's pack for that family. The `_s2`
 * parameters name the last-chance packs of the skip confirmation. Unknown ids are returned so the
 * page can say so instead of selling something else.
 * @example resolveOffers(new URLSearchParams('sure_popup=true&profile_pro_s2=roots_profile_pro_1499_otp'), catalog, 'roots').lastChance
 */
export function resolveOffers(search: URLSearchParams, catalog: PlanCatalog, slug: string): ResolvedOffers {
  const byId = new Map(catalog.plans.map((plan) => [plan.id, plan]));
  const discounted = search.get('additional_offer_dc') === 'true';
  const offers: Offer[] = [];
  const lastChance: Offer[] = [];
  const unknown: Array<{ param: string; value: string }> = [];
  const pick = (family: string, params: readonly string[], defaults: readonly string[], index: number): Offer | null => {
    const param = params[index]!;
    const id = search.get(param) || `${slug}_${defaults[index]}`;
    const plan = byId.get(id);
    if (plan) return { family, param, plan };
    unknown.push({ param, value: id });
    return null;
  };
  for (const { family, params, defaults } of OFFER_FAMILIES) {
    const shown = pick(family, params, defaults, discounted ? 1 : 0);
    if (shown) offers.push(shown);
    if (params.length < 3) continue;
    const second = pick(family, params, defaults, 2);
    if (second && second.plan.id !== shown?.plan.id) lastChance.push(second);
  }
  return { offers, lastChance, unknown };
}
