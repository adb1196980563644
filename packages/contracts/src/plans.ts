import { z } from 'zod';

/** How long one billing period of a plan lasts. `lifetime` is a one-time purchase. */
export const planLengthSchema = z.enum(['7d', '3m', 'lifetime']);
export type PlanLength = z.infer<typeof planLengthSchema>;

/** Product-spec §3 Plan, plus the trial period the trial price buys (product-spec §9 ids). */
export const planSchema = z.object({
  id: z.string().min(1),
  /** Recurring (or one-time) price in USD. */
  sum: z.number().positive(),
  /** First-period price in USD, when the plan starts with a trial or an introductory price. */
  trial_sum: z.number().positive().optional(),
  /** How long the trial price lasts, e.g. '3d'; present exactly when trial_sum is. */
  trial_length: z.enum(['3d', '3m']).optional(),
  length: planLengthSchema,
  discount_percent: z.number().int().min(0).max(100),
  name: z.string().min(1),
  name_full: z.string().min(1),
  prev_price: z.number().positive().optional(),
  isTrial: z.boolean().optional(),
  isThreeMonthPlan: z.boolean().optional(),
  currency: z.literal('USD'),
});
export type Plan = z.infer<typeof planSchema>;

/** Fields of a plan an operator may change through configuration. */
export const planOverrideSchema = planSchema
  .pick({ sum: true, trial_sum: true, discount_percent: true, name: true, name_full: true, prev_price: true })
  .partial()
  .strict();
export type PlanOverride = z.infer<typeof planOverrideSchema>;

export const planSummaryStatusSchema = z.enum(['Premium', 'Gift', 'Trial']);

/** Product-spec §3 Plan summary derived from a product identifier. */
export const planSummarySchema = z.object({
  name: z.string(),
  price: z.number(),
  status: planSummaryStatusSchema,
  billingPeriod: z.string(),
});
export type PlanSummary = z.infer<typeof planSummarySchema>;

export const singlePurchaseSchema = z.object({ id: z.string(), summary: planSummarySchema });
export type SinglePurchase = z.infer<typeof singlePurchaseSchema>;

export const planCatalogSchema = z.object({
  plans: z.array(planSchema),
  singlePurchases: z.array(singlePurchaseSchema),
  /** The plan used when the plan query parameter is missing or invalid (product-spec §4). */
  defaultPlanId: z.string(),
});
export type PlanCatalog = z.infer<typeof planCatalogSchema>;

/** The nine plans of product-spec §9, keyed by the id suffix after `{product}_`. */
const PLAN_TEMPLATES: ReadonlyArray<Omit<Plan, 'id' | 'currency'> & { suffix: string }> = [
  {
    suffix: '3d1_7d2499',
    trial_sum: 1,
    trial_length: '3d',
    sum: 24.99,
    length: '7d',
    discount_percent: 85,
    prev_price: 9.99,
    name: 'Weekly Plan',
    name_full: '3-day trial, then weekly plan',
    isTrial: true,
  },
  {
    suffix: '3m4800_3m4999',
    trial_sum: 48,
    trial_length: '3m',
    sum: 49.99,
    length: '3m',
    discount_percent: 78,
    name: '3-Month Plan',
    name_full: '3-month plan',
    isThreeMonthPlan: true,
  },
  {
    suffix: 'ultimate_pack_4999_otp',
    sum: 49.99,
    length: 'lifetime',
    discount_percent: 50,
    name: 'Ultimate Pack',
    name_full: 'Ultimate pack: every report and insight',
  },
  {
    suffix: 'profile_pro_2899_otp',
    sum: 28.99,
    length: 'lifetime',
    discount_percent: 33,
    name: 'Profile Pro',
    name_full: 'Profile Pro, one-time purchase',
  },
  {
    suffix: 'profile_pro_1499_otp',
    sum: 14.99,
    length: 'lifetime',
    discount_percent: 65,
    name: 'Profile Pro',
    name_full: 'Profile Pro, one-time purchase (discounted)',
  },
  {
    suffix: 'report_2899_otp',
    sum: 28.99,
    length: 'lifetime',
    discount_percent: 45,
    name: 'Heritage Report',
    name_full: 'Extended heritage report, one-time purchase',
  },
  {
    suffix: 'report_1499_otp',
    sum: 14.99,
    length: 'lifetime',
    discount_percent: 72,
    name: 'Heritage Report',
    name_full: 'Extended heritage report, one-time purchase (discounted)',
  },
  {
    suffix: '3m4800_3m4900',
    trial_sum: 48,
    trial_length: '3m',
    sum: 49,
    length: '3m',
    discount_percent: 78,
    name: '3-Month Plan',
    name_full: '3-month plan',
    isThreeMonthPlan: true,
  },
  {
    suffix: '3d5_7d2499',
    trial_sum: 5,
    trial_length: '3d',
    sum: 24.99,
    length: '7d',
    discount_percent: 85,
    name: 'Weekly Plan',
    name_full: '3-day trial, then weekly plan',
    isTrial: true,
  },
];

/** Single-purchase ids of product-spec §9, priced through the plan summary lookup. */
const SINGLE_PURCHASE_SUFFIXES = ['premium_one_month', 'gift_one_month'] as const;

/** Every known id suffix (plans and single purchases). */
export const PLAN_ID_SUFFIXES: readonly string[] = [...PLAN_TEMPLATES.map((p) => p.suffix), ...SINGLE_PURCHASE_SUFFIXES];

/** Thrown when configuration names a plan the catalog does not know. */
export class UnknownPlanError extends Error {
  constructor(readonly planId: string) {
    super(`unknown plan id '${planId}'`);
    this.name = 'UnknownPlanError';
  }
}

/**
 * Builds the plan catalog for a product slug, applying operator overrides.
 * @example buildPlanCatalog('roots').plans[0].id // 'roots_3d1_7d2499'
 * @throws UnknownPlanError when an override names an id outside the catalog.
 */
export function buildPlanCatalog(slug: string, overrides: Record<string, PlanOverride> = {}): PlanCatalog {
  const plans: Plan[] = PLAN_TEMPLATES.map(({ suffix, ...template }) => ({ ...template, id: `${slug}_${suffix}`, currency: 'USD' }));
  for (const [id, override] of Object.entries(overrides)) {
    const index = plans.findIndex((plan) => plan.id === id);
    if (index === -1) throw new UnknownPlanError(id);
    plans[index] = planSchema.parse({ ...plans[index], ...override });
  }
  const singlePurchases = SINGLE_PURCHASE_SUFFIXES.map((suffix) => {
    const id = `${slug}_${suffix}`;
    return { id, summary: planSummary(id) };
  });
  return { plans, singlePurchases, defaultPlanId: plans[0]!.id };
}

/**
 * Product-spec §9 plan summary lookup by substring of the product identifier.
 * The first matching rule wins; anything else is the weekly $1 trial.
 */
export function planSummary(productId: string): PlanSummary {
  if (productId.includes('premium_one_month'))
    return { name: 'Premium Plan', price: 13.99, status: 'Premium', billingPeriod: 'every 1 month' };
  if (productId.includes('gift_one_month')) return { name: 'Gift Plan', price: 19.99, status: 'Gift', billingPeriod: 'every 1 month' };
  if (productId.includes('3m4800_3m4900')) return { name: '3-Month Plan', price: 49, status: 'Premium', billingPeriod: 'every 3 month' };
  if (productId.includes('3m4800_3m4999')) return { name: '3-Month Plan', price: 49.99, status: 'Premium', billingPeriod: 'every 3 month' };
  if (productId.includes('3d5_7d2499')) return { name: 'Weekly Plan', price: 5, status: 'Trial', billingPeriod: 'every week' };
  return { name: 'Weekly Plan', price: 1, status: 'Trial', billingPeriod: 'every week' };
}

/** The amount charged first: the trial (or introductory) price when the plan has one. */
export function firstChargeAmount(plan: Plan): number {
  return plan.trial_sum ?? plan.sum;
}

/** Words for a plan length, for disclosure copy next to the pay button. */
export function describePlanLength(length: PlanLength | '3d'): string {
  switch (length) {
    case '3d':
      return '3 days';
    case '7d':
      return 'week';
    case '3m':
      return '3 months';
    case 'lifetime':
      return 'lifetime';
  }
}
