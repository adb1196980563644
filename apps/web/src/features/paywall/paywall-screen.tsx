import type { PlanCatalog } from '@roots/contracts';
import { planGives } from '@roots/contracts/access';
import { buildDisclosure, formatUsd } from '@roots/contracts/disclosure';
import { planClaims } from '@roots/contracts/plan-claims';
import { lazy, Suspense, useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation, useNavigate, useSearchParams } from 'react-router';
import { UnknownPlanOverlay } from '../../components/ui/unknown-plan-overlay';
import { getPlans, FALLBACK_ERROR } from '../../lib/api-client';
import { AlreadyCustomer } from '../../components/ui/already-customer';
import { useOnboardingStore, useQuizStore } from '../../lib/onboarding-store';
import { productPath, ROUTE_PATHS } from '../../lib/paths';
import { track, trackPurchase } from '../../lib/track';
import { writeSessionValue } from '../../lib/session-keys';
import { createReport } from '../../lib/create-report';
import type { PurchaseResult } from './checkout-section';
import { usePublicConfig } from '../../lib/public-config-context';
import { resolvePaywallPlans, skipTrialLink } from './paywall-plans';
import { SelfieNotice } from './selfie-notice';
import './paywall.css';

/** product-spec §4: after a purchase, tracking gets this long when it is on. */

// Neither is needed for the first paint: the checkout SDK (the drop-in mounts once the payment
// session is there) and the email form (zod and the form library) load beside the plan and claims.
const loadCheckout = () => import('./checkout-section');
const CheckoutSection = lazy(async () => ({ default: (await loadCheckout()).CheckoutSection }));
const EmailForm = lazy(async () => ({ default: (await import('../../components/ui/email-form')).EmailForm }));

/**
 * `/{slug}/subscription`: the plan from the query, the claims of product-spec §1, and next to the
 * pay button the first charge, the renewal and how to cancel — all from the plan data.
 */
export function PaywallScreen() {
  const { t } = useTranslation();
  const { copy, slug, guaranteeDays } = usePublicConfig();
  const [search] = useSearchParams();
  const location = useLocation();
  const navigate = useNavigate();
  const selfie = useOnboardingStore((state) => state.selfie);
  // The email captured by the funnel or the quiz (session value userQuizEmail), else asked for here.
  const email = useQuizStore((state) => state.email);
  const setEmail = useQuizStore((state) => state.setEmail);
  const [catalog, setCatalog] = useState<PlanCatalog | null>(null);
  const [loadError, setLoadError] = useState(false);

  useEffect(() => track(slug, 'subscription offer'), [slug]);
  // The payment form opens once the email is known: the 'payment modal' stage (product-spec §3).
  const setPaymentModalOpen = useQuizStore((state) => state.setPaymentModalOpen);
  useEffect(() => {
    if (!email) return;
    setPaymentModalOpen(true);
    track(slug, 'payment modal');
    return () => setPaymentModalOpen(false);
  }, [email, slug, setPaymentModalOpen]);

  useEffect(() => {
    const controller = new AbortController();
    getPlans(controller.signal)
      .then(setCatalog)
      .catch(() => !controller.signal.aborted && setLoadError(true));
    return () => controller.abort();
  }, []);

  const resolved = catalog ? resolvePaywallPlans(search, catalog) : null;

  // Once the plan is on screen, fetch the checkout's code, so it does not compete with the first
  // paint and is there by the time the email is in.
  useEffect(() => {
    if (catalog) void loadCheckout().catch(() => undefined);
  }, [catalog]);

  const onPurchased = async ({ subscriptionId }: PurchaseResult) => {
    writeSessionValue('userEmail', email);
    writeSessionValue('subscriptionId', subscriptionId);
    // The server recorded the purchase events with the payment it verified; the page tells the
    // tracking service which subscription this visit bought, and gives it 1500 ms.
    await trackPurchase(slug, subscriptionId);
    // The report is created from the selfie kept in memory; a failure here must not lose the purchase.
    // Without it (a reload, a direct link), the signed-in app asks for a selfie (ADR 145).
    if (selfie)
      await createReport({ email, subscriptionId }, selfie.blob, selfie.face).catch((error: unknown) =>
        console.warn('[roots] report upload failed', error),
      );
    void navigate(`${productPath(slug, ROUTE_PATHS.offers)}${location.search}`);
  };

  // Owned already (Back after paying, issue 23): no payment terms beside a page that sells nothing.
  const [owned, setOwned] = useState(false);
  const markOwned = useCallback(() => setOwned(true), []);
  if (loadError) {
    return (
      <main className="screen">
        <h1 className="screen__title">{t('screens.titles.subscription')}</h1>
        <p role="alert">{FALLBACK_ERROR}</p>
      </main>
    );
  }
  if (!resolved) return <div className="empty-placeholder" aria-busy="true" />;

  const { plan, unknown, byParam } = resolved;
  const disclosure = buildDisclosure(plan);
  // skip_trial_plan (product-spec §2): the plan offered to a visitor who would rather not start
  // with a trial; choosing it makes it the plan on screen, so every claim follows it.
  const skipTrial = skipTrialLink(plan, byParam);
  const skipTrialSearch = new URLSearchParams(search);
  if (skipTrial) skipTrialSearch.set('plan', skipTrial.plan.id);
  // Every sentence about trial, discount, renewal and guarantee is true of this plan: a configured
  // claim that is not gives way to the one derived from the plan (ADR 100).
  const claims = planClaims(copy, plan, { guaranteeDays });
  return (
    <>
      <main className="screen paywall" data-testid="paywall-screen" data-plan-id={plan.id}>
        <h1 className="screen__title">{t('screens.titles.subscription')}</h1>
        <section className="plan-card" aria-labelledby="plan-name">
          <h2 id="plan-name">{plan.name}</h2>
          {/* A discount only beside the struck reference price it is computed from (ADR 148). */}
          {claims.discountHeadline && claims.struckPrice && (
            <p className="paywall__discount" data-testid="discount-headline">
              {claims.discountHeadline}
            </p>
          )}
          <p className="plan-card__price" data-testid="plan-price">
            {/* A struck price and its saving only where the saving on screen is the real one. */}
            {claims.struckPrice && (
              <>
                <s aria-label={`Previous price ${formatUsd(claims.struckPrice.previous)}`}>{formatUsd(claims.struckPrice.previous)}</s>{' '}
              </>
            )}
            <strong>{formatUsd(plan.trial_sum ?? plan.sum)}</strong>
            {claims.struckPrice && <span> −{claims.struckPrice.percentOff}%</span>}
          </p>
          <p>{plan.name_full}</p>
          {/* What the purchase gives, in one line from the product data (issue 35, ADR 194). */}
          <p className="plan-card__gives" data-testid="plan-gives">
            {planGives(plan.id)}
          </p>
        </section>
        {skipTrial && (
          <Link className="button button--link" to={`?${skipTrialSearch.toString()}`} data-testid="skip-trial">
            {t(skipTrial.skipsTrial ? 'screens.paywall.skipTrial' : 'screens.paywall.switchPlan', {
              name: skipTrial.plan.name_full,
              price: formatUsd(skipTrial.plan.trial_sum ?? skipTrial.plan.sum),
            })}
          </Link>
        )}
        <ul className="paywall__claims" data-testid="plan-claims">
          {claims.trialClaim && <li data-testid="trial-claim">{claims.trialClaim}</li>}
          {claims.guaranteeClaim && <li>{claims.guaranteeClaim}</li>}
          <li>{copy.privacyClaim}</li>
          <li>{copy.biometricClaim}</li>
          <li>
            <strong>{copy.usersClaim}</strong> {t('screens.landing.usersLabel')}
          </li>
        </ul>
        {!owned && <SelfieNotice inMemory={selfie !== null} />}
        {!owned && (
          <section className="disclosure" aria-label="Payment terms" data-testid="disclosure">
            <p>{disclosure.firstCharge}</p>
            {disclosure.renewal && <p>{disclosure.renewal}</p>}
            <p>{disclosure.cancellation}</p>
          </section>
        )}
        <Suspense fallback={<div className={email ? 'checkout-slot' : 'paywall__form-slot'} aria-busy="true" />}>
          {email ? (
            <CheckoutSection
              key={plan.id}
              plan={plan}
              email={email}
              disclosure={disclosure}
              onPurchased={(result) => void onPurchased(result)}
              onPurchaseError={() => track(slug, 'purchase error')}
              onOwned={markOwned}
            />
          ) : (
            <EmailForm label={t('screens.onboarding.emailLabel')} submitLabel={t('screens.onboarding.continue')} onSubmit={setEmail} />
          )}
        </Suspense>
        {claims.guaranteeText && (
          <p className="guarantee" data-testid="guarantee-text">
            {claims.guaranteeText}
          </p>
        )}
        {claims.renewalClaim && (
          <p className="hint" data-testid="renewal-claim">
            {claims.renewalClaim}
          </p>
        )}
        {!owned && <AlreadyCustomer />}
      </main>
      <UnknownPlanOverlay
        unknown={unknown}
        exit={
          <Link className="button button--primary" to={productPath(slug, '')}>
            {t('screens.unknownPlan.toStart')}
          </Link>
        }
      />
    </>
  );
}
