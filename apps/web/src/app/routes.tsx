import type { RouteObject } from 'react-router';
import { EmptyPlaceholder } from '../components/ui/empty-placeholder';
import { fetchGeoPolicy } from '../lib/geo-policy';
import { ROUTE_PATHS } from '../lib/paths';
import { RootLayout } from './root-layout';

/** One geo-policy question per page load, asked beside the landing's code download. */
let geoPolicy: ReturnType<typeof fetchGeoPolicy> | undefined;
/** The funnel, or where the face analysis is not offered (geo policy, issue 13) the screen that says so. */
const landing = async () => {
  const [policy, onboarding] = await Promise.all([(geoPolicy ??= fetchGeoPolicy()), import('../features/onboarding/onboarding-screen')]);
  if (policy && !policy.face_analysis) {
    const { GeoPolicyScreen } = await import('../features/geo-policy/geo-policy-screen');
    return { loader: () => policy, Component: GeoPolicyScreen };
  }
  return { Component: onboarding.OnboardingScreen };
};
const admin = async () => ({ Component: (await import('../features/admin/admin-screen')).AdminScreen });
const notFound = async () => ({ Component: (await import('../features/not-found/not-found-screen')).NotFoundScreen });
/** The paywall, or where the face analysis is not offered the geo-policy screen: its plans include it and are not sold there. */
const paywall = async () => {
  const [policy, screen] = await Promise.all([(geoPolicy ??= fetchGeoPolicy()), import('../features/paywall/paywall-screen')]);
  if (policy && !policy.face_analysis) {
    const { GeoPolicyScreen } = await import('../features/geo-policy/geo-policy-screen');
    return { loader: () => policy, Component: GeoPolicyScreen };
  }
  return { Component: screen.PaywallScreen };
};
const unsubscription = async () => ({ Component: (await import('../features/cancel/cancel-screen')).UnsubscriptionScreen });
const unsubscribeWithEmail = async () => ({ Component: (await import('../features/cancel/cancel-screen')).UnsubscribeWithEmailScreen });
const updateCard = async () => ({ Component: (await import('../features/update-card/update-card-screen')).UpdateCardScreen });
const offers = async () => ({ Component: (await import('../features/offers/offers-screen')).OffersScreen });
const signIn = async () => ({ Component: (await import('../features/sign-in/sign-in-screen')).SignInScreen });
const activate = async () => ({ Component: (await import('../features/sign-in/sign-in-screen')).ActivateScreen });
const webappHome = async () => ({ Component: (await import('../features/webapp-home/webapp-home-screen')).WebappHomeScreen });
const profile = async () => ({ Component: (await import('../features/webapp-profile/profile-screen')).ProfileScreen });
const manageSubscriptions = async () => ({
  Component: (await import('../features/webapp-manage-subscriptions/manage-subscriptions-screen')).ManageSubscriptionsScreen,
});
const myEthnicity = async () => ({ Component: (await import('../features/webapp-my-ethnicity/my-ethnicity-screen')).MyEthnicityScreen });
/**
 * The in-app selfie, or where the face analysis is not offered the screen that says so, before any
 * consent or upload (issue 35: an EU subscriber was led through both, then refused).
 */
const selfie = async () => {
  const [policy, screen] = await Promise.all([(geoPolicy ??= fetchGeoPolicy()), import('../features/webapp-selfie/selfie-screen')]);
  if (policy && !policy.face_analysis) {
    const { GeoPolicyScreen } = await import('../features/geo-policy/geo-policy-screen');
    return { loader: () => policy, Component: GeoPolicyScreen };
  }
  return { Component: screen.SelfieScreen };
};
const reports = async () => ({ Component: (await import('../features/webapp-reports/reports-screen')).ReportsScreen });
const accessRecovery = async () => ({
  Component: (await import('../features/access-recovery/access-recovery-screen')).AccessRecoveryScreen,
});
const legal = async () => ({ Component: (await import('../features/legal/legal-screen')).LegalScreen });
const population = async () => ({ Component: (await import('../features/population/population-screen')).PopulationScreen });
const accessProduct = async () => ({
  Component: (await import('../features/access-product/access-product-screen')).AccessProductScreen,
});

/**
 * The route table of product-spec §2 under `/{slug}`; every screen is its own lazily loaded chunk.
 */
export function createRoutes(slug: string): RouteObject[] {
  return [
    {
      path: `/${slug}`,
      Component: RootLayout,
      HydrateFallback: EmptyPlaceholder,
      children: [
        { index: true, lazy: landing },
        { path: ROUTE_PATHS.landing, lazy: landing },
        { path: ROUTE_PATHS.population, lazy: population, handle: { titleKey: 'population' } },
        { path: ROUTE_PATHS.subscription, lazy: paywall },
        { path: ROUTE_PATHS.offers, lazy: offers },
        { path: ROUTE_PATHS.accessProduct, lazy: accessProduct, handle: { titleKey: 'accessProduct' } },
        { path: ROUTE_PATHS.signIn, lazy: signIn, handle: { titleKey: 'signIn' } },
        { path: ROUTE_PATHS.activate, lazy: activate, handle: { titleKey: 'activate' } },
        { path: ROUTE_PATHS.unsubscription, lazy: unsubscription },
        { path: ROUTE_PATHS.unsubscribeWithEmail, lazy: unsubscribeWithEmail },
        { path: ROUTE_PATHS.accessRecovery, lazy: accessRecovery, handle: { titleKey: 'accessRecovery' } },
        { path: ROUTE_PATHS.updateCard, lazy: updateCard, handle: { titleKey: 'updateCard' } },
        { path: ROUTE_PATHS.legalCookies, lazy: legal, handle: { legalDocument: 'cookies' } },
        { path: ROUTE_PATHS.legalPrivacy, lazy: legal, handle: { legalDocument: 'privacy' } },
        { path: ROUTE_PATHS.legalTerms, lazy: legal, handle: { legalDocument: 'terms' } },
        { path: ROUTE_PATHS.admin, lazy: admin },
        {
          path: ROUTE_PATHS.webapp,
          children: [
            { index: true, lazy: webappHome, handle: { titleKey: 'webappHome' } },
            { path: ROUTE_PATHS.myEthnicity.replace('webapp/', ''), lazy: myEthnicity, handle: { titleKey: 'myEthnicity' } },
            { path: ROUTE_PATHS.selfie.replace('webapp/', ''), lazy: selfie, handle: { titleKey: 'selfie' } },
            { path: ROUTE_PATHS.profile.replace('webapp/', ''), lazy: profile, handle: { titleKey: 'profile' } },
            { path: ROUTE_PATHS.reports.replace('webapp/', ''), lazy: reports, handle: { titleKey: 'reports' } },
            {
              path: ROUTE_PATHS.manageSubscriptions.replace('webapp/', ''),
              lazy: manageSubscriptions,
              handle: { titleKey: 'manageSubscriptions' },
            },
            { path: '*', lazy: notFound },
          ],
        },
      ],
    },
    { path: '*', Component: RootLayout, HydrateFallback: EmptyPlaceholder, children: [{ path: '*', lazy: notFound }] },
  ];
}
