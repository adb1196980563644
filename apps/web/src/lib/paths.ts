/**
 * Every route of product-spec §2, relative to the product prefix `/{slug}`.
 * Features link with these; the router in src/app mounts screens on them.
 */
export const ROUTE_PATHS = {
  landing: '*',
  population: 'population',
  subscription: 'subscription',
  offers: 'offers',
  accessProduct: 'access-product',
  signIn: 'sign-in',
  activate: 'activate',
  unsubscription: 'unsubscription',
  unsubscribeWithEmail: 'unsubscribe-with-email',
  accessRecovery: 'access-recovery',
  /** The signed link of the payment-failed email: a new card for one subscription (issue 23). */
  updateCard: 'update-card/:token',
  webapp: 'webapp',
  myEthnicity: 'webapp/myethnicity/:reportId',
  /** 'Take a selfie' in the signed-in app: a report for a customer whose purchase is owed one (ADR 145). */
  selfie: 'webapp/selfie',
  profile: 'webapp/profile',
  reports: 'webapp/reports',
  manageSubscriptions: 'webapp/manage-subscriptions',
  legalCookies: 'legal/cookies',
  legalPrivacy: 'legal/privacy',
  legalTerms: 'legal/terms',
  /** The operator console (issue 13). */
  admin: 'admin',
} as const;

/** Absolute URL path of a product route, e.g. productPath('roots', 'subscription') → '/roots/subscription'. */
export function productPath(slug: string, path: string): string {
  return `/${slug}/${path.replace(/^\//, '')}`;
}
