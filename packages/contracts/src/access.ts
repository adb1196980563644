// Zod-free on purpose: the paywall and the offers page import it (ADR 081 budget).

/** What a purchased plan unlocks (product-spec §6). `subscription` is the recurring plan itself. */
export const ACCESS_KINDS = ['subscription', 'profile_pro', 'report', 'ultimate_pack', 'premium_one_month', 'gift_one_month'] as const;
export type AccessKind = (typeof ACCESS_KINDS)[number];

/**
 * What each access kind includes besides itself (issue 23, ADR 194): the Ultimate Pack holds every
 * report and Profile Pro; Profile Pro holds the heritage report of the buyer's selfie. What is
 * included is never sold on top of what includes it.
 */
export const ACCESS_INCLUDES: Readonly<Record<AccessKind, readonly AccessKind[]>> = {
  subscription: [],
  profile_pro: ['report'],
  report: [],
  ultimate_pack: ['report', 'profile_pro'],
  premium_one_month: [],
  gift_one_month: [],
};

/**
 * Purchases that include the face analysis and its heritage reports (product-spec §6): every one
 * (Profile Pro too since ADR 194: its profile is made from the buyer's selfie). Where the geo policy
 * blocks the face analysis, these are not sold (ADR 123).
 */
export const FACE_ANALYSIS_ACCESS_KINDS: readonly AccessKind[] = [
  'subscription',
  'profile_pro',
  'report',
  'ultimate_pack',
  'premium_one_month',
  'gift_one_month',
];

/** Every access kind `owned` grants, with what each includes. */
export function coveredAccess(owned: Iterable<AccessKind>): Set<AccessKind> {
  const covered = new Set<AccessKind>();
  for (const kind of owned) {
    covered.add(kind);
    for (const included of ACCESS_INCLUDES[kind]) covered.add(included);
  }
  return covered;
}

/**
 * True when what is owned (with what it includes) holds the face analysis and its heritage reports:
 * the customer may send a selfie for a report, and is owed one until it is made (ADR 145, ADR 194).
 */
export function includesFaceAnalysis(owned: Iterable<AccessKind>): boolean {
  return [...coveredAccess(owned)].some((kind) => FACE_ANALYSIS_ACCESS_KINDS.includes(kind));
}

/** The access a plan id grants, by substring of the id (as the plan summary lookup does). */
export function accessKindForPlan(planId: string): AccessKind {
  if (planId.includes('ultimate_pack')) return 'ultimate_pack';
  if (planId.includes('profile_pro')) return 'profile_pro';
  if (planId.includes('report_')) return 'report';
  if (planId.includes('premium_one_month')) return 'premium_one_month';
  if (planId.includes('gift_one_month')) return 'gift_one_month';
  return 'subscription';
}

/**
 * What each access kind gives the customer, in one line (issue 35, ADR 194): the paywall, the offers
 * page and the access screen say it beside the product, so nothing is sold without saying what it is.
 * Every line is true of what the signed-in app delivers for that purchase.
 */
export const ACCESS_GIVES: Readonly<Record<AccessKind, string>> = {
  subscription:
    'Your heritage report from a selfie, with the daily horoscope, your biorhythm and population insights, for as long as your plan runs.',
  profile_pro:
    'Your heritage profile from one selfie: a report of your ethnicity breakdown, facial traits and cultural insights, with your daily horoscope and biorhythm, yours for good.',
  report: 'An extended heritage report of one selfie: your ethnicity breakdown, facial traits and cultural insights, yours for good.',
  ultimate_pack: 'Everything, for good: Profile Pro and a heritage report of every selfie you send, with every insight.',
  premium_one_month:
    'One month of premium access, charged once: your heritage report from a selfie, the daily horoscope, biorhythm and population insights.',
  gift_one_month:
    'One month of premium access as a gift, charged once: a heritage report from a selfie, the daily horoscope, biorhythm and population insights.',
};

/**
 * What buying `planId` gives, in one line.
 * @example planGives('roots_profile_pro_2899_otp') // 'Your heritage profile from one selfie: …'
 */
export function planGives(planId: string): string {
  return ACCESS_GIVES[accessKindForPlan(planId)];
}
