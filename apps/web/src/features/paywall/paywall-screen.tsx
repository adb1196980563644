import type { PlanCatalog } from '@roots/contracts';
import { buildDisclosure, formatUsd } from '@roots/contracts/disclosure';
import { formatMessage, MESSAGES } from '@roots/contracts/messages';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { SiteFooter } from '../../components/ui/site-footer';
import { FALLBACK_ERROR } from '../../lib/http';
import { usePublicConfig } from '../../lib/public-config-context';
import { getPlans } from './api/get-plans';
import { resolvePaywallPlans } from './paywall-plans';

/** checkout-spec §2: the drop-in is mounted this long after the route opens. */
export const CHECKOUT_MOUNT_DELAY_MS = 50;

/**
 * `/{slug}/subscription`: the plan from the query, the claims of product-spec §1, and next to the
 * pay button the first charge, the renewal and how to cancel — all from the plan data.
 */
export function PaywallScreen() {
  const { t } = useTranslation();
  const { copy, productName } = usePublicConfig();
  const [search] = useSearchParams();
  const [catalog, setCatalog] = useState<PlanCatalog | null>(null);
  const [loadError, setLoadError] = useState(false);

  useEffect(() => {
    const controller = new AbortController();
    getPlans(controller.signal)
      .then(setCatalog)
      .catch(() => !controller.signal.aborted && setLoadError(true));
    return () => controller.abort();
  }, []);

  const resolved = useMemo(() => (catalog ? resolvePaywallPlans(search, catalog) : null), [catalog, search]);

  if (loadError) {
    return (
      <main className="screen">
        <h1 className="screen__title">{t('screens.titles.subscription')}</h1>
        <p role="alert">{FALLBACK_ERROR}</p>
      </main>
    );
  }
  if (!resolved) return <div className="empty-placeholder" aria-busy="true" />;

  const { plan, unknown } = resolved;
  const disclosure = buildDisclosure(plan, productName);
  return (
    <>
      <main className="screen paywall" data-testid="paywall-screen">
        <h1 className="screen__title">{t('screens.titles.subscription')}</h1>
        <p className="paywall__discount">{copy.discountClaim}</p>
        <section className="plan-card" aria-labelledby="plan-name">
          <h2 id="plan-name">{plan.name}</h2>
          <p className="plan-card__price">
            {plan.prev_price !== undefined && (
              <s aria-label={`Previous price ${formatUsd(plan.prev_price)}`}>{formatUsd(plan.prev_price)}</s>
            )}{' '}
            <strong>{formatUsd(plan.trial_sum ?? plan.sum)}</strong> <span>−{plan.discount_percent}%</span>
          </p>
          <p>{plan.name_full}</p>
        </section>
        <ul className="paywall__claims">
          <li>{copy.trialClaim}</li>
          <li>{copy.guaranteeClaim}</li>
          <li>{copy.privacyClaim}</li>
          <li>{copy.biometricClaim}</li>
          <li>
            <strong>{copy.usersClaim}</strong> {t('screens.landing.usersLabel')}
          </li>
        </ul>
        <section className="disclosure" aria-label="Payment terms" data-testid="disclosure">
          <p>{disclosure.firstCharge}</p>
          {disclosure.renewal && <p>{disclosure.renewal}</p>}
          <p>{disclosure.cancellation}</p>
        </section>
        <div id="checkout" className="checkout-slot" data-pay-label={disclosure.payButton} />
        <p className="guarantee">{copy.guaranteeText}</p>
        <p className="hint">{copy.renewalClaim}</p>
      </main>
      <SiteFooter />
      {unknown.length > 0 && (
        <div className="overlay" role="alertdialog" aria-modal="true" aria-labelledby="unknown-plan" data-testid="unknown-plan-overlay">
          <div className="overlay__content">
            <h1 id="unknown-plan">{formatMessage(MESSAGES.unknownPlan, { parameter: unknown[0]!.param })}</h1>
            <p>{unknown.map((u) => `${u.param}=${u.value}`).join(', ')}</p>
          </div>
        </div>
      )}
    </>
  );
}
