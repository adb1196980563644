import type { Plan, PlanCatalog } from '@roots/contracts';
import { planTrialDays, sellablePlans } from '@roots/contracts/plan-claims';

/** product-spec §2: the payment pages read these query parameters, each holding a plan id. */
export const PLAN_QUERY_PARAMS = [
  'plan',
  'skip_trial_plan',
  'ult_pack',
  'ult_pack_s',
  'profile_pro',
  'profile_pro_s',
  'profile_pro_s2',
  'match_report',
  'match_report_s',
  'match_report_s2',
] as const;
export type PlanQueryParam = (typeof PLAN_QUERY_PARAMS)[number];

export type PaywallPlans = {
  /** The plan to sell: `plan` when known, else the catalog's default (the weekly trial). */
  plan: Plan;
  /** Every plan parameter that named a known plan. */
  byParam: Partial<Record<PlanQueryParam, Plan>>;
  /** Parameters whose value is not a known plan id: shown as the full-screen message of §4. */
  unknown: Array<{ param: PlanQueryParam; value: string }>;
};

/** Resolves the plan query parameters against the catalog (product-spec §2, §4). */
export function resolvePaywallPlans(search: URLSearchParams, catalog: PlanCatalog): PaywallPlans {
  // The premium and gift months are sold here too (product-spec §9 single purchases, ADR 101).
  const byId = new Map(sellablePlans(catalog).map((plan) => [plan.id, plan]));
  const byParam: PaywallPlans['byParam'] = {};
  const unknown: PaywallPlans['unknown'] = [];
  for (const param of PLAN_QUERY_PARAMS) {
    const value = search.get(param);
    if (value === null || value === '') continue;
    const plan = byId.get(value);
    if (plan) byParam[param] = plan;
    else unknown.push({ param, value });
  }
  const plan = byParam.plan ?? byId.get(catalog.defaultPlanId) ?? catalog.plans[0]!;
  return { plan, byParam, unknown };
}

/** The link to `skip_trial_plan`, and whether it truly skips a trial (the plan it opens starts without one). */
export type SkipTrialLink = { plan: Plan; skipsTrial: boolean };

/**
 * product-spec §2 `skip_trial_plan`, beside a plan with a trial or an introductory price. Its words
 * name the plan it opens, from that plan's data; "Skip the trial" only when the plan on screen has a
 * trial and the linked one has none (a link to another trial plan must not call itself skipping one).
 */
export function skipTrialLink(plan: Plan, byParam: PaywallPlans['byParam']): SkipTrialLink | null {
  const target = byParam.skip_trial_plan;
  if (!target || target.id === plan.id || plan.trial_sum === undefined) return null;
  return { plan: target, skipsTrial: planTrialDays(plan) !== null && planTrialDays(target) === null };
}
