import type { ProductCopy } from './config';
import { formatUsd } from './disclosure';
import type { Plan, PlanCatalog, PlanSummary, SinglePurchase } from './plans';

// Zod-free on purpose: the paywall and the landing import it (ADR 081 budget).

/** What a marketing sentence asserts about a plan, as far as it can be read from its words. */
export type ClaimFacts = {
  /** 'N-day trial', 'trial of N days', 'N-week trial' → days. */
  trialDays: number | null;
  /** Mentions a trial at all (with or without a length). */
  mentionsTrial: boolean;
  /** 'N% discount', 'N% off', 'save N%' → N. A '100% money back' is not a discount. */
  discountPercent: number | null;
  /** 'every week', 'weekly', 'every 3 months', 'monthly' … → days of one period (approximate for months). */
  renewalPeriodDays: number | null;
  /** Says the plan renews, recurs or charges until cancelled. */
  mentionsRenewal: boolean;
  /** Every '$N' amount in the text. */
  amounts: number[];
  /** 'within N days' → N (the money-back window). */
  windowDays: number | null;
};

const UNIT_DAYS: Record<string, number> = { day: 1, week: 7, month: 30, year: 365 };
const NUMBER_WORDS: Record<string, number> = {
  one: 1,
  two: 2,
  three: 3,
  four: 4,
  five: 5,
  six: 6,
  seven: 7,
  ten: 10,
  fourteen: 14,
  thirty: 30,
};

const toNumber = (word: string): number => NUMBER_WORDS[word.toLowerCase()] ?? Number(word);
const NUMBER = '(\\d+|one|two|three|four|five|six|seven|ten|fourteen|thirty)';

/**
 * Reads the facts a sentence states about trial, discount, renewal, price and refund window.
 * @example readClaimFacts('7-day trial').trialDays // 7
 */
export function readClaimFacts(text: string): ClaimFacts {
  const lower = text.toLowerCase();
  const trial =
    new RegExp(`${NUMBER}[\\s-]*(day|week|month)s?[\\s-]+(?:free[\\s-]+)?trial`).exec(lower) ??
    new RegExp(`trial (?:of|for) ${NUMBER}[\\s-]*(day|week|month)s?`).exec(lower);
  const discount = /(\d{1,3})\s*%\s*(?:discount|off\b|saving)/.exec(lower) ?? /\bsave\s+(\d{1,3})\s*%/.exec(lower);
  const window = new RegExp(`within ${NUMBER}[\\s-]*(day|week|month)s?`).exec(lower);
  let renewalPeriodDays: number | null = null;
  const every = new RegExp(`every\\s+(?:${NUMBER}\\s+)?(day|week|month|year)s?`).exec(lower);
  if (every) renewalPeriodDays = (every[1] ? toNumber(every[1]) : 1) * UNIT_DAYS[every[2]!]!;
  else if (/\bweekly\b/.test(lower)) renewalPeriodDays = 7;
  else if (/\bmonthly\b/.test(lower)) renewalPeriodDays = 30;
  else if (/\bquarterly\b/.test(lower)) renewalPeriodDays = 90;
  else if (/\b(?:yearly|annually)\b/.test(lower)) renewalPeriodDays = 365;
  return {
    trialDays: trial ? toNumber(trial[1]!) * UNIT_DAYS[trial[2]!]! : null,
    mentionsTrial: /\btrial\b/.test(lower),
    discountPercent: discount ? Number(discount[1]) : null,
    renewalPeriodDays,
    mentionsRenewal: renewalPeriodDays !== null || /\b(?:renew|recurr|until (?:you )?cancel)/.test(lower),
    amounts: [...text.matchAll(/\$\s?(\d+(?:[.,]\d{1,2})?)/g)].map((match) => Number(match[1]!.replace(',', '.'))),
    windowDays: window ? toNumber(window[1]!) * UNIT_DAYS[window[2]!]! : null,
  };
}

/** Facts of the sale that a claim must agree with. */
export type ClaimContext = {
  /** Days after a charge within which the money-back guarantee refunds it (MONEY_BACK_GUARANTEE_DAYS). */
  guaranteeDays: number;
};

/** Days of the free-standing trial a plan starts with; null when it has none (3-month intro price, packs). */
export function planTrialDays(plan: Plan): number | null {
  return plan.trial_sum !== undefined && plan.trial_length === '3d' ? 3 : null;
}

/** Days of one renewal period; null for one-time purchases. */
export function planPeriodDays(plan: Plan): number | null {
  switch (plan.length) {
    case '7d':
      return 7;
    case '3m':
      return 90;
    case 'lifetime':
      return null;
  }
}

const PERIOD_PHRASE: Record<Plan['length'], string> = { '7d': 'every week', '3m': 'every 3 months', lifetime: 'once' };

/**
 * Why a marketing sentence is untrue of a plan; empty when nothing it states contradicts it.
 * @example claimContradictions('7-day trial', weekly, ctx) // ['says a 7-day trial; the plan has a 3-day trial']
 */
export function claimContradictions(text: string, plan: Plan, context: ClaimContext): string[] {
  const facts = readClaimFacts(text);
  const problems: string[] = [];
  const trialDays = planTrialDays(plan);
  if (facts.trialDays !== null && facts.trialDays !== trialDays)
    problems.push(`says a ${facts.trialDays}-day trial; the plan has ${trialDays === null ? 'no trial' : `a ${trialDays}-day trial`}`);
  else if (facts.mentionsTrial && trialDays === null) problems.push('mentions a trial; the plan has none');
  if (facts.discountPercent !== null && facts.discountPercent !== plan.discount_percent)
    problems.push(`says ${facts.discountPercent}% off; the plan's discount is ${plan.discount_percent}%`);
  const periodDays = planPeriodDays(plan);
  if (facts.renewalPeriodDays !== null && facts.renewalPeriodDays !== periodDays)
    problems.push(`says it renews every ${facts.renewalPeriodDays} days; the plan renews ${PERIOD_PHRASE[plan.length]}`);
  else if (facts.mentionsRenewal && periodDays === null) problems.push('says it renews; the plan is a one-time purchase');
  const prices = [plan.sum, plan.trial_sum].filter((amount): amount is number => amount !== undefined);
  for (const amount of facts.amounts)
    if (!prices.includes(amount)) problems.push(`names ${formatUsd(amount)}; the plan costs ${prices.map(formatUsd).join(' then ')}`);
  if (facts.windowDays !== null && facts.windowDays !== context.guaranteeDays)
    problems.push(`says a ${facts.windowDays}-day window; the money-back guarantee lasts ${context.guaranteeDays} days`);
  if (/money[\s-]*back|refund/i.test(text) && context.guaranteeDays === 0) problems.push('promises money back; no guarantee is configured');
  return problems;
}

/** A struck previous price and the percentage it saves, shown only when the arithmetic holds. */
export type StruckPrice = { previous: number; current: number; percentOff: number };

/**
 * The struck-through previous price of a plan, when `1 − current / previous` rounds to the plan's
 * own discount; otherwise null (a struck price whose saving differs from the badge misleads).
 */
export function struckPrice(plan: Plan): StruckPrice | null {
  if (plan.prev_price === undefined) return null;
  const current = plan.trial_sum ?? plan.sum;
  if (current >= plan.prev_price) return null;
  const percentOff = Math.round((1 - current / plan.prev_price) * 100);
  return percentOff === plan.discount_percent ? { previous: plan.prev_price, current, percentOff } : null;
}

/** Every plan-related sentence the funnel shows next to a plan. Null: nothing true to say. */
export type PlanClaims = {
  discountHeadline: string | null;
  struckPrice: StruckPrice | null;
  trialClaim: string | null;
  guaranteeClaim: string | null;
  guaranteeText: string | null;
  renewalClaim: string | null;
};

/** The copy keys checked against a plan, each with the sentence said instead when it contradicts. */
export const PLAN_COPY_KEYS = ['discountClaim', 'trialClaim', 'guaranteeClaim', 'guaranteeText', 'renewalClaim'] as const;
export type PlanCopyKey = (typeof PLAN_COPY_KEYS)[number];

/** The sentence derived from plan data alone for one copy key; null when the plan has nothing to claim. */
export function derivedClaim(key: PlanCopyKey, plan: Plan, context: ClaimContext): string | null {
  const trialDays = planTrialDays(plan);
  const periodDays = planPeriodDays(plan);
  const guarantee = context.guaranteeDays > 0;
  switch (key) {
    case 'discountClaim':
      // A discount is said only beside the reference price it is computed from, struck through (ADR 148).
      return struckPrice(plan) ? `Get ${plan.discount_percent}% Discount Today` : null;
    case 'trialClaim':
      return trialDays === null ? null : `${trialDays}-day trial`;
    case 'guaranteeClaim':
      return guarantee ? '100% money back guarantee' : null;
    case 'guaranteeText':
      if (!guarantee) return null;
      return trialDays === null
        ? `Not happy? Write to us within ${context.guaranteeDays} days of a payment and get 100% of your money back, no questions asked.`
        : `Not happy with your ${trialDays}-day trial? Write to us within ${context.guaranteeDays} days of payment and get 100% of your money back, no questions asked.`;
    case 'renewalClaim':
      return periodDays === null ? null : `Your plan renews automatically ${PERIOD_PHRASE[plan.length]} until cancelled.`;
  }
}

/**
 * The configured sentence for a key when it is true of the plan, else the plan-derived one.
 * Applies to keys the plan has something to say about: a trial claim is never shown for a plan
 * without a trial, a renewal claim never for a one-time pack.
 */
export function planClaim(key: PlanCopyKey, copy: ProductCopy, plan: Plan, context: ClaimContext): string | null {
  const derived = derivedClaim(key, plan, context);
  if (derived === null) return null;
  return claimContradictions(copy[key], plan, context).length === 0 ? copy[key] : derived;
}

/**
 * Every plan sentence of the funnel for the plan on screen.
 * @example planClaims(DEFAULT_PRODUCT_COPY, threeMonth, { guaranteeDays: 30 }).trialClaim // null
 */
export function planClaims(copy: ProductCopy, plan: Plan, context: ClaimContext): PlanClaims {
  return {
    discountHeadline: planClaim('discountClaim', copy, plan, context),
    struckPrice: struckPrice(plan),
    trialClaim: planClaim('trialClaim', copy, plan, context),
    guaranteeClaim: planClaim('guaranteeClaim', copy, plan, context),
    guaranteeText: planClaim('guaranteeText', copy, plan, context),
    renewalClaim: planClaim('renewalClaim', copy, plan, context),
  };
}

/** One configured claim that will be hidden with a plan, for the start-up warning. */
export type ClaimWarning = { key: PlanCopyKey; text: string; planId: string; problems: string[] };

/**
 * The configured claims that contradict a plan they would be shown with. `npm start` prints them;
 * the funnel shows the plan-derived sentence instead.
 */
export function contradictedClaims(copy: ProductCopy, plans: readonly Plan[], context: ClaimContext): ClaimWarning[] {
  const warnings: ClaimWarning[] = [];
  for (const plan of plans)
    for (const key of PLAN_COPY_KEYS) {
      if (derivedClaim(key, plan, context) === null) continue;
      const problems = claimContradictions(copy[key], plan, context);
      if (problems.length > 0) warnings.push({ key, text: copy[key], planId: plan.id, problems });
    }
  return warnings;
}

// ----- plans sold beside the catalog's, and the signed-in area's summary of a purchase ---------

/**
 * A single purchase (premium or gift month) as a plan the paywall can sell: its summary's name and
 * price, charged once for one month of access (ADR 101). No discount is claimed for it.
 * @example singlePurchasePlan({ id: 'roots_premium_one_month', summary }).sum // 13.99
 */
export function singlePurchasePlan(single: SinglePurchase): Plan {
  return {
    id: single.id,
    sum: single.summary.price,
    length: 'lifetime',
    discount_percent: 0,
    name: single.summary.name,
    name_full: `${single.summary.name}: one month of ${single.summary.status === 'Gift' ? 'gifted ' : ''}premium access`,
    currency: 'USD',
  };
}

/** Every plan a payment page may sell: the catalog's plans, then its single purchases. */
export function sellablePlans(catalog: PlanCatalog): Plan[] {
  return [...catalog.plans, ...catalog.singlePurchases.map(singlePurchasePlan)];
}

/** What the signed-in area says about a purchase: name, recurring (or one-time) price and its period. */
export type PlanAccountSummary = { name: string; price: number; period: string; status: PlanSummary['status'] };

/**
 * The plan summary of a purchased id, from the catalog's own data (product-spec §3 plan summary:
 * name, price, status, billing period). The price is what each period costs after any trial.
 * @returns null for an id the catalog does not sell.
 */
export function planAccountSummary(catalog: PlanCatalog, planId: string): PlanAccountSummary | null {
  const plan = catalog.plans.find((candidate) => candidate.id === planId);
  if (plan) {
    const period = plan.length === 'lifetime' ? 'one-time purchase' : PERIOD_PHRASE[plan.length];
    return { name: plan.name, price: plan.sum, period, status: plan.isTrial ? 'Trial' : 'Premium' };
  }
  const single = catalog.singlePurchases.find((candidate) => candidate.id === planId);
  if (!single) return null;
  return { name: single.summary.name, price: single.summary.price, period: 'one month, charged once', status: single.summary.status };
}
