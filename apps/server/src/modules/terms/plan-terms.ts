import { firstChargeAmount, planSummary, type Plan, type PlanCatalog } from '@roots/contracts';
import { singlePurchasePlan } from '@roots/contracts/plan-claims';
import { accessKindForPlan, consentTermsOf, type AccessKind, type AgreedSummary } from '@roots/contracts/subscriptions';
import { addMonths, DAY_MS } from '../../lib/clock';
import { fromMinor, toMinor } from '../../lib/money';

/** A period length as billing understands it. */
export type PeriodLength = { unit: 'day' | 'month'; count: number };

/** Everything billing needs to know about a purchasable id (plan or single purchase). */
export type PlanTerms = {
  id: string;
  name: string;
  /** Minor units charged for period 0 (the trial price when there is one). */
  firstAmountMinor: number;
  /** Minor units charged for every later period; null when the purchase never renews. */
  renewalAmountMinor: number | null;
  /** Length of period 0; null for lifetime purchases. */
  firstPeriod: PeriodLength | null;
  /** Length of every renewal period; null when it never renews. */
  renewalPeriod: PeriodLength | null;
  hasTrial: boolean;
  recurring: boolean;
  access: AccessKind;
  disclosure: { terms_text: string; terms_version: string };
};

function lengthOf(code: '3d' | '7d' | '3m'): PeriodLength {
  switch (code) {
    case '3d':
      return { unit: 'day', count: 3 };
    case '7d':
      return { unit: 'day', count: 7 };
    case '3m':
      return { unit: 'month', count: 3 };
  }
}

/** The end of a period of `length` starting at `start`. */
export function periodEnd(start: Date, length: PeriodLength): Date {
  return length.unit === 'day' ? new Date(start.getTime() + length.count * DAY_MS) : addMonths(start, length.count);
}

function termsOfPlan(plan: Plan): PlanTerms {
  const recurring = plan.length !== 'lifetime';
  return {
    id: plan.id,
    name: plan.name,
    firstAmountMinor: toMinor(firstChargeAmount(plan)),
    renewalAmountMinor: recurring ? toMinor(plan.sum) : null,
    firstPeriod:
      plan.length === 'lifetime'
        ? null
        : plan.trial_sum !== undefined && plan.trial_length
          ? lengthOf(plan.trial_length)
          : lengthOf(plan.length),
    renewalPeriod: plan.length === 'lifetime' ? null : lengthOf(plan.length),
    hasTrial: plan.trial_sum !== undefined,
    recurring,
    access: accessKindForPlan(plan.id),
    disclosure: consentTermsOf(plan),
  };
}

/** Terms of a plan or single purchase id of the catalog; undefined when unknown. */
export function planTerms(catalog: PlanCatalog, id: string): PlanTerms | undefined {
  const plan = catalog.plans.find((candidate) => candidate.id === id);
  if (plan) return termsOfPlan(plan);
  const single = catalog.singlePurchases.find((candidate) => candidate.id === id);
  if (!single) return undefined;
  const summary = planSummary(single.id);
  const amount = toMinor(summary.price);
  return {
    id: single.id,
    name: summary.name,
    firstAmountMinor: amount,
    renewalAmountMinor: null,
    firstPeriod: { unit: 'month', count: 1 },
    renewalPeriod: null,
    hasTrial: false,
    recurring: false,
    access: accessKindForPlan(single.id),
    // The words the paywall shows next to the pay button for it (ADR 101).
    disclosure: consentTermsOf(singlePurchasePlan(single)),
  };
}

/**
 * The terms a subscription's buyer agreed to (issue 23): those recorded at purchase; for a purchase
 * made before terms were recorded, the catalog's (the only record there is). A catalog change
 * (PLAN_OVERRIDES) applies to new purchases only.
 */
export function agreedTermsOf(catalog: PlanCatalog, row: { planId: string; agreedTerms: PlanTerms | null }): PlanTerms | undefined {
  return row.agreedTerms ?? planTerms(catalog, row.planId);
}

/** The record of `terms` as agreed at purchase, in the currency charged. */
export function agreedRecord(terms: PlanTerms, currency: string): PlanTerms & { currency: string } {
  return { ...terms, currency };
}

/**
 * A trial in the customer's sense: a first period shorter than the others (the weekly plan's three
 * days), not a first period at an introductory price (the 3-month plan's first 3 months).
 */
export function isFreeStandingTrial(terms: Pick<PlanTerms, 'hasTrial' | 'firstPeriod' | 'renewalPeriod'>): boolean {
  const { firstPeriod: first, renewalPeriod: renewal } = terms;
  return terms.hasTrial && first !== null && renewal !== null && (first.unit !== renewal.unit || first.count !== renewal.count);
}

/** The agreed terms as the owner's account reads them (issue 35): the price and periods they consented to. */
export function agreedSummaryOf(terms: PlanTerms | undefined): AgreedSummary | null {
  if (!terms) return null;
  return {
    name: terms.name,
    first_amount: fromMinor(terms.firstAmountMinor),
    renewal_amount: terms.renewalAmountMinor === null ? null : fromMinor(terms.renewalAmountMinor),
    first_period: terms.firstPeriod,
    renewal_period: terms.renewalPeriod,
    trial: isFreeStandingTrial(terms),
  };
}
